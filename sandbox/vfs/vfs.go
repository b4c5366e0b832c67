// Package vfs is the in-memory POSIX-like filesystem of one sandbox: a tree
// of inodes (regular files, directories, symlinks, hard links, FIFOs and
// character devices) with permission bits, times from the sandbox clock,
// limits on bytes and inodes, and copy-on-write cloning for snapshots and
// fork.
//
// Every error an FS method returns is an *fs.PathError whose Err is an
// [Errno] numbered as in WASI preview1, so the WASI host can hand it to a
// guest unchanged. File methods may return a bare Errno.
//
// Paths never leave the tree: ".." at the root stays at the root, and
// symlink targets are resolved inside the tree (absolute targets against its
// root).
package vfs

import (
	"io"
	"io/fs"
	"maps"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults for Options fields left zero.
const (
	DefaultMaxBytes  = 256 << 20
	DefaultMaxInodes = 1 << 20
)

// Limits on names and paths, as on Linux.
const (
	NameMax  = 255  // bytes in one path component
	PathMax  = 4096 // bytes in a whole path, and in a symlink target
	MaxLinks = 40   // symlinks followed while resolving one path
	// MaxFileSize is the largest size a regular file may have (EFBIG past it).
	MaxFileSize = 1 << 40
	// PipeBuf is the capacity of a FIFO's buffer.
	PipeBuf = 64 << 10
)

// Options configure a new FS. The zero value is usable.
type Options struct {
	MaxBytes  int64            // file data + symlink targets; 0 means DefaultMaxBytes. Past it: ENOSPC
	MaxInodes int              // 0 means DefaultMaxInodes. Past it: ENOSPC
	Clock     func() time.Time // times for atime/mtime/ctime; nil means time.Now
	Random    io.Reader        // source for /dev/urandom and /dev/random; nil means an all-zero reader
}

// Ino is an inode number. Numbers are never reused within one FS.
type Ino uint64

// RootIno is the inode number of the root directory.
const RootIno Ino = 1

// FileType is the type of an inode.
type FileType uint8

// The inode types.
const (
	TypeUnknown FileType = iota
	TypeRegular
	TypeDir
	TypeSymlink
	TypeFIFO
	TypeCharDevice
)

// String returns a short name of t such as "regular" or "dir".
func (t FileType) String() string {
	switch t {
	case TypeRegular:
		return "regular"
	case TypeDir:
		return "dir"
	case TypeSymlink:
		return "symlink"
	case TypeFIFO:
		return "fifo"
	case TypeCharDevice:
		return "chardev"
	}
	return "unknown"
}

// fsMode returns the fs.FileMode type bits of t.
func (t FileType) fsMode() fs.FileMode {
	switch t {
	case TypeDir:
		return fs.ModeDir
	case TypeSymlink:
		return fs.ModeSymlink
	case TypeFIFO:
		return fs.ModeNamedPipe
	case TypeCharDevice:
		return fs.ModeDevice | fs.ModeCharDevice
	}
	return 0
}

// Device identifies what a character device inode does.
type Device uint8

// The character devices. DevStdin, DevStdout and DevStderr are markers with
// no behaviour in the VFS: the WASI host sees Stat().Device and uses the
// process's own fd 0, 1 or 2 instead.
const (
	DevNone Device = iota
	DevNull
	DevZero
	DevRandom
	DevStdin
	DevStdout
	DevStderr
)

// DevID is the Stat.Dev of every inode of every FS.
const DevID = 1

// Stat describes an inode.
type Stat struct {
	Dev                 uint64
	Ino                 Ino
	Type                FileType
	Mode                fs.FileMode // permission bits only (0o7777)
	Nlink               uint64
	Size                int64
	Atime, Mtime, Ctime time.Time
	Device              Device // for TypeCharDevice
}

// FileInfo returns an fs.FileInfo view of s named name; its Mode includes
// the type bits and its Sys is s.
func (s Stat) FileInfo(name string) fs.FileInfo { return fileInfo{name: name, st: s} }

type fileInfo struct {
	name string
	st   Stat
}

func (i fileInfo) Name() string { return i.name }
func (i fileInfo) Size() int64  { return i.st.Size }
func (i fileInfo) Mode() fs.FileMode {
	return i.st.Mode&fs.ModePerm | modeBits(i.st.Mode) | i.st.Type.fsMode()
}
func (i fileInfo) ModTime() time.Time { return i.st.Mtime }
func (i fileInfo) IsDir() bool        { return i.st.Type == TypeDir }
func (i fileInfo) Sys() any           { return i.st }

// modeBits maps the setuid, setgid and sticky bits of a Unix mode (0o7000)
// to their fs.FileMode flags.
func modeBits(m fs.FileMode) fs.FileMode {
	var r fs.FileMode
	if m&0o4000 != 0 {
		r |= fs.ModeSetuid
	}
	if m&0o2000 != 0 {
		r |= fs.ModeSetgid
	}
	if m&0o1000 != 0 {
		r |= fs.ModeSticky
	}
	return r
}

// unixPerm turns an fs.FileMode given by a caller into the 0o7777 bits the
// VFS stores: plain octal bits are taken as they are, and fs.ModeSetuid,
// fs.ModeSetgid and fs.ModeSticky map to 0o4000, 0o2000 and 0o1000.
func unixPerm(m fs.FileMode) fs.FileMode {
	p := m & 0o7777
	if m&fs.ModeSetuid != 0 {
		p |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		p |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		p |= 0o1000
	}
	return p
}

// DirEntry is one name in a directory.
type DirEntry struct {
	Name string
	Ino  Ino
	Type FileType
}

// FS is an in-memory filesystem. It is safe for concurrent use.
//
// One RWMutex guards the tree and file data; FIFOs have their own locks so
// that a blocked reader or writer never holds the tree.
type FS struct {
	mu      sync.RWMutex
	inodes  map[Ino]*inode
	nextIno Ino
	gen     uint64 // chunks whose gen differs are shared with a clone
	used    int64  // bytes of file data and symlink targets
	maxB    int64
	maxI    int
	mnt     mountTable // inodes inside mounts (mount.go)

	clock  atomic.Pointer[func() time.Time]
	random atomic.Pointer[randSource]
}

type randSource struct {
	mu sync.Mutex
	r  io.Reader
}

// inode is one file, directory, symlink, FIFO or device.
type inode struct {
	ino   Ino
	typ   FileType
	dev   Device
	mode  fs.FileMode // 0o7777 bits
	nlink uint64
	open  int // open File handles
	// cloneAt is where Clone put this inode's copy in its block; valid
	// only inside Clone (f.mu held). An index, not a pointer, so that
	// setting it costs no write barrier and nothing need clear it.
	cloneAt int
	// Times in Unix nanoseconds. atime is atomic because reads update it
	// under the read lock.
	atime        atomic.Int64
	mtime, ctime int64

	size   int64    // regular: logical size
	chunks []*chunk // regular: data; see data.go

	entries map[string]*inode // directory
	// listing is the directory's entries sorted by name, made by the
	// first listing after a change and dropped by the next change
	// (setEntry, removeEntry): nil until then, and for a directory too
	// large to list twice (maxListing). It is immutable once stored.
	listing atomic.Pointer[[]DirEntry]
	parent  *inode // directory: its ".."

	target string // symlink

	pipe *pipe // FIFO, created on first open

	host *hostNode // set when the inode is in a mount or is a mount root (mount.go)
}

// genCounter hands out chunk generations. Generations are global so that a
// chunk shared between any two FS values is never owned by both.
var genCounter atomic.Uint64

// New returns an FS holding only an empty root directory "/" with mode 0755.
// The caller lays out /bin, /dev and the rest.
func New(opts Options) *FS {
	f := &FS{
		inodes:  make(map[Ino]*inode),
		nextIno: RootIno,
		gen:     genCounter.Add(1),
		maxB:    opts.MaxBytes,
		maxI:    opts.MaxInodes,
	}
	if f.maxB <= 0 {
		f.maxB = DefaultMaxBytes
	}
	if f.maxI <= 0 {
		f.maxI = DefaultMaxInodes
	}
	f.SetClock(opts.Clock)
	f.SetRandom(opts.Random)
	now := f.Now().UnixNano()
	root := f.newInode(TypeDir, 0o755, now)
	root.nlink = 2
	root.parent = root
	return f
}

// SetClock replaces the clock used for file times; nil means time.Now.
func (f *FS) SetClock(clock func() time.Time) {
	if clock == nil {
		clock = time.Now
	}
	f.clock.Store(&clock)
}

// SetRandom replaces the source read by /dev/random and /dev/urandom; nil
// means an all-zero reader. Reads from r are serialized.
func (f *FS) SetRandom(r io.Reader) {
	if r == nil {
		r = zeroReader{}
	}
	f.random.Store(&randSource{r: r})
}

// SetLimits changes the byte and inode limits (0 means the default). Usage
// already past a lowered limit stays; only growth fails.
func (f *FS) SetLimits(maxBytes int64, maxInodes int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if maxInodes <= 0 {
		maxInodes = DefaultMaxInodes
	}
	f.maxB, f.maxI = maxBytes, maxInodes
}

// Limits returns the byte and inode limits.
func (f *FS) Limits() (maxBytes int64, maxInodes int) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.maxB, f.maxI
}

// Now returns the time on the FS clock.
func (f *FS) Now() time.Time { return (*f.clock.Load())() }

func (f *FS) nowNano() int64 { return f.Now().UnixNano() }

// Usage returns the bytes of file data and symlink targets held and the
// number of inodes, counting files that are unlinked but still open.
func (f *FS) Usage() (bytes int64, inodes int) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.used, len(f.inodes)
}

// newInode adds an inode with nlink 0; the caller links it. f.mu is held
// (or f is not yet shared).
func (f *FS) newInode(t FileType, mode fs.FileMode, now int64) *inode {
	n := &inode{ino: f.nextIno, typ: t, mode: mode & 0o7777, mtime: now, ctime: now}
	n.atime.Store(now)
	f.nextIno++
	if t == TypeDir {
		n.entries = make(map[string]*inode)
	}
	f.inodes[n.ino] = n
	return n
}

// root returns the root directory.
func (f *FS) root() *inode { return f.inodes[RootIno] }

// maybeFree drops n once it has no links and no open handles, giving its
// space back.
func (f *FS) maybeFree(n *inode) {
	if n.nlink != 0 || n.open != 0 || n.ino == RootIno {
		return
	}
	if _, ok := f.inodes[n.ino]; !ok {
		return
	}
	delete(f.inodes, n.ino)
	switch n.typ {
	case TypeRegular:
		f.used -= n.size
		n.chunks = nil
	case TypeSymlink:
		f.used -= int64(len(n.target))
	}
}

// Clone returns a copy-on-write copy of f. It copies the inode table (time
// linear in the number of inodes and data chunks) but no file data: chunks
// are shared until one side writes them, and writes in one copy are never
// visible in the other. Open files and FIFO contents are not carried over:
// inodes that are unlinked but still open in f do not exist in the clone.
func (f *FS) Clone() *FS {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := &FS{
		// A copy of the table, whose values the pass below points at the
		// copies: cloning the map's storage costs less than inserting
		// every number again.
		inodes:  maps.Clone(f.inodes),
		nextIno: f.nextIno,
		maxB:    f.maxB,
		maxI:    f.maxI,
	}
	c.clock.Store(f.clock.Load())
	c.random.Store(f.random.Load())
	// Both sides get fresh generations, so every existing chunk becomes
	// read-only for both.
	f.gen = genCounter.Add(1)
	c.gen = genCounter.Add(1)

	// One pass over the table: copy each live inode into one block and
	// its chunk list into shared blocks, noting where in n.cloneAt; a
	// second pass over the directories links their entries.
	block := make([]inode, 0, len(f.inodes))
	var chunks []*chunk
	for ino, n := range f.inodes {
		if n.nlink == 0 && ino != RootIno {
			delete(c.inodes, ino)
			continue
		}
		block = append(block, inode{})
		m := &block[len(block)-1]
		m.ino, m.typ, m.dev, m.mode, m.nlink = n.ino, n.typ, n.dev, n.mode, n.nlink
		m.atime.Store(n.atime.Load())
		m.mtime, m.ctime = n.mtime, n.ctime
		m.size, m.target = n.size, n.target
		if k := len(n.chunks); k > 0 {
			if len(chunks) < k {
				chunks = make([]*chunk, max(k, 4096))
			}
			// The capacity is capped so that growing the file in
			// either FS reallocates rather than sharing the rest.
			m.chunks = chunks[:k:k]
			chunks = chunks[k:]
			copy(m.chunks, n.chunks)
		}
		n.cloneAt = len(block) - 1
		c.inodes[ino] = m
		switch n.typ {
		case TypeRegular:
			c.used += n.size
		case TypeSymlink:
			c.used += int64(len(n.target))
		}
	}
	for i := range block {
		m := &block[i]
		if m.typ != TypeDir {
			continue
		}
		n := f.inodes[m.ino]
		m.parent = &block[n.parent.cloneAt]
		m.entries = make(map[string]*inode, len(n.entries))
		for name, child := range n.entries {
			m.entries[name] = &block[child.cloneAt]
		}
		m.listing.Store(n.listing.Load()) // the same names and inode numbers
	}
	return c
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
