//go:build js && wasm

package node

import (
	"io"
	"io/fs"
	"strconv"
	"syscall/js"
	"time"

	"github.com/wasmsand/wasmsand/platform/hostwasm"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// Host returns the vfs.Host over v, the object web/npm/nodehost.mjs
// makes for a host directory (see nodeHost).
func Host(v js.Value) vfs.Host { return nodeHost{v} }

// nodeHost is a vfs.Host over the object web/npm/nodehost.mjs makes: the
// loader opens the host directory with Node's own fs and hands the object
// in. The core's Go runtime never reaches the host's filesystem through
// its os package (its fs is a stub that answers ENOSYS).
//
// Every method of the object returns {v: value} or {e: "ERRNO"}.
type nodeHost struct{ v js.Value }

var _ vfs.Host = nodeHost{}

// call calls method name and returns its value or an Errno.
func (h nodeHost) call(name string, args ...any) (v js.Value, err error) {
	defer func() {
		// A broken host object must not take the core down.
		if recover() != nil {
			v, err = js.Value{}, vfs.EIO
		}
	}()
	r := h.v.Call(name, args...)
	if e := r.Get("e"); !e.IsUndefined() {
		return js.Value{}, errnoFromName(e.String())
	}
	return r.Get("v"), nil
}

// errnoFromName maps a Node error code to an Errno; unknown ones are EIO.
func errnoFromName(code string) vfs.Errno {
	if e, ok := vfs.ErrnoNamed(code); ok {
		return e
	}
	switch code {
	case "EOPNOTSUPP":
		return vfs.ENOTSUP
	case "ENOSYS":
		return vfs.ENOTSUP
	}
	return vfs.EIO
}

func nsTime(v js.Value) time.Time {
	n, _ := strconv.ParseInt(v.String(), 10, 64)
	return time.Unix(0, n)
}

func hostStat(v js.Value) vfs.HostStat {
	st := vfs.HostStat{
		Mode:  fs.FileMode(v.Get("mode").Int()) & 0o7777,
		Size:  int64(v.Get("size").Float()),
		Nlink: uint64(v.Get("nlink").Float()),
		Atime: nsTime(v.Get("atimeNs")),
		Mtime: nsTime(v.Get("mtimeNs")),
		Ctime: nsTime(v.Get("ctimeNs")),
	}
	st.Dev, _ = strconv.ParseUint(v.Get("dev").String(), 10, 64)
	st.Ino, _ = strconv.ParseUint(v.Get("ino").String(), 10, 64)
	switch v.Get("type").String() {
	case "file":
		st.Type = vfs.TypeRegular
	case "dir":
		st.Type = vfs.TypeDir
	case "symlink":
		st.Type = vfs.TypeSymlink
	case "fifo":
		st.Type = vfs.TypeFIFO
	case "chardev":
		st.Type = vfs.TypeCharDevice
	}
	return st
}

func (h nodeHost) Lstat(name string) (vfs.HostStat, error) {
	v, err := h.call("lstat", name)
	if err != nil {
		return vfs.HostStat{}, err
	}
	return hostStat(v), nil
}

func (h nodeHost) ReadDir(name string) ([]vfs.HostEntry, error) {
	v, err := h.call("readDir", name)
	if err != nil {
		return nil, err
	}
	out := make([]vfs.HostEntry, v.Length())
	for i := range out {
		e := v.Index(i)
		out[i] = vfs.HostEntry{Name: e.Get("name").String(), Stat: hostStat(e.Get("stat"))}
	}
	return out, nil
}

func (h nodeHost) Readlink(name string) (string, error) {
	v, err := h.call("readlink", name)
	if err != nil {
		return "", err
	}
	return v.String(), nil
}

func (h nodeHost) OpenFile(name string, flag vfs.OpenFlag, perm fs.FileMode) (vfs.HostFile, error) {
	v, err := h.call("open", name, flag&vfs.ORead != 0, flag&vfs.OWrite != 0,
		flag&vfs.OCreate != 0, flag&vfs.OExcl != 0, int(perm&0o7777))
	if err != nil {
		return nil, err
	}
	return &nodeFile{h: h, fd: v.Int()}, nil
}

func (h nodeHost) Mkdir(name string, perm fs.FileMode) error {
	_, err := h.call("mkdir", name, int(perm&0o7777))
	return err
}

func (h nodeHost) Remove(name string) error {
	_, err := h.call("remove", name)
	return err
}

func (h nodeHost) Rename(oldname, newname string) error {
	_, err := h.call("rename", oldname, newname)
	return err
}

func (h nodeHost) Link(oldname, newname string) error {
	_, err := h.call("link", oldname, newname)
	return err
}

func (h nodeHost) Symlink(target, name string) error {
	_, err := h.call("symlink", target, name)
	return err
}

func (h nodeHost) Chmod(name string, mode fs.FileMode) error {
	_, err := h.call("chmod", name, int(mode&0o7777))
	return err
}

func (h nodeHost) Chtimes(name string, atime, mtime time.Time) error {
	ms := func(t time.Time) any {
		if t.IsZero() {
			return nil
		}
		return float64(t.UnixNano()) / 1e6
	}
	_, err := h.call("chtimes", name, ms(atime), ms(mtime))
	return err
}

// Close releases the host directory; the VFS calls it on Unmount.
func (h nodeHost) Close() error {
	_, err := h.call("close")
	return err
}

// nodeFile is a file descriptor nodeHost opened.
type nodeFile struct {
	h  nodeHost
	fd int
}

func (f *nodeFile) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		v, err := f.h.call("fread", f.fd, min(len(p)-n, 1<<20), float64(off+int64(n)))
		if err != nil {
			return n, err
		}
		k := v.Length()
		if k == 0 {
			return n, io.EOF
		}
		js.CopyBytesToGo(p[n:n+k], v)
		n += k
	}
	return n, nil
}

func (f *nodeFile) WriteAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		chunk := p[n:min(len(p), n+1<<20)]
		buf := hostwasm.BytesToJS(chunk)
		v, err := f.h.call("fwrite", f.fd, buf, float64(off+int64(n)))
		if err != nil {
			return n, err
		}
		if v.Int() == 0 {
			return n, vfs.EIO
		}
		n += v.Int()
	}
	return n, nil
}

func (f *nodeFile) Stat() (vfs.HostStat, error) {
	v, err := f.h.call("fstat", f.fd)
	if err != nil {
		return vfs.HostStat{}, err
	}
	return hostStat(v), nil
}

func (f *nodeFile) Truncate(size int64) error {
	_, err := f.h.call("ftruncate", f.fd, float64(size))
	return err
}

func (f *nodeFile) Close() error {
	_, err := f.h.call("fclose", f.fd)
	return err
}
