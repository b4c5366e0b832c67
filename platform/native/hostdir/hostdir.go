// Package hostdir gives a [vfs.Host] over a directory of the host's
// filesystem, so that a sandbox can mount it.
//
// Every call is confined with [os.Root]: names are resolved one component
// at a time with openat(2) and O_NOFOLLOW, and neither ".." nor a symlink
// (absolute, relative, or swapped in after a check) can reach a file
// outside the directory. The VFS resolves sandbox paths itself and hands
// the Dir only plain names below its root.
//
// On platforms without openat (GOOS=js, plan9) os.Root cannot give that
// guarantee; the js/wasm build of wasmsand mounts through Node's fs
// instead and never uses this package.
package hostdir

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// Dir is a host directory opened for mounting. It is safe for concurrent
// use. Close releases it; the FS closes it on Unmount.
type Dir struct {
	root *os.Root
}

var _ vfs.Host = (*Dir)(nil)

// Open opens the host directory dir (symlinks in dir itself are followed
// once, here, by the host).
func Open(dir string) (*Dir, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Dir{root: r}, nil
}

// Name returns the host path given to Open.
func (d *Dir) Name() string { return d.root.Name() }

// Close releases the directory.
func (d *Dir) Close() error { return d.root.Close() }

// Lstat implements vfs.Host.
func (d *Dir) Lstat(name string) (vfs.HostStat, error) {
	fi, err := d.root.Lstat(name)
	if err != nil {
		return vfs.HostStat{}, errno(err)
	}
	return hostStat(fi), nil
}

// ReadDir implements vfs.Host.
func (d *Dir) ReadDir(name string) ([]vfs.HostEntry, error) {
	f, err := d.root.OpenFile(name, os.O_RDONLY|oDirectory|oNoFollow, 0)
	if err != nil {
		return nil, errno(err)
	}
	defer f.Close()
	var list []vfs.HostEntry
	for {
		ents, err := f.ReadDir(1024)
		for _, e := range ents {
			fi, ierr := e.Info()
			if ierr != nil {
				continue // removed since it was listed
			}
			list = append(list, vfs.HostEntry{Name: e.Name(), Stat: hostStat(fi)})
		}
		if err == io.EOF || (err == nil && len(ents) == 0) {
			return list, nil
		}
		if err != nil {
			return nil, errno(err)
		}
	}
}

// Readlink implements vfs.Host.
func (d *Dir) Readlink(name string) (string, error) {
	t, err := d.root.Readlink(name)
	return t, errno(err)
}

// OpenFile implements vfs.Host. It opens regular files only: a FIFO or a
// device could block or reach hardware.
func (d *Dir) OpenFile(name string, flag vfs.OpenFlag, perm fs.FileMode) (vfs.HostFile, error) {
	of := oNoFollow | oNonblock
	switch {
	case flag&vfs.ORead != 0 && flag&vfs.OWrite != 0:
		of |= os.O_RDWR
	case flag&vfs.OWrite != 0:
		of |= os.O_WRONLY
	default:
		of |= os.O_RDONLY
	}
	if flag&vfs.OCreate != 0 {
		of |= os.O_CREATE
	}
	if flag&vfs.OExcl != 0 {
		of |= os.O_EXCL
	}
	f, err := d.root.OpenFile(name, of, osPerm(perm))
	if err != nil {
		return nil, errno(err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, errno(err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, vfs.ENXIO
	}
	return file{f}, nil
}

// Mkdir implements vfs.Host.
func (d *Dir) Mkdir(name string, perm fs.FileMode) error {
	return errno(d.root.Mkdir(name, osPerm(perm)))
}

// Remove implements vfs.Host.
func (d *Dir) Remove(name string) error { return errno(d.root.Remove(name)) }

// Rename implements vfs.Host.
func (d *Dir) Rename(oldname, newname string) error {
	return errno(d.root.Rename(oldname, newname))
}

// Link implements vfs.Host.
func (d *Dir) Link(oldname, newname string) error {
	return errno(d.root.Link(oldname, newname))
}

// Symlink implements vfs.Host.
func (d *Dir) Symlink(target, name string) error {
	return errno(d.root.Symlink(target, name))
}

// Chmod implements vfs.Host.
func (d *Dir) Chmod(name string, mode fs.FileMode) error {
	return errno(d.root.Chmod(name, osPerm(mode)))
}

// Chtimes implements vfs.Host.
func (d *Dir) Chtimes(name string, atime, mtime time.Time) error {
	return errno(d.root.Chtimes(name, atime, mtime))
}

type file struct{ f *os.File }

func (h file) ReadAt(p []byte, off int64) (int, error) {
	n, err := h.f.ReadAt(p, off)
	if err == io.EOF {
		return n, err
	}
	return n, errno(err)
}

func (h file) WriteAt(p []byte, off int64) (int, error) {
	n, err := h.f.WriteAt(p, off)
	return n, errno(err)
}

func (h file) Stat() (vfs.HostStat, error) {
	fi, err := h.f.Stat()
	if err != nil {
		return vfs.HostStat{}, errno(err)
	}
	return hostStat(fi), nil
}

func (h file) Truncate(size int64) error { return errno(h.f.Truncate(size)) }
func (h file) Close() error              { return errno(h.f.Close()) }

// osPerm turns 0o7777 bits into an os.FileMode.
func osPerm(m fs.FileMode) fs.FileMode {
	p := m & fs.ModePerm
	if m&0o4000 != 0 {
		p |= fs.ModeSetuid
	}
	if m&0o2000 != 0 {
		p |= fs.ModeSetgid
	}
	if m&0o1000 != 0 {
		p |= fs.ModeSticky
	}
	return p
}

// hostStat describes fi for the VFS.
func hostStat(fi fs.FileInfo) vfs.HostStat {
	m := fi.Mode()
	st := vfs.HostStat{Mode: m & fs.ModePerm, Size: fi.Size(), Nlink: 1, Mtime: fi.ModTime()}
	if m&fs.ModeSetuid != 0 {
		st.Mode |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		st.Mode |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		st.Mode |= 0o1000
	}
	switch {
	case m.IsRegular():
		st.Type = vfs.TypeRegular
	case m.IsDir():
		st.Type = vfs.TypeDir
	case m&fs.ModeSymlink != 0:
		st.Type = vfs.TypeSymlink
	case m&fs.ModeNamedPipe != 0:
		st.Type = vfs.TypeFIFO
	case m&fs.ModeCharDevice != 0:
		st.Type = vfs.TypeCharDevice
	default:
		st.Type = vfs.TypeUnknown // sockets, block devices
	}
	st.Atime, st.Ctime = st.Mtime, st.Mtime
	sysStat(fi, &st)
	return st
}

// errno maps an error of the os package to a vfs.Errno.
func errno(err error) error {
	if err == nil {
		return nil
	}
	var se syscall.Errno
	if errors.As(err, &se) {
		if e, ok := errnos[se]; ok {
			return e
		}
		return vfs.EIO
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return vfs.ENOENT
	case errors.Is(err, fs.ErrExist):
		return vfs.EEXIST
	case errors.Is(err, fs.ErrPermission):
		return vfs.EACCES
	case errors.Is(err, fs.ErrClosed):
		return vfs.EBADF
	}
	// os.Root refuses a path that would leave it ("path escapes from
	// parent") with an error of its own.
	return vfs.EACCES
}

var errnos = map[syscall.Errno]vfs.Errno{
	syscall.EACCES:       vfs.EACCES,
	syscall.EAGAIN:       vfs.EAGAIN,
	syscall.EBADF:        vfs.EBADF,
	syscall.EBUSY:        vfs.EBUSY,
	syscall.EEXIST:       vfs.EEXIST,
	syscall.EFBIG:        vfs.EFBIG,
	syscall.EINTR:        vfs.EINTR,
	syscall.EINVAL:       vfs.EINVAL,
	syscall.EIO:          vfs.EIO,
	syscall.EISDIR:       vfs.EISDIR,
	syscall.ELOOP:        vfs.ELOOP,
	syscall.EMLINK:       vfs.EMLINK,
	syscall.ENAMETOOLONG: vfs.ENAMETOOLONG,
	syscall.ENOENT:       vfs.ENOENT,
	syscall.ENOSPC:       vfs.ENOSPC,
	syscall.ENOTDIR:      vfs.ENOTDIR,
	syscall.ENOTEMPTY:    vfs.ENOTEMPTY,
	syscall.ENXIO:        vfs.ENXIO,
	syscall.EPERM:        vfs.EPERM,
	syscall.EROFS:        vfs.EROFS,
	syscall.EXDEV:        vfs.EXDEV,
	syscall.ENOTSUP:      vfs.ENOTSUP,
}
