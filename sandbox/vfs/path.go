package vfs

import "strings"

// walked is the result of resolving a path.
type walked struct {
	dir *inode // directory holding the final component
	// name is the final component. It is "." or ".." when the path ended
	// in one of them (or named the root), and then dir == node.
	name string
	node *inode // the final inode, nil if the name does not exist in dir
	// slash is true when the path ended in a slash, which requires a
	// directory.
	slash bool
}

// perm bits checked against the owner bits of a mode.
const (
	permR = 4
	permW = 2
	permX = 1
)

func (n *inode) can(want uint32) bool { return uint32(n.mode>>6)&want == want }

// walk resolves path from base (ignored for absolute paths). Every
// non-final symlink is followed; the final one when follow is true or the
// path ends in a slash. A missing final component is not an error: the
// result has node == nil so that creating operations can use dir and name.
// f.mu is held.
func (f *FS) walk(base Ino, path string, follow bool) (walked, Errno) {
	if len(path) > PathMax {
		return walked{}, ENAMETOOLONG
	}
	root := f.root()
	cur := root
	if path == "" || path[0] != '/' {
		b, ok := f.inode(base)
		if !ok {
			return walked{}, EBADF
		}
		cur = b
	}
	if cur.typ != TypeDir {
		return walked{}, ENOTDIR
	}
	rest := path
	links := 0
	for {
		for len(rest) > 0 && rest[0] == '/' {
			rest = rest[1:]
		}
		if rest == "" {
			// The path (or a symlink target) named cur itself.
			return walked{dir: cur, name: ".", node: cur, slash: true}, 0
		}
		var comp string
		// last: comp is the final component; slash: and a slash follows
		// it, which requires a directory (and so follows a symlink).
		last, slash := false, false
		if i := strings.IndexByte(rest, '/'); i < 0 {
			comp, rest, last = rest, "", true
		} else {
			comp, rest = rest[:i], rest[i:]
			last = strings.TrimLeft(rest, "/") == ""
			slash = last
		}
		if len(comp) > NameMax {
			return walked{}, ENAMETOOLONG
		}
		if cur.typ != TypeDir {
			return walked{}, ENOTDIR
		}
		if !cur.can(permX) {
			return walked{}, EACCES
		}
		var next *inode
		switch comp {
		case ".":
			next = cur
		case "..":
			if cur.host != nil {
				var e Errno
				if next, e = f.hostParent(cur); e != 0 {
					return walked{}, e
				}
			} else {
				next = cur.parent
			}
			if next == nil { // a removed directory
				return walked{}, ENOENT
			}
		default:
			if cur.host != nil {
				var e Errno
				if next, e = f.hostLookup(cur, comp); e != 0 {
					return walked{}, e
				}
			} else {
				next = cur.entries[comp]
			}
		}
		if next == nil {
			if last {
				return walked{dir: cur, name: comp, slash: slash}, 0
			}
			return walked{}, ENOENT
		}
		if next.typ == TypeSymlink && (!last || follow || slash) {
			links++
			if links > MaxLinks {
				return walked{}, ELOOP
			}
			if next.target == "" {
				return walked{}, ENOENT
			}
			if len(next.target)+len(rest) > PathMax {
				return walked{}, ENAMETOOLONG
			}
			rest = next.target + rest
			if next.target[0] == '/' {
				cur = root
			}
			continue
		}
		if last {
			if comp == "." || comp == ".." {
				// dir is the named directory itself: callers must not use
				// name as an entry of dir.
				return walked{dir: next, name: comp, node: next, slash: slash}, 0
			}
			if slash && next.typ != TypeDir {
				return walked{}, ENOTDIR
			}
			return walked{dir: cur, name: comp, node: next, slash: slash}, 0
		}
		cur = next
	}
}

// lookup resolves path to an existing inode.
func (f *FS) lookup(base Ino, path string, follow bool) (*inode, Errno) {
	w, e := f.walk(base, path, follow)
	if e != 0 {
		return nil, e
	}
	if w.node == nil {
		return nil, ENOENT
	}
	return w.node, 0
}
