package vfs

import (
	"io/fs"
	"slices"
	"strings"
	"time"
)

// maxNlink bounds hard links to one inode (EMLINK past it).
const maxNlink = 1<<16 - 1

// dirSize is the Size reported for directories.
const dirSize = 4096

func (n *inode) stat() Stat {
	if n.host != nil {
		return n.hostStat()
	}
	s := Stat{
		Dev:    DevID,
		Ino:    n.ino,
		Type:   n.typ,
		Mode:   n.mode,
		Nlink:  n.nlink,
		Atime:  time.Unix(0, n.atime.Load()),
		Mtime:  time.Unix(0, n.mtime),
		Ctime:  time.Unix(0, n.ctime),
		Device: n.dev,
	}
	switch n.typ {
	case TypeRegular:
		s.Size = n.size
	case TypeDir:
		s.Size = dirSize
	case TypeSymlink:
		s.Size = int64(len(n.target))
	}
	return s
}

func special(name string) bool { return name == "." || name == ".." }

// checkCreate reports whether a new entry may be added to dir.
func (f *FS) checkCreate(dir *inode) Errno {
	if dir.nlink == 0 {
		return ENOENT // dir was removed
	}
	if !dir.can(permW | permX) {
		return EACCES
	}
	if len(f.inodes) >= f.maxI {
		return ENOSPC
	}
	return 0
}

// create adds a new inode of type t named name to dir. The caller checked
// checkCreate.
func (f *FS) create(dir *inode, name string, t FileType, perm fs.FileMode) *inode {
	now := f.nowNano()
	n := f.newInode(t, unixPerm(perm), now)
	dir.setEntry(name, n)
	dir.mtime, dir.ctime = now, now
	if t == TypeDir {
		n.nlink = 2
		n.parent = dir
		dir.nlink++
	} else {
		n.nlink = 1
	}
	return n
}

// Lookup resolves path from base and returns the inode it names. Symlinks
// are followed in every non-final component, and in the final one when
// follow is true.
func (f *FS) Lookup(base Ino, path string, follow bool) (Ino, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	n, e := f.lookup(base, path, follow)
	if e != 0 {
		return 0, pathErr("lookup", path, e)
	}
	return n.ino, nil
}

// Stat returns the Stat of the inode path names.
func (f *FS) Stat(base Ino, path string, follow bool) (Stat, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	n, e := f.lookup(base, path, follow)
	if e != 0 {
		return Stat{}, pathErr("stat", path, e)
	}
	return n.stat(), nil
}

// StatIno returns the Stat of inode ino, which may be unlinked but open.
func (f *FS) StatIno(ino Ino) (Stat, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	n, ok := f.inode(ino)
	if !ok {
		return Stat{}, pathErr("stat", "#"+itoa(uint64(ino)), ENOENT)
	}
	return n.stat(), nil
}

// Mkdir creates directory path with permission bits perm. An existing name
// (even a dangling symlink) gives EEXIST.
func (f *FS) Mkdir(base Ino, path string, perm fs.FileMode) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return pathErr("mkdir", path, f.mkdir(base, path, perm))
}

func (f *FS) mkdir(base Ino, path string, perm fs.FileMode) Errno {
	w, e := f.walk(base, path, false)
	if e != 0 {
		return e
	}
	if w.inMount() {
		return f.hostMkdir(w, perm)
	}
	if w.node != nil {
		return EEXIST
	}
	if e := f.checkCreate(w.dir); e != 0 {
		return e
	}
	f.create(w.dir, w.name, TypeDir, perm)
	return 0
}

// MkdirAll creates the absolute directory path and any missing parents with
// permission bits perm. Existing directories (or symlinks to them) are
// fine; any other existing file gives ENOTDIR.
func (f *FS) MkdirAll(path string, perm fs.FileMode) error {
	if !strings.HasPrefix(path, "/") {
		return pathErr("mkdir", path, EINVAL)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	// Create each prefix in turn; prefixes are cheap to resolve.
	for i := 1; i <= len(path); i++ {
		if i < len(path) && path[i] != '/' {
			continue
		}
		prefix := path[:i]
		n, e := f.lookup(RootIno, prefix, true)
		switch {
		case e == ENOENT:
			if e := f.mkdir(RootIno, prefix, perm); e != 0 {
				return pathErr("mkdir", path, e)
			}
		case e != 0:
			return pathErr("mkdir", path, e)
		case n.typ != TypeDir:
			return pathErr("mkdir", path, ENOTDIR)
		}
	}
	return nil
}

// Rmdir removes the empty directory path: ENOTEMPTY if it has entries,
// ENOTDIR if it is not a directory, EBUSY for the root.
func (f *FS) Rmdir(base Ino, path string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return pathErr("rmdir", path, f.rmdir(base, path))
}

func (f *FS) rmdir(base Ino, path string) Errno {
	w, e := f.walk(base, path, false)
	if e != 0 {
		return e
	}
	if w.inMount() {
		return f.hostRemove(w, true)
	}
	n := w.node
	switch {
	case n == nil:
		return ENOENT
	case n.ino == RootIno:
		return EBUSY
	case w.name == ".":
		return EINVAL
	case w.name == "..":
		return ENOTEMPTY
	case n.typ != TypeDir:
		return ENOTDIR
	case len(n.entries) > 0:
		return ENOTEMPTY
	case !w.dir.can(permW | permX):
		return EACCES
	}
	now := f.nowNano()
	w.dir.removeEntry(w.name)
	w.dir.nlink--
	w.dir.mtime, w.dir.ctime = now, now
	n.nlink = 0
	n.parent = nil
	n.ctime = now
	f.maybeFree(n)
	return 0
}

// Unlink removes the name path of a non-directory (EISDIR for
// directories). The inode lives on while other links or open files refer
// to it.
func (f *FS) Unlink(base Ino, path string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return pathErr("unlink", path, f.unlink(base, path))
}

func (f *FS) unlink(base Ino, path string) Errno {
	w, e := f.walk(base, path, false)
	if e != 0 {
		return e
	}
	if w.inMount() {
		return f.hostRemove(w, false)
	}
	n := w.node
	switch {
	case n == nil:
		return ENOENT
	case n.typ == TypeDir || special(w.name):
		return EISDIR
	case !w.dir.can(permW | permX):
		return EACCES
	}
	now := f.nowNano()
	w.dir.removeEntry(w.name)
	w.dir.mtime, w.dir.ctime = now, now
	n.nlink--
	n.ctime = now
	f.maybeFree(n)
	return 0
}

// Rename moves oldPath to newPath as POSIX rename(2) does: an existing
// newPath is replaced if it is a file (when oldPath is not a directory) or
// an empty directory (when oldPath is one). Moving a directory into itself
// gives EINVAL; renaming a name onto another link of the same inode does
// nothing.
func (f *FS) Rename(oldBase Ino, oldPath string, newBase Ino, newPath string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return pathErr("rename", oldPath, f.rename(oldBase, oldPath, newBase, newPath))
}

func (f *FS) rename(oldBase Ino, oldPath string, newBase Ino, newPath string) Errno {
	ow, e := f.walk(oldBase, oldPath, false)
	if e != 0 {
		return e
	}
	src := ow.node
	if src == nil {
		return ENOENT
	}
	if special(ow.name) || src.ino == RootIno {
		return EBUSY
	}
	nw, e := f.walk(newBase, newPath, false)
	if e != 0 {
		return e
	}
	if ow.inMount() || nw.inMount() {
		return f.hostRename(ow, nw)
	}
	if special(nw.name) || (nw.node != nil && nw.node.ino == RootIno) {
		return EBUSY
	}
	dst := nw.node
	if src.typ != TypeDir && (ow.slash || nw.slash) {
		return ENOTDIR
	}
	if !ow.dir.can(permW|permX) || !nw.dir.can(permW|permX) {
		return EACCES
	}
	if nw.dir.nlink == 0 {
		return ENOENT
	}
	if dst == src {
		return 0
	}
	if src.typ == TypeDir {
		for d := nw.dir; ; d = d.parent {
			if d == src {
				return EINVAL
			}
			if d == nil || d.ino == RootIno {
				break
			}
		}
		if dst != nil {
			if dst.typ != TypeDir {
				return ENOTDIR
			}
			if len(dst.entries) > 0 {
				return ENOTEMPTY
			}
		}
	} else if dst != nil && dst.typ == TypeDir {
		return EISDIR
	}
	now := f.nowNano()
	if dst != nil {
		nw.dir.removeEntry(nw.name)
		if dst.typ == TypeDir {
			dst.nlink = 0
			dst.parent = nil
			nw.dir.nlink--
		} else {
			dst.nlink--
		}
		dst.ctime = now
		f.maybeFree(dst)
	}
	ow.dir.removeEntry(ow.name)
	nw.dir.setEntry(nw.name, src)
	if src.typ == TypeDir && ow.dir != nw.dir {
		ow.dir.nlink--
		nw.dir.nlink++
		src.parent = nw.dir
	}
	src.ctime = now
	ow.dir.mtime, ow.dir.ctime = now, now
	nw.dir.mtime, nw.dir.ctime = now, now
	return 0
}

// Link makes newPath a hard link to the inode oldPath names (a final
// symlink is not followed). Directories cannot be linked: EPERM.
func (f *FS) Link(oldBase Ino, oldPath string, newBase Ino, newPath string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return pathErr("link", oldPath, f.link(oldBase, oldPath, newBase, newPath))
}

func (f *FS) link(oldBase Ino, oldPath string, newBase Ino, newPath string) Errno {
	src, e := f.lookup(oldBase, oldPath, false)
	if e != 0 {
		return e
	}
	if src.typ == TypeDir {
		return EPERM
	}
	nw, e := f.walk(newBase, newPath, false)
	switch {
	case e != 0:
		return e
	case src.host != nil || nw.inMount():
		return f.hostLink(src, nw)
	case nw.node != nil:
		return EEXIST
	case nw.slash:
		return ENOENT
	case src.nlink >= maxNlink:
		return EMLINK
	case nw.dir.nlink == 0:
		return ENOENT
	case !nw.dir.can(permW | permX):
		return EACCES
	}
	now := f.nowNano()
	nw.dir.setEntry(nw.name, src)
	nw.dir.mtime, nw.dir.ctime = now, now
	src.nlink++
	src.ctime = now
	return 0
}

// Symlink creates path as a symbolic link to target. The target is stored
// as given and resolved only when the link is followed; its length counts
// against the byte limit.
func (f *FS) Symlink(target string, base Ino, path string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return pathErr("symlink", path, f.symlink(target, base, path))
}

func (f *FS) symlink(target string, base Ino, path string) Errno {
	if target == "" {
		return ENOENT
	}
	if len(target) >= PathMax {
		return ENAMETOOLONG
	}
	w, e := f.walk(base, path, false)
	switch {
	case e != 0:
		return e
	case w.inMount():
		return f.hostSymlink(target, w)
	case w.node != nil:
		return EEXIST
	case w.slash:
		return ENOENT
	}
	if e := f.checkCreate(w.dir); e != 0 {
		return e
	}
	if f.used+int64(len(target)) > f.maxB {
		return ENOSPC
	}
	n := f.create(w.dir, w.name, TypeSymlink, 0o777)
	n.target = target
	f.used += int64(len(target))
	return 0
}

// Readlink returns the target of the symlink path (EINVAL if it is not one).
func (f *FS) Readlink(base Ino, path string) (string, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	n, e := f.lookup(base, path, false)
	if e != 0 {
		return "", pathErr("readlink", path, e)
	}
	if n.typ != TypeSymlink {
		return "", pathErr("readlink", path, EINVAL)
	}
	return n.target, nil
}

// Mkfifo creates the named pipe path with permission bits perm.
func (f *FS) Mkfifo(base Ino, path string, perm fs.FileMode) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return pathErr("mkfifo", path, f.mknode(base, path, TypeFIFO, DevNone, perm))
}

// Mknod creates the character device dev at the absolute path path, as the
// layout of /dev needs.
func (f *FS) Mknod(path string, dev Device, perm fs.FileMode) error {
	if dev == DevNone || dev > DevStderr {
		return pathErr("mknod", path, EINVAL)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return pathErr("mknod", path, f.mknode(RootIno, path, TypeCharDevice, dev, perm))
}

func (f *FS) mknode(base Ino, path string, t FileType, dev Device, perm fs.FileMode) Errno {
	w, e := f.walk(base, path, false)
	switch {
	case e != 0:
		return e
	case w.inMount():
		return f.hostMknode(w)
	case w.node != nil:
		return EEXIST
	case w.slash:
		return ENOENT
	}
	if e := f.checkCreate(w.dir); e != 0 {
		return e
	}
	n := f.create(w.dir, w.name, t, perm)
	n.dev = dev
	return 0
}

// Chmod sets the permission bits of the inode path names (0o7777; the
// fs.ModeSetuid, fs.ModeSetgid and fs.ModeSticky flags are accepted too).
func (f *FS) Chmod(base Ino, path string, mode fs.FileMode, follow bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, e := f.lookup(base, path, follow)
	if e != 0 {
		return pathErr("chmod", path, e)
	}
	if n.host != nil {
		return pathErr("chmod", path, f.hostChmod(n, mode))
	}
	f.chmod(n, mode)
	return nil
}

func (f *FS) chmod(n *inode, mode fs.FileMode) {
	n.mode = unixPerm(mode)
	n.ctime = f.nowNano()
}

// SetTimes sets the access and modification times of the inode path names;
// a nil time is left unchanged. The change time becomes now.
func (f *FS) SetTimes(base Ino, path string, follow bool, atime, mtime *time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, e := f.lookup(base, path, follow)
	if e != 0 {
		return pathErr("utimes", path, e)
	}
	if n.host != nil {
		return pathErr("utimes", path, f.hostSetTimes(n, atime, mtime))
	}
	f.setTimes(n, atime, mtime)
	return nil
}

func (f *FS) setTimes(n *inode, atime, mtime *time.Time) {
	if atime != nil {
		n.atime.Store(atime.UnixNano())
	}
	if mtime != nil {
		n.mtime = mtime.UnixNano()
	}
	n.ctime = f.nowNano()
}

// Truncate sets the size of the regular file path (following symlinks).
// Growing makes a hole that reads as zeros but counts against the byte
// limit.
func (f *FS) Truncate(base Ino, path string, size int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, e := f.lookup(base, path, true)
	if e == 0 {
		switch {
		case n.typ == TypeDir:
			e = EISDIR
		case n.typ != TypeRegular:
			e = EINVAL
		case !n.can(permW):
			e = EACCES
		default:
			e = f.truncate(n, size)
		}
	}
	return pathErr("truncate", path, e)
}

// truncate checks limits and sets n's size. f.mu is held.
func (f *FS) truncate(n *inode, size int64) Errno {
	if n.host != nil {
		return f.hostTruncate(n, nil, size)
	}
	if size < 0 {
		return EINVAL
	}
	if size > MaxFileSize {
		return EFBIG
	}
	if size > n.size && f.used+(size-n.size) > f.maxB {
		return ENOSPC
	}
	f.truncateData(n, size)
	now := f.nowNano()
	n.mtime, n.ctime = now, now
	return 0
}

// ReadDir returns the entries of directory path sorted by name, without
// "." and "..". The list is the caller's.
func (f *FS) ReadDir(base Ino, path string) ([]DirEntry, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	n, e := f.lookup(base, path, true)
	if e == 0 {
		if n.typ != TypeDir {
			e = ENOTDIR
		} else if !n.can(permR) {
			e = EACCES
		}
	}
	if e != 0 {
		return nil, pathErr("readdir", path, e)
	}
	if n.host != nil {
		list, e := f.hostReadDir(n)
		return list, pathErr("readdir", path, e)
	}
	return slices.Clone(n.dirEntries()), nil
}

// maxListing is the most entries of a directory whose sorted listing is
// kept (32 bytes an entry, the names shared with the directory): a larger
// directory is sorted again on each listing rather than held twice.
const maxListing = 4096

// setEntry makes name in directory n refer to c. f.mu is held for writing.
func (n *inode) setEntry(name string, c *inode) {
	n.entries[name] = c
	n.listing.Store(nil)
}

// removeEntry removes name from directory n. f.mu is held for writing.
func (n *inode) removeEntry(name string) {
	delete(n.entries, name)
	n.listing.Store(nil)
}

// dirEntries lists a directory sorted by name. f.mu is held, for reading
// at least. The list is shared and kept until the directory changes:
// callers must not modify it.
func (n *inode) dirEntries() []DirEntry {
	if l := n.listing.Load(); l != nil {
		return *l
	}
	list := make([]DirEntry, 0, len(n.entries))
	for name, c := range n.entries {
		list = append(list, DirEntry{Name: name, Ino: c.ino, Type: c.typ})
	}
	slices.SortFunc(list, func(a, b DirEntry) int { return strings.Compare(a.Name, b.Name) })
	if len(list) <= maxListing {
		n.listing.Store(&list)
	}
	return list
}

// ReadFile returns the contents of the regular file at the absolute path
// path. It needs read permission like Open.
func (f *FS) ReadFile(path string) ([]byte, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	n, e := f.lookup(RootIno, path, true)
	if e == 0 {
		switch {
		case n.typ == TypeDir:
			e = EISDIR
		case n.typ != TypeRegular:
			e = EINVAL
		case !n.can(permR):
			e = EACCES
		}
	}
	if e != 0 {
		return nil, pathErr("read", path, e)
	}
	if n.host != nil {
		b, e := f.hostReadFile(n)
		return b, pathErr("read", path, e)
	}
	b := make([]byte, n.size)
	n.readData(b, 0)
	n.atime.Store(f.nowNano())
	return b, nil
}

// WriteFile writes data to the absolute path path, creating it with
// permission bits perm or truncating it first.
func (f *FS) WriteFile(path string, data []byte, perm fs.FileMode) error {
	h, err := f.Open(RootIno, path, OWrite|OCreate|OTrunc, perm)
	if err != nil {
		return err
	}
	_, err = h.Write(data)
	h.Close()
	if err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	return nil
}
