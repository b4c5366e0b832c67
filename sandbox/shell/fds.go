package shell

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// fdFile is one open file description the shell holds: a VFS file or
// pipe end, or a host stream (the Run's stdin and captured output). It is
// shared by every fd that dups it and every subshell that inherits it,
// and closed when the last of them lets go.
type fdFile struct {
	refs atomic.Int32
	// borrowed descriptions belong to whoever gave them to the shell
	// (SetStdio); the shell never closes them.
	borrowed bool
	vf       *vfs.File // nil for host streams
	r        io.Reader // host stream to read
	w        io.Writer // host stream to write
	// streamID numbers a host stream, as an inode number would, for
	// test's -ef on /dev/fd/N.
	streamID uint64
	// pushback holds bytes read ahead from a host stream by `read`.
	mu       sync.Mutex
	pushback []byte
}

func newVfsFd(f *vfs.File) *fdFile {
	d := &fdFile{vf: f}
	d.refs.Store(1)
	return d
}

func newStreamFd(r io.Reader, w io.Writer) *fdFile {
	if f, ok := r.(*vfs.File); ok {
		d := newVfsFd(f)
		d.borrowed = true
		return d
	}
	if f, ok := w.(*vfs.File); ok {
		d := newVfsFd(f)
		d.borrowed = true
		return d
	}
	d := &fdFile{r: r, w: w, streamID: streamIDs.Add(1)}
	d.refs.Store(1)
	return d
}

// streamIDs hands out fdFile.streamID.
var streamIDs atomic.Uint64

func (d *fdFile) ref() *fdFile { d.refs.Add(1); return d }

func (d *fdFile) unref() {
	if d.refs.Add(-1) == 0 && d.vf != nil && !d.borrowed {
		d.vf.Close()
	}
}

// readable and writable report what the description allows.
func (d *fdFile) readable() bool {
	if d.vf != nil {
		return d.vf.Flags()&vfs.ORead != 0
	}
	return d.r != nil
}

// errBadFd is reading or writing an fd that does not allow it.
var errBadFd = errors.New("Bad file descriptor")

func (d *fdFile) read(ctx context.Context, p []byte) (int, error) {
	if d.vf != nil {
		if d.vf.Flags()&vfs.ORead == 0 {
			return 0, errBadFd
		}
		return d.vf.ReadContext(ctx, p)
	}
	d.mu.Lock()
	if len(d.pushback) > 0 {
		n := copy(p, d.pushback)
		d.pushback = d.pushback[n:]
		d.mu.Unlock()
		return n, nil
	}
	d.mu.Unlock()
	if d.r == nil {
		return 0, io.EOF
	}
	return d.r.Read(p)
}

func (d *fdFile) write(ctx context.Context, p []byte) (int, error) {
	if d.vf != nil {
		if d.vf.Flags()&vfs.OWrite == 0 {
			return 0, errBadFd
		}
		return d.vf.WriteContext(ctx, p)
	}
	if d.w == nil {
		if d.r != nil {
			return 0, errBadFd
		}
		return len(p), nil // a nil stream discards
	}
	return d.w.Write(p)
}

// unread gives bytes read too far back to the description, so the next
// reader sees them: VFS files seek back, pipes and host streams keep them.
func (d *fdFile) unread(b []byte) {
	if len(b) == 0 {
		return
	}
	if d.vf != nil {
		if _, err := d.vf.Seek(-int64(len(b)), io.SeekCurrent); err == nil {
			return
		}
		// A pipe cannot seek: `read` reads pipes one byte at a time, so
		// nothing is lost there.
		return
	}
	d.mu.Lock()
	d.pushback = append(append([]byte(nil), b...), d.pushback...)
	d.mu.Unlock()
}

// seekable reports whether reading ahead and seeking back is possible.
func (d *fdFile) seekable() bool {
	if d.vf == nil {
		return true // host streams keep a pushback buffer
	}
	st, err := d.vf.Stat()
	return err == nil && st.Type == vfs.TypeRegular
}

// fdTable maps the shell's file descriptor numbers to descriptions.
type fdTable struct {
	m map[int]*fdFile
}

func newFdTable() *fdTable { return &fdTable{m: map[int]*fdFile{}} }

func (t *fdTable) get(fd int) *fdFile { return t.m[fd] }

// set installs d at fd (taking over the caller's reference), closing what
// was there.
func (t *fdTable) set(fd int, d *fdFile) {
	if old := t.m[fd]; old != nil {
		old.unref()
	}
	if d == nil {
		delete(t.m, fd)
		return
	}
	t.m[fd] = d
}

func (t *fdTable) close(fd int) { t.set(fd, nil) }

// clone returns a table sharing every description.
func (t *fdTable) clone() *fdTable {
	c := &fdTable{m: make(map[int]*fdFile, len(t.m))}
	for k, v := range t.m {
		c.m[k] = v.ref()
	}
	return c
}

// closeAll lets go of every description.
func (t *fdTable) closeAll() {
	for k, v := range t.m {
		v.unref()
		delete(t.m, k)
	}
}

// highestFree returns the highest fd <= from that is not open, or the
// lowest above from when all below are.
func (t *fdTable) highestFree(from int) int {
	for fd := from; fd >= 10; fd-- {
		if _, ok := t.m[fd]; !ok {
			return fd
		}
	}
	return t.lowestFree(from)
}

// lowestFree returns the lowest fd >= from that is not open.
func (t *fdTable) lowestFree(from int) int {
	for fd := from; ; fd++ {
		if _, ok := t.m[fd]; !ok {
			return fd
		}
	}
}

// stdioFor returns the streams a program started by r gets.
func (r *Interp) stdioFor() Stdio {
	var s Stdio
	if d := r.fds.get(0); d != nil {
		if d.vf != nil {
			s.Stdin = d.vf
		} else if d.r != nil {
			s.Stdin = fdReader{d, r.ctx}
		}
	}
	out := func(fd int) io.Writer {
		d := r.fds.get(fd)
		switch {
		case d == nil:
			return nil
		case d.vf != nil:
			return d.vf
		case d.w != nil:
			return d.w
		}
		return nil
	}
	s.Stdout, s.Stderr = out(1), out(2)
	for fd, d := range r.fds.m {
		if fd > 2 && d.vf != nil {
			if s.Extra == nil {
				s.Extra = map[int]*vfs.File{}
			}
			s.Extra[fd] = d.vf
		}
	}
	return s
}

// fdReader reads a host stream through its description, so bytes pushed
// back by `read` are not lost to a program reading after it.
type fdReader struct {
	d   *fdFile
	ctx context.Context
}

func (f fdReader) Read(p []byte) (int, error) { return f.d.read(f.ctx, p) }
