package vfs

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/wasmsand/wasmsand/sandbox/internal/wire"
)

// The tree encoding written by AppendSnapshot and read by DecodeSnapshot:
//
//	nextIno   uvarint   the next inode number to hand out
//	maxBytes  uvarint   the byte limit
//	maxInodes uvarint   the inode limit
//	count     uvarint   inodes that follow, in increasing inode order
//	inode*
//
// Each inode is
//
//	inoDelta  uvarint   its number minus the previous one's (the first: minus 0)
//	kind      byte      1 regular, 2 dir, 3 symlink, 4 FIFO, 5 char device,
//	                    0x81 a regular file given by an abbreviation
//	mode      uvarint   permission bits, at most 0o7777
//	nlink     uvarint   links; checked against the directory entries
//	mtime     varint    Unix ns minus the previous inode's mtime
//	atime     varint    Unix ns minus this mtime
//	ctime     varint    Unix ns minus this mtime
//
// followed, by kind, by
//
//	regular   size uvarint, then ⌈size/65536⌉ chunks, each a uvarint length
//	          and that many bytes: the chunk's bytes without trailing zeros
//	          (a hole is an empty chunk)
//	abbrev    key string: the caller's name for the bytes
//	dir       parent uvarint, count uvarint, then count entries (name
//	          string, ino uvarint) in increasing byte order of name
//	symlink   target string
//	FIFO      nothing
//	device    device byte
//
// Strings are a uvarint length and the bytes. Files unlinked but still
// open are not written, nor are FIFO contents or open handles, nor (with
// SnapshotOptions.OmitShared) shared files nothing has changed. The same
// tree always gives the same bytes.

const kindAbbrev = 0x80

// SnapshotOptions adjust AppendSnapshot.
type SnapshotOptions struct {
	// Abbrev, if set, is offered every regular file of at most 256
	// bytes; when it returns a key, the file is written as that key, and
	// DecodeSnapshot's expand must turn the key back into the same bytes.
	Abbrev func(data []byte) (key string, ok bool)
	// OmitShared leaves out the regular files that WriteSharedFile (or
	// WriteFileShared) made and nothing has changed since (with a single
	// link): their bytes belong to whoever shared them, who can place them
	// again.
	OmitShared bool
}

// untouchedShared reports whether n is a file WriteSharedFile made that
// nothing has written since, with one name.
func untouchedShared(n *inode) bool {
	if n.typ != TypeRegular || n.nlink != 1 || n.size == 0 || int64(len(n.chunks)) != (n.size+chunkSize-1)/chunkSize {
		return false
	}
	for _, c := range n.chunks {
		if c == nil || c.gen != 0 {
			return false
		}
	}
	return true
}

// AppendSnapshot appends the encoding of the tree to b and returns the
// extended slice. opts may be nil.
func (f *FS) AppendSnapshot(b []byte, opts *SnapshotOptions) []byte {
	if opts == nil {
		opts = &SnapshotOptions{}
	}
	abbrev := opts.Abbrev
	f.mu.RLock()
	defer f.mu.RUnlock()
	inos := make([]Ino, 0, len(f.inodes))
	data := 0 // bytes of file data held, holes not counted
	for ino, n := range f.inodes {
		if opts.OmitShared && untouchedShared(n) {
			continue
		}
		if n.nlink > 0 || ino == RootIno {
			inos = append(inos, ino)
			for _, c := range n.chunks {
				if c != nil {
					data += c.length()
				}
			}
			data += len(n.target)
		}
	}
	slices.Sort(inos)
	w := wire.Writer{B: slices.Grow(b, data+64*len(inos)+64)}
	w.Uvarint(uint64(f.nextIno))
	w.Uvarint(uint64(f.maxB))
	w.Uvarint(uint64(f.maxI))
	w.Uvarint(uint64(len(inos)))
	var prevIno Ino
	var prevMtime int64
	var small []byte
	var names []string
	for _, ino := range inos {
		n := f.inodes[ino]
		w.Uvarint(uint64(ino - prevIno))
		prevIno = ino
		kind := byte(n.typ)
		var key string
		if n.typ == TypeRegular && abbrev != nil && n.size <= 256 {
			small = slices.Grow(small[:0], int(n.size))[:n.size]
			n.readData(small, 0)
			if k, ok := abbrev(small); ok {
				kind |= kindAbbrev
				key = k
			}
		}
		w.Byte(kind)
		w.Uvarint(uint64(n.mode))
		w.Uvarint(n.nlink)
		w.Varint(n.mtime - prevMtime)
		prevMtime = n.mtime
		w.Varint(n.atime.Load() - n.mtime)
		w.Varint(n.ctime - n.mtime)
		switch {
		case kind&kindAbbrev != 0:
			w.String(key)
		case n.typ == TypeRegular:
			w.Uvarint(uint64(n.size))
			for ci := int64(0); ci*chunkSize < n.size; ci++ {
				var data []byte
				if ci < int64(len(n.chunks)) && n.chunks[ci] != nil {
					data = n.chunks[ci].bytes()
					if end := n.size - ci*chunkSize; int64(len(data)) > end {
						data = data[:end]
					}
				}
				w.Bytes(trimZeros(data))
			}
		case n.typ == TypeDir:
			w.Uvarint(uint64(n.parent.ino))
			names = names[:0]
			for name, c := range n.entries {
				if opts.OmitShared && untouchedShared(c) {
					continue
				}
				names = append(names, name)
			}
			slices.Sort(names)
			w.Uvarint(uint64(len(names)))
			for _, name := range names {
				w.String(name)
				w.Uvarint(uint64(n.entries[name].ino))
			}
		case n.typ == TypeSymlink:
			w.String(n.target)
		case n.typ == TypeCharDevice:
			w.Byte(byte(n.dev))
		}
	}
	return w.B
}

// trimZeros drops the zero bytes at the end of p.
func trimZeros(p []byte) []byte {
	i := len(p)
	for i >= 8 && p[i-1]|p[i-2]|p[i-3]|p[i-4]|p[i-5]|p[i-6]|p[i-7]|p[i-8] == 0 {
		i -= 8
	}
	for i > 0 && p[i-1] == 0 {
		i--
	}
	return p[:i]
}

// DecodeSnapshot builds an FS from bytes AppendSnapshot wrote. opts gives
// the clock and random source; the limits come from the bytes (change
// them with SetLimits). expand turns the keys of abbreviated files back
// into their bytes. The data is copied: b may change afterwards.
//
// Every structural rule is checked — inode numbers, kinds, modes, names,
// link counts, that every inode is reachable from the root and every
// directory has exactly one parent — and a violation is an error; the
// bytes never give a partial FS.
func DecodeSnapshot(b []byte, opts Options, expand func(key string) ([]byte, bool)) (*FS, error) {
	r := wire.NewReader(b)
	f := &FS{
		gen: genCounter.Add(1),
	}
	f.SetClock(opts.Clock)
	f.SetRandom(opts.Random)
	f.nextIno = Ino(r.Uvarint())
	f.maxB = int64(r.Uint(1<<62, "byte limit"))
	f.maxI = int(r.Uint(1<<40, "inode limit"))
	count := r.Count(8, "the inode table")
	f.inodes = make(map[Ino]*inode, count)
	var dirs []linkRec
	block := make([]inode, count)
	var prevIno Ino
	var prevMtime int64
	for i := 0; i < count && r.Err() == nil; i++ {
		n := &block[i]
		delta := r.Uvarint()
		if r.Err() == nil && (delta == 0 || delta > uint64(^Ino(0)-prevIno)) {
			r.Fail("inode numbers not increasing")
		}
		n.ino = prevIno + Ino(delta)
		prevIno = n.ino
		kind := r.Byte()
		n.typ = FileType(kind &^ kindAbbrev)
		if r.Err() == nil && (n.typ < TypeRegular || n.typ > TypeCharDevice || kind&kindAbbrev != 0 && n.typ != TypeRegular || kind&0x78 != 0) {
			r.Fail("inode %d has unknown kind %#x", n.ino, kind)
		}
		n.mode = fs.FileMode(r.Uint(0o7777, "mode"))
		n.nlink = r.Uint(1<<32, "link count")
		n.mtime = prevMtime + r.Varint()
		prevMtime = n.mtime
		n.atime.Store(n.mtime + r.Varint())
		n.ctime = n.mtime + r.Varint()
		switch {
		case kind&kindAbbrev != 0:
			key := r.String("an abbreviation")
			if r.Err() != nil {
				break
			}
			var data []byte
			ok := false
			if expand != nil {
				data, ok = expand(key)
			}
			if !ok {
				r.Fail("inode %d: unknown abbreviation %q", n.ino, key)
				break
			}
			f.setData(n, data)
		case n.typ == TypeRegular:
			size := r.Uint(MaxFileSize, "file size")
			nchunks := (size + chunkSize - 1) / chunkSize
			if r.Err() == nil && nchunks > uint64(r.Len()) {
				r.Fail("inode %d: file size %d larger than the bytes left", n.ino, size)
				break
			}
			n.size = int64(size)
			n.chunks = make([]*chunk, nchunks)
			for ci := range n.chunks {
				p := r.Bytes("file data")
				if r.Err() != nil {
					break
				}
				end := min(int64(chunkSize), n.size-int64(ci)*chunkSize)
				if int64(len(p)) > end {
					r.Fail("inode %d: chunk %d longer than the file", n.ino, ci)
					break
				}
				if len(p) > 0 {
					n.chunks[ci] = &chunk{gen: f.gen, data: bytes.Clone(p)}
				}
			}
			f.used += n.size
		case n.typ == TypeDir:
			d := linkRec{n: n, parent: Ino(r.Uvarint())}
			k := r.Count(2, "a directory")
			d.names = make([]string, 0, k)
			d.inos = make([]Ino, 0, k)
			for j := 0; j < k && r.Err() == nil; j++ {
				name := r.String("a name")
				ino := Ino(r.Uvarint())
				if r.Err() != nil {
					break
				}
				if name == "" || special(name) || len(name) > NameMax || strings.ContainsAny(name, "/\x00") {
					r.Fail("directory %d: bad name %q", n.ino, name)
				} else if j > 0 && name <= d.names[j-1] {
					r.Fail("directory %d: names not sorted", n.ino)
				}
				d.names = append(d.names, name)
				d.inos = append(d.inos, ino)
			}
			dirs = append(dirs, d)
		case n.typ == TypeSymlink:
			n.target = r.String("a symlink target")
			if r.Err() == nil && (n.target == "" || len(n.target) > PathMax) {
				r.Fail("symlink %d: bad target length %d", n.ino, len(n.target))
			}
			f.used += int64(len(n.target))
		case n.typ == TypeCharDevice:
			n.dev = Device(r.Byte())
			if r.Err() == nil && (n.dev == DevNone || n.dev > DevStderr) {
				r.Fail("device %d: unknown device %d", n.ino, n.dev)
			}
		}
		f.inodes[n.ino] = n
	}
	r.End("the inode table")
	if err := r.Err(); err != nil {
		return nil, err
	}
	if err := f.linkDecoded(dirs); err != nil {
		return nil, err
	}
	return f, nil
}

// linkRec is a decoded directory whose entries are not yet linked.
type linkRec struct {
	n      *inode
	parent Ino
	names  []string
	inos   []Ino
}

// linkDecoded fills in the directories of a decoded tree and checks it.
func (f *FS) linkDecoded(dirs []linkRec) error {
	bad := func(format string, args ...any) error {
		return &wire.Error{Check: wire.CheckFormat, Msg: fmt.Sprintf(format, args...)}
	}
	root, ok := f.inodes[RootIno]
	if !ok || root.typ != TypeDir {
		return bad("no root directory")
	}
	if len(f.inodes) > 0 {
		var top Ino
		for ino := range f.inodes {
			top = max(top, ino)
		}
		if f.nextIno <= top {
			return bad("next inode number %d not past %d", f.nextIno, top)
		}
	}
	refs := make(map[Ino]uint64, len(f.inodes))
	for _, d := range dirs {
		d.n.entries = make(map[string]*inode, len(d.names))
		for j, name := range d.names {
			c, ok := f.inodes[d.inos[j]]
			if !ok {
				return bad("directory %d: %q names missing inode %d", d.n.ino, name, d.inos[j])
			}
			if c.typ == TypeDir {
				if c.ino == RootIno || c.parent != nil {
					return bad("directory %d has more than one parent", c.ino)
				}
				if d.parent == 0 {
					return bad("directory %d: bad parent", d.n.ino)
				}
				c.parent = d.n
				d.n.nlink-- // counted below as the child's ".."
			}
			d.n.entries[name] = c
			refs[c.ino]++
		}
	}
	for _, d := range dirs {
		want := RootIno
		if d.n.ino != RootIno {
			if d.n.parent == nil {
				return bad("directory %d is in no directory", d.n.ino)
			}
			want = d.n.parent.ino
		} else {
			d.n.parent = d.n
		}
		if d.parent != want {
			return bad("directory %d: parent %d, found in %d", d.n.ino, d.parent, want)
		}
	}
	// Link counts: a directory has 2 plus one per subdirectory (taken off
	// above, so 2 must remain); anything else one per entry.
	for ino, n := range f.inodes {
		switch {
		case n.typ == TypeDir && ino == RootIno:
			if n.nlink != 2 {
				return bad("directory %d: wrong link count", ino)
			}
		case n.typ == TypeDir:
			if n.nlink != 2 || refs[ino] != 1 {
				return bad("directory %d: wrong link count", ino)
			}
		case n.nlink != refs[ino] || n.nlink == 0:
			return bad("inode %d: link count %d but %d names", ino, n.nlink, refs[ino])
		}
	}
	// Reachability: every directory's chain of parents ends at the root.
	for _, d := range dirs {
		n := d.n
		for steps := 0; n.ino != RootIno; steps++ {
			if steps > len(dirs) {
				return bad("directory %d is not reachable from the root", d.n.ino)
			}
			n = n.parent
		}
	}
	// Restore the directories' real link counts.
	for _, d := range dirs {
		for _, c := range d.n.entries {
			if c.typ == TypeDir {
				d.n.nlink++
			}
		}
	}
	return nil
}

// setData makes data the contents of regular file n (copied), counting
// its bytes.
func (f *FS) setData(n *inode, data []byte) {
	n.size = int64(len(data))
	n.chunks = make([]*chunk, 0, (len(data)+chunkSize-1)/chunkSize)
	for off := 0; off < len(data); off += chunkSize {
		end := min(off+chunkSize, len(data))
		n.chunks = append(n.chunks, &chunk{gen: f.gen, data: bytes.Clone(data[off:end])})
	}
	f.used += n.size
}
