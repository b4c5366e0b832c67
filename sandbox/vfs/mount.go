package vfs

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A Host is the far side of a mount: a directory tree outside the sandbox
// (a host directory, a Node.js fs) that the FS reaches one name at a time.
//
// Every name a Host receives is a clean slash-separated path relative to
// its root: "." for the root itself, otherwise components that are never
// empty, "." or "..". The FS resolves paths itself, component by
// component, following symlinks with its own resolver (so ".." above the
// mount and absolute targets stay in the sandbox). A Host must still make
// sure that nothing it does leaves its root even if a directory on the way
// is swapped for a symlink after the FS looked at it: it must not follow a
// symlink out of its root (the native one uses os.Root).
//
// Errors should wrap an [Errno]; fs.ErrNotExist, fs.ErrExist and
// fs.ErrPermission are understood too and anything else reads as EIO.
type Host interface {
	// Lstat describes name without following a final symlink.
	Lstat(name string) (HostStat, error)
	// ReadDir lists directory name (without "." and "..") with each
	// entry's Lstat.
	ReadDir(name string) ([]HostEntry, error)
	// Readlink returns the target of symlink name.
	Readlink(name string) (string, error)
	// OpenFile opens regular file name. flag holds ORead, OWrite,
	// OCreate and OExcl only; perm applies to a file it creates.
	OpenFile(name string, flag OpenFlag, perm fs.FileMode) (HostFile, error)
	// Mkdir creates directory name.
	Mkdir(name string, perm fs.FileMode) error
	// Remove removes a file, a symlink or an empty directory.
	Remove(name string) error
	// Rename renames as rename(2).
	Rename(oldname, newname string) error
	// Link makes newname a hard link to oldname.
	Link(oldname, newname string) error
	// Symlink creates name as a symlink to target.
	Symlink(target, name string) error
	// Chmod sets the 0o7777 permission bits of name.
	Chmod(name string, mode fs.FileMode) error
	// Chtimes sets the times of name; a zero time is left unchanged.
	Chtimes(name string, atime, mtime time.Time) error
}

// HostFile is a regular file a Host opened.
type HostFile interface {
	io.ReaderAt
	io.WriterAt
	Stat() (HostStat, error)
	Truncate(size int64) error
	Close() error
}

// HostStat describes a file of a Host. Dev and Ino identify it on the host
// (hard links share them); both zero means the host has no identity to give
// and the path identifies the file.
type HostStat struct {
	Type                FileType
	Mode                fs.FileMode // 0o7777 bits
	Size                int64
	Nlink               uint64
	Dev, Ino            uint64
	Atime, Mtime, Ctime time.Time
}

// HostEntry is one name in a Host directory.
type HostEntry struct {
	Name string
	Stat HostStat
}

// MountOptions configure a mount.
type MountOptions struct {
	// ReadOnly makes every change fail with EROFS.
	ReadOnly bool
}

// hostInoBase is the first inode number given to files inside mounts; the
// FS's own numbers never get near it, and it stays below 2^53 so that
// JavaScript numbers hold it exactly.
const hostInoBase Ino = 1 << 52

// hostCacheMax is the number of mount inodes kept in memory before those
// that are not open are dropped (their numbers stay the same).
const hostCacheMax = 1 << 14

// mount is one attached Host.
type mount struct {
	host     Host
	readOnly bool
	dev      uint64
	root     *inode // the FS directory it is attached to
	// charged holds the bytes the sandbox added to each host file, which
	// count in FS.used; guarded by f.mu.
	charged map[hostKey]int64
}

// hostNode marks an inode that lives in a mount. Its type (and a
// symlink's target) never change; everything else is in attr.
type hostNode struct {
	m    *mount
	key  hostKey
	attr atomic.Pointer[hostAttr]
	used uint64 // mountTable.gen when last looked up; mountTable.mu
}

type hostAttr struct {
	rel string // path from the mount root
	st  HostStat
}

func (h *hostNode) rel() string { return h.attr.Load().rel }

// hostKey identifies a host file within one mount.
type hostKey struct {
	m        *mount
	dev, ino uint64
	rel      string // when the host gives no identity
}

// mountTable holds the inodes of every mount of an FS. Its lock is taken
// under f.mu (read or write), never the other way round.
type mountTable struct {
	mu     sync.Mutex
	mounts []*mount
	nodes  map[Ino]*inode
	keys   map[hostKey]Ino
	next   Ino
	devs   uint64
	gen    uint64 // counts evictions
}

// inode returns the inode numbered ino, in the tree or in a mount. f.mu is
// held.
func (f *FS) inode(ino Ino) (*inode, bool) {
	if n, ok := f.inodes[ino]; ok {
		return n, true
	}
	t := &f.mnt
	t.mu.Lock()
	defer t.mu.Unlock()
	n, ok := t.nodes[ino]
	return n, ok
}

// Mount attaches host at dir, an existing empty directory of f (symlinks
// on the way are followed). From then on names under dir are the host's,
// reached only through host; the directory's own mode stays. A directory
// that already is or lies in a mount gives EBUSY, a non-empty one
// ENOTEMPTY. Mounts are not carried into a Clone: there the directory is
// empty.
func (f *FS) Mount(dir string, host Host, opts MountOptions) error {
	if host == nil {
		return pathErr("mount", dir, EINVAL)
	}
	st, err := host.Lstat(".")
	if err != nil {
		return pathErr("mount", dir, hostErrno(err))
	}
	if st.Type != TypeDir {
		return pathErr("mount", dir, ENOTDIR)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	n, e := f.lookup(RootIno, dir, true)
	switch {
	case e != 0:
	case n.typ != TypeDir:
		e = ENOTDIR
	case n.host != nil || n.ino == RootIno:
		e = EBUSY
	case len(n.entries) > 0:
		e = ENOTEMPTY
	}
	if e != 0 {
		return pathErr("mount", dir, e)
	}
	t := &f.mnt
	t.mu.Lock()
	t.devs++
	m := &mount{host: host, readOnly: opts.ReadOnly, dev: DevID + t.devs, root: n}
	t.mounts = append(t.mounts, m)
	t.mu.Unlock()
	h := &hostNode{m: m}
	h.attr.Store(&hostAttr{rel: ".", st: st})
	n.host = h
	return nil
}

// Unmount detaches the mount at dir. While a file in it is open: EBUSY.
// If the Host is an io.Closer it is closed.
func (f *FS) Unmount(dir string) error {
	f.mu.Lock()
	n, e := f.lookup(RootIno, dir, true)
	if e == 0 && (n.host == nil || n.host.rel() != ".") {
		e = EINVAL
	}
	var m *mount
	if e == 0 {
		m = n.host.m
		e = f.detach(m, false)
	}
	f.mu.Unlock()
	if e != 0 {
		return pathErr("umount", dir, e)
	}
	if err := closeHost(m); err != nil {
		return &fs.PathError{Op: "umount", Path: dir, Err: err}
	}
	return nil
}

// UnmountAll detaches every mount, even with files open in it (they stay
// usable until closed), wherever its directory has moved since, and
// closes the Hosts that are io.Closers. The first error is returned.
func (f *FS) UnmountAll() error {
	f.mu.Lock()
	f.mnt.mu.Lock()
	list := slices.Clone(f.mnt.mounts)
	f.mnt.mu.Unlock()
	for _, m := range list {
		f.detach(m, true)
	}
	f.mu.Unlock()
	var first error
	for _, m := range list {
		if err := closeHost(m); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func closeHost(m *mount) error {
	if c, ok := m.host.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// detach removes mount m: EBUSY while a file in it is open, unless force.
// f.mu is held.
func (f *FS) detach(m *mount, force bool) Errno {
	t := &f.mnt
	t.mu.Lock()
	defer t.mu.Unlock()
	if !force {
		if m.root.open > 0 {
			return EBUSY
		}
		for _, c := range t.nodes {
			if c.host.m == m && c.open > 0 {
				return EBUSY
			}
		}
	}
	for ino, c := range t.nodes {
		if c.host.m == m {
			delete(t.nodes, ino)
		}
	}
	for k := range t.keys {
		if k.m == m {
			delete(t.keys, k)
		}
	}
	t.mounts = slices.DeleteFunc(t.mounts, func(x *mount) bool { return x == m })
	m.root.host = nil
	for _, c := range m.charged {
		f.used -= c
	}
	m.charged = nil
	return 0
}

// hostErrno turns an error from a Host into an Errno.
func hostErrno(err error) Errno {
	if err == nil {
		return 0
	}
	var e Errno
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, fs.ErrNotExist):
		return ENOENT
	case errors.Is(err, fs.ErrExist):
		return EEXIST
	case errors.Is(err, fs.ErrPermission):
		return EACCES
	}
	return EIO
}

func joinRel(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// hostInode returns the inode for the host file st found at rel, making
// one if needed. f.mu is held.
func (f *FS) hostInode(m *mount, rel string, st HostStat) (*inode, Errno) {
	var target string
	if st.Type == TypeSymlink {
		t, err := m.host.Readlink(rel)
		if err != nil {
			return nil, hostErrno(err)
		}
		target = t
	}
	key := hostKey{m: m, dev: st.Dev, ino: st.Ino}
	if st.Dev == 0 && st.Ino == 0 {
		key.rel = rel
	}
	t := &f.mnt
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.nodes == nil {
		t.nodes = make(map[Ino]*inode)
		t.keys = make(map[hostKey]Ino)
		t.next = hostInoBase
	}
	ino, known := t.keys[key]
	n := t.nodes[ino]
	if known && n != nil && (n.typ != st.Type || n.target != target) {
		// The host reused the number for another file.
		known, n = false, nil
	}
	if !known {
		ino = t.next
		t.next++
		t.keys[key] = ino
	}
	if n == nil {
		if len(t.nodes) >= hostCacheMax {
			t.evict()
		}
		// The owner bits let every check of the FS pass: the host decides.
		n = &inode{ino: ino, typ: st.Type, mode: 0o700, target: target, host: &hostNode{m: m, key: key}}
		t.nodes[ino] = n
	}
	n.host.used = t.gen
	n.host.attr.Store(&hostAttr{rel: rel, st: st})
	return n, 0
}

// evict drops the inodes that are not open and were not looked up since
// the last eviction, with their numbers: the same host file may get a new
// number later, never one another file had. t.mu is held.
func (t *mountTable) evict() {
	for ino, c := range t.nodes {
		if c.open == 0 && c.host.used < t.gen {
			delete(t.nodes, ino)
			if t.keys[c.host.key] == ino {
				delete(t.keys, c.host.key)
			}
		}
	}
	t.gen++
}

// hostLookup finds name in the mounted directory dir: nil if it does not
// exist. f.mu is held.
func (f *FS) hostLookup(dir *inode, name string) (*inode, Errno) {
	if strings.IndexByte(name, 0) >= 0 {
		return nil, EINVAL
	}
	m, rel := dir.host.m, joinRel(dir.host.rel(), name)
	st, err := m.host.Lstat(rel)
	if err != nil {
		if e := hostErrno(err); e != ENOENT {
			return nil, e
		}
		return nil, 0
	}
	return f.hostInode(m, rel, st)
}

// hostParent returns the parent of the mounted directory dir; the mount
// root's is the directory holding the mount point. f.mu is held.
func (f *FS) hostParent(dir *inode) (*inode, Errno) {
	rel := dir.host.rel()
	if rel == "." {
		return dir.parent, 0
	}
	m := dir.host.m
	up := path.Dir(rel)
	if up == "." {
		return m.root, 0
	}
	st, err := m.host.Lstat(up)
	if err != nil {
		return nil, hostErrno(err)
	}
	if st.Type != TypeDir {
		return nil, ENOENT
	}
	return f.hostInode(m, up, st)
}

// hostStat is inode.stat for an inode in a mount.
func (n *inode) hostStat() Stat {
	a := n.host.attr.Load()
	s := Stat{
		Dev: n.host.m.dev, Ino: n.ino, Type: n.typ, Mode: a.st.Mode & 0o7777,
		Nlink: a.st.Nlink, Size: a.st.Size,
		Atime: a.st.Atime, Mtime: a.st.Mtime, Ctime: a.st.Ctime,
	}
	switch n.typ {
	case TypeDir:
		s.Size = dirSize
	case TypeSymlink:
		s.Size = int64(len(n.target))
	}
	return s
}

// inMount reports whether the result of a walk names something in a
// mount: an entry of a mounted directory, or a mount root itself.
func (w walked) inMount() bool {
	return w.dir.host != nil || (w.node != nil && w.node.host != nil)
}

// entryRel returns the mount and host path of the entry a walk found in a
// mounted directory; ok is false when w.dir is not mounted (w names a mount
// root from outside) or names "." or "..".
func (w walked) entryRel() (m *mount, rel string, ok bool) {
	if w.dir.host == nil || special(w.name) {
		return nil, "", false
	}
	return w.dir.host.m, joinRel(w.dir.host.rel(), w.name), true
}

func (n *inode) isMountRoot() bool { return n.host != nil && n.host.rel() == "." }

func (f *FS) hostMkdir(w walked, perm fs.FileMode) Errno {
	if w.node != nil {
		return EEXIST
	}
	m, rel, _ := w.entryRel()
	if m.readOnly {
		return EROFS
	}
	return hostErrno(m.host.Mkdir(rel, unixPerm(perm)))
}

func (f *FS) hostRemove(w walked, dir bool) Errno {
	n := w.node
	switch {
	case n == nil:
		return ENOENT
	case dir && w.name == ".":
		return EINVAL
	case dir && w.name == "..":
		return ENOTEMPTY
	case !dir && (n.typ == TypeDir || special(w.name)):
		return EISDIR
	case n.isMountRoot():
		return EBUSY
	case dir && n.typ != TypeDir:
		return ENOTDIR
	}
	m, rel, _ := w.entryRel()
	if m.readOnly {
		return EROFS
	}
	a := n.host.attr.Load()
	if err := m.host.Remove(rel); err != nil {
		return hostErrno(err)
	}
	if n.typ == TypeRegular && a.st.Nlink <= 1 {
		f.hostCredit(n, a.st.Size)
	}
	return 0
}

func (f *FS) hostRename(ow, nw walked) Errno {
	src, dst := ow.node, nw.node
	switch {
	case src == nil:
		return ENOENT
	case special(ow.name) || special(nw.name) || src.isMountRoot() || (dst != nil && dst.isMountRoot()):
		return EBUSY
	case src.typ != TypeDir && (ow.slash || nw.slash):
		return ENOTDIR
	}
	om, orel, ok1 := ow.entryRel()
	nm, nrel, ok2 := nw.entryRel()
	if !ok1 || !ok2 || om != nm {
		return EXDEV
	}
	if om.readOnly {
		return EROFS
	}
	if dst == src {
		return 0
	}
	if e := f.checkMove(om, src, orel, nrel); e != 0 {
		return e
	}
	var replaced HostStat
	if dst != nil {
		replaced = dst.host.attr.Load().st
	}
	if err := om.host.Rename(orel, nrel); err != nil {
		return hostErrno(err)
	}
	if dst != nil && dst.typ == TypeRegular && replaced.Nlink <= 1 {
		f.hostCredit(dst, replaced.Size) // its bytes are gone
	}
	// Cached paths under the old name move with it.
	t := &f.mnt
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.nodes {
		if c.host.m != om {
			continue
		}
		a := c.host.attr.Load()
		if a.rel == orel || strings.HasPrefix(a.rel, orel+"/") {
			c.host.attr.Store(&hostAttr{rel: nrel + a.rel[len(orel):], st: a.st})
		}
	}
	return 0
}

func (f *FS) hostLink(src *inode, nw walked) Errno {
	switch {
	case src.typ == TypeDir:
		return EPERM
	case nw.node != nil:
		return EEXIST
	case nw.slash:
		return ENOENT
	}
	m, rel, ok := nw.entryRel()
	if !ok || src.host == nil || src.host.m != m {
		return EXDEV
	}
	if m.readOnly {
		return EROFS
	}
	if src.typ == TypeSymlink && !targetStaysIn(rel, src.target) {
		return EPERM
	}
	return hostErrno(m.host.Link(src.host.rel(), rel))
}

// maxMoveScan bounds the entries checkMove looks at.
const maxMoveScan = 1 << 16

// checkMove refuses (EPERM) a rename that would leave a symlink pointing
// out of the mount on the host: a symlink moved where its target climbs
// out, or a directory moved up holding one. A directory too large to
// check is refused too.
func (f *FS) checkMove(m *mount, src *inode, orel, nrel string) Errno {
	switch src.typ {
	case TypeSymlink:
		if targetStaysIn(orel, src.target) && !targetStaysIn(nrel, src.target) {
			return EPERM
		}
		return 0
	case TypeDir:
		if strings.Count(nrel, "/") >= strings.Count(orel, "/") {
			return 0 // moving down or across keeps every ".." inside
		}
	default:
		return 0
	}
	seen := 0
	var scan func(rel string) Errno
	scan = func(rel string) Errno {
		ents, err := m.host.ReadDir(rel)
		if err != nil {
			return hostErrno(err)
		}
		for _, e := range ents {
			if seen++; seen > maxMoveScan {
				return EPERM
			}
			old := rel + "/" + e.Name
			switch e.Stat.Type {
			case TypeDir:
				if en := scan(old); en != 0 {
					return en
				}
			case TypeSymlink:
				target, err := m.host.Readlink(old)
				if err != nil {
					return hostErrno(err)
				}
				if targetStaysIn(old, target) && !targetStaysIn(nrel+old[len(orel):], target) {
					return EPERM
				}
			}
		}
		return 0
	}
	return scan(orel)
}

// hostSymlink creates a symlink in a mount. A symlink the host may follow
// one day must not point out of the mounted directory there, so absolute
// targets and targets that climb above the mount root are refused (EPERM).
func (f *FS) hostSymlink(target string, w walked) Errno {
	switch {
	case w.node != nil:
		return EEXIST
	case w.slash:
		return ENOENT
	}
	m, rel, _ := w.entryRel()
	if m.readOnly {
		return EROFS
	}
	if !targetStaysIn(rel, target) {
		return EPERM
	}
	return hostErrno(m.host.Symlink(target, rel))
}

// targetStaysIn reports whether the symlink target, read from the link at
// rel, names something inside the mount root by its text alone.
func targetStaysIn(rel, target string) bool {
	if strings.HasPrefix(target, "/") {
		return false
	}
	depth := strings.Count(rel, "/") // directories above the link
	for _, c := range strings.Split(target, "/") {
		switch c {
		case "", ".":
		case "..":
			depth--
			if depth < 0 {
				return false
			}
		default:
			depth++
		}
	}
	return true
}

func (f *FS) hostMknode(w walked) Errno {
	if w.node != nil {
		return EEXIST
	}
	if w.dir.host.m.readOnly {
		return EROFS
	}
	return EPERM // FIFOs and devices are not made on the host
}

func (f *FS) hostChmod(n *inode, mode fs.FileMode) Errno {
	m := n.host.m
	switch {
	case m.readOnly:
		return EROFS
	case n.typ == TypeSymlink:
		return ENOTSUP
	}
	return f.hostRefresh(n, m.host.Chmod(n.host.rel(), unixPerm(mode)))
}

func (f *FS) hostSetTimes(n *inode, atime, mtime *time.Time) Errno {
	m := n.host.m
	switch {
	case m.readOnly:
		return EROFS
	case n.typ == TypeSymlink:
		return ENOTSUP
	}
	var a, mt time.Time
	if atime != nil {
		a = *atime
	}
	if mtime != nil {
		mt = *mtime
	}
	return f.hostRefresh(n, m.host.Chtimes(n.host.rel(), a, mt))
}

// hostRefresh reads n's attributes again after a change that err reports.
func (f *FS) hostRefresh(n *inode, err error) Errno {
	if err != nil {
		return hostErrno(err)
	}
	a := n.host.attr.Load()
	if st, err := n.host.m.host.Lstat(a.rel); err == nil && st.Type == n.typ {
		n.host.attr.Store(&hostAttr{rel: a.rel, st: st})
	}
	return 0
}

// hostCharge counts grow more bytes of the host file n against the byte
// limit and returns how many fit. f.mu is held.
func (f *FS) hostCharge(n *inode, grow int64) int64 {
	if room := f.maxB - f.used; grow > room {
		grow = max(room, 0)
	}
	m := n.host.m
	if m.charged == nil {
		m.charged = make(map[hostKey]int64)
	}
	f.used += grow
	m.charged[n.host.key] += grow
	return grow
}

// hostCredit gives back up to k bytes charged for the host file n: never
// more than the sandbox added to it, so shrinking or deleting what the
// host already held frees nothing. f.mu is held.
func (f *FS) hostCredit(n *inode, k int64) {
	m, key := n.host.m, n.host.key
	k = min(max(k, 0), m.charged[key])
	if k == 0 {
		return
	}
	f.used -= k
	if m.charged[key] -= k; m.charged[key] == 0 {
		delete(m.charged, key)
	}
}

// hostTruncate sets the size of a regular file in a mount, through hf if
// it is open. f.mu is held.
func (f *FS) hostTruncate(n *inode, hf HostFile, size int64) Errno {
	m := n.host.m
	switch {
	case m.readOnly:
		return EROFS
	case size < 0:
		return EINVAL
	case size > MaxFileSize:
		return EFBIG
	}
	if hf == nil {
		h, err := m.host.OpenFile(n.host.rel(), OWrite, 0)
		if err != nil {
			return hostErrno(err)
		}
		defer h.Close()
		hf = h
	}
	st, err := hf.Stat()
	if err != nil {
		return hostErrno(err)
	}
	var charged int64
	if grow := size - st.Size; grow > 0 {
		if charged = f.hostCharge(n, grow); charged < grow {
			f.hostCredit(n, charged)
			return ENOSPC
		}
	}
	if err := hf.Truncate(size); err != nil {
		f.hostCredit(n, charged)
		return hostErrno(err)
	}
	if size < st.Size {
		f.hostCredit(n, st.Size-size)
	}
	if st, err := hf.Stat(); err == nil {
		n.host.attr.Store(&hostAttr{rel: n.host.rel(), st: st})
	}
	return 0
}

// hostReadDir lists a mounted directory. f.mu is held.
func (f *FS) hostReadDir(n *inode) ([]DirEntry, Errno) {
	m, rel := n.host.m, n.host.rel()
	ents, err := m.host.ReadDir(rel)
	if err != nil {
		return nil, hostErrno(err)
	}
	list := make([]DirEntry, 0, len(ents))
	for _, e := range ents {
		if e.Name == "" || special(e.Name) || strings.ContainsAny(e.Name, "/\x00") {
			continue
		}
		c, en := f.hostInode(m, joinRel(rel, e.Name), e.Stat)
		if en != 0 {
			continue // gone since it was listed
		}
		list = append(list, DirEntry{Name: e.Name, Ino: c.ino, Type: c.typ})
	}
	slices.SortFunc(list, func(a, b DirEntry) int { return strings.Compare(a.Name, b.Name) })
	return list, 0
}

// hostReadFile reads a whole regular file of a mount. f.mu is held.
func (f *FS) hostReadFile(n *inode) ([]byte, Errno) {
	hf, err := n.host.m.host.OpenFile(n.host.rel(), ORead, 0)
	if err != nil {
		return nil, hostErrno(err)
	}
	defer hf.Close()
	st, err := hf.Stat()
	if err != nil {
		return nil, hostErrno(err)
	}
	if st.Size > MaxFileSize {
		return nil, EFBIG
	}
	b := make([]byte, st.Size)
	m, err := hf.ReadAt(b, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, hostErrno(err)
	}
	return b[:m], 0
}

// hostOpen is open for a walk that ended in a mount. f.mu is held.
func (f *FS) hostOpen(w walked, flags OpenFlag, perm fs.FileMode) (*File, Errno) {
	n := w.node
	if n != nil {
		if flags&(OCreate|OExcl) == OCreate|OExcl {
			return nil, EEXIST
		}
		if flags&OCreate != 0 && n.typ == TypeDir {
			return nil, EISDIR
		}
		return f.hostOpenNode(n, flags)
	}
	if flags&OCreate == 0 {
		return nil, ENOENT
	}
	if w.slash || flags&ODirectory != 0 {
		return nil, EISDIR
	}
	m, rel, _ := w.entryRel()
	if m.readOnly {
		return nil, EROFS
	}
	hf, err := m.host.OpenFile(rel, flags&(ORead|OWrite)|OCreate|OExcl, unixPerm(perm))
	if err != nil {
		return nil, hostErrno(err)
	}
	st, err := hf.Stat()
	if err != nil {
		hf.Close()
		return nil, hostErrno(err)
	}
	n, e := f.hostInode(m, rel, st)
	if e != 0 {
		hf.Close()
		return nil, e
	}
	h := f.newFile(n, flags)
	h.hf = hf
	return h, 0
}

// hostOpenNode opens an existing inode of a mount. f.mu is held.
func (f *FS) hostOpenNode(n *inode, flags OpenFlag) (*File, Errno) {
	m := n.host.m
	switch {
	case n.typ == TypeSymlink:
		return nil, ELOOP
	case flags&ODirectory != 0 && n.typ != TypeDir:
		return nil, ENOTDIR
	case n.typ == TypeDir && flags&(OWrite|OTrunc) != 0:
		return nil, EISDIR
	case n.typ != TypeDir && n.typ != TypeRegular:
		return nil, ENXIO // host FIFOs and devices stay closed
	case flags&(OWrite|OTrunc) != 0 && m.readOnly:
		return nil, EROFS
	}
	var hf HostFile
	if n.typ == TypeRegular {
		rel := n.host.rel()
		var err error
		hf, err = m.host.OpenFile(rel, flags&(ORead|OWrite), 0)
		if err != nil {
			return nil, hostErrno(err)
		}
		st, err := hf.Stat()
		if err != nil {
			hf.Close()
			return nil, hostErrno(err)
		}
		if st.Type != TypeRegular {
			hf.Close()
			return nil, ENXIO
		}
		// The name may have been given to another file since the walk:
		// the handle is what counts.
		var e Errno
		if n, e = f.hostInode(m, rel, st); e != 0 {
			hf.Close()
			return nil, e
		}
		if flags&(OTrunc|OWrite) == OTrunc|OWrite && st.Size > 0 {
			if e := f.hostTruncate(n, hf, 0); e != 0 {
				hf.Close()
				return nil, e
			}
		}
	}
	h := f.newFile(n, flags)
	h.hf = hf
	if !n.isMountRoot() {
		t := &f.mnt
		t.mu.Lock()
		t.nodes[n.ino] = n // an open inode stays findable by number
		t.mu.Unlock()
	}
	return h, 0
}

// hostReadAt reads an open file of a mount.
func (h *File) hostReadAt(p []byte, off int64) (int, error) {
	m, err := h.hf.ReadAt(p, off)
	if m > 0 || len(p) == 0 {
		return m, nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return 0, io.EOF
	}
	return 0, hostErrno(err)
}

// hostWrite writes at the offset (at the end with OAppend) of an open file
// of a mount.
func (h *File) hostWrite(p []byte, flags OpenFlag) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	off := h.off
	if flags&OAppend != 0 {
		st, err := h.hf.Stat()
		if err != nil {
			return 0, hostErrno(err)
		}
		off = st.Size
	}
	m, err := h.hostWriteAt(p, off)
	h.off = off + int64(m)
	return m, err
}

// hostWriteAt writes p at off into an open file of a mount, counting what
// the file grows by against the byte limit.
func (h *File) hostWriteAt(p []byte, off int64) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if off >= MaxFileSize {
		return 0, EFBIG
	}
	want := len(p)
	var limErr error
	if end := off + int64(len(p)); end > MaxFileSize {
		p = p[:MaxFileSize-off]
		limErr = EFBIG
	}
	st, err := h.hf.Stat()
	if err != nil {
		return 0, hostErrno(err)
	}
	f, n := h.fs, h.node
	var charged int64
	if grow := off + int64(len(p)) - st.Size; grow > 0 {
		f.mu.Lock()
		charged = f.hostCharge(n, grow)
		f.mu.Unlock()
		if charged < grow {
			fit := int64(len(p)) - (grow - charged)
			if fit <= 0 {
				f.mu.Lock()
				f.hostCredit(n, charged)
				f.mu.Unlock()
				return 0, ENOSPC
			}
			p = p[:fit]
			limErr = ENOSPC
		}
	}
	k, err := h.hf.WriteAt(p, off)
	if k < len(p) {
		// Give back what was charged for bytes not written.
		unwritten := min(int64(len(p)-k), charged)
		f.mu.Lock()
		f.hostCredit(n, unwritten)
		f.mu.Unlock()
		if err == nil {
			err = EIO
		}
		return k, hostErrno(err)
	}
	if limErr == nil && k < want {
		limErr = ENOSPC
	}
	if limErr != nil {
		return k, limErr
	}
	return k, nil
}

// hostFileStat is File.Stat for a file of a mount.
func (h *File) hostFileStat() (Stat, error) {
	n := h.node
	if h.hf != nil {
		st, err := h.hf.Stat()
		if err != nil {
			return Stat{}, hostErrno(err)
		}
		n.host.attr.Store(&hostAttr{rel: n.host.rel(), st: st})
	} else if st, err := n.host.m.host.Lstat(n.host.rel()); err == nil && st.Type == n.typ {
		n.host.attr.Store(&hostAttr{rel: n.host.rel(), st: st})
	}
	return n.hostStat(), nil
}
