package wasi

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
)

func fdAdvise(_ context.Context, p *Process, _ wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), rightFdAdvise)
	if en != errnoSuccess {
		return en
	}
	if int64(s[1]) < 0 || int64(s[2]) < 0 || uint32(s[3]) > adviceMax {
		return errnoINVAL
	}
	if e.stream || e.ftype == filetypeUnknown {
		return errnoSPIPE
	}
	return errnoSuccess // advice is only a hint; memory needs none
}

func fdAllocate(_ context.Context, p *Process, _ wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), rightFdAllocate)
	if en != errnoSuccess {
		return en
	}
	off, n := int64(s[1]), int64(s[2])
	if off < 0 || n <= 0 {
		return errnoINVAL
	}
	if e.stream || e.ftype != filetypeRegularFile {
		return errnoSPIPE
	}
	if off > math.MaxInt64-n {
		return errno(vfs.EFBIG)
	}
	st, err := e.file.Stat()
	if err != nil {
		return errnoOf(err)
	}
	if st.Size >= off+n {
		return errnoSuccess
	}
	return errnoOf(e.file.Truncate(off + n))
}

func fdClose(_ context.Context, p *Process, _ wasm.Memory, s []uint64) errno {
	fd := uint32(s[0])
	p.mu.Lock()
	if uint64(fd) >= uint64(len(p.fds)) || p.fds[fd] == nil {
		p.mu.Unlock()
		return errnoBADF
	}
	e := p.fds[fd]
	p.fds[fd] = nil
	p.mu.Unlock()
	e.release()
	return errnoSuccess
}

func fdDatasync(_ context.Context, p *Process, _ wasm.Memory, s []uint64) errno {
	return p.sync(uint32(s[0]), rightFdDatasync)
}

func fdSync(_ context.Context, p *Process, _ wasm.Memory, s []uint64) errno {
	return p.sync(uint32(s[0]), rightFdSync)
}

func (p *Process) sync(fd uint32, right uint64) errno {
	e, en := p.get(fd, right)
	if en != errnoSuccess {
		return en
	}
	if e.stream {
		return errnoSuccess // host streams hold nothing back
	}
	return errnoOf(e.file.Sync())
}

// flags reports the fdflags of e. APPEND and NONBLOCK come from the open
// file, which dups share, and from e for NONBLOCK on a FIFO set by
// fd_fdstat_set_flags (see there).
func (e *fdEntry) flags() uint16 {
	if e.stream {
		return e.fdflags
	}
	f := e.fdflags &^ fdflagAppend
	of := e.file.Flags()
	if of&vfs.OAppend != 0 {
		f |= fdflagAppend
	}
	if of&vfs.ONonblock != 0 {
		f |= fdflagNonblock
	}
	return f
}

// fifo reports whether e is a FIFO of the VFS.
func (e *fdEntry) fifo() bool { return !e.stream && e.ftype == filetypeUnknown }

func fdFdstatGet(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), 0)
	if en != errnoSuccess {
		return en
	}
	var b [sizeFdstat]byte
	b[0] = e.ftype
	binary.LittleEndian.PutUint16(b[2:], e.flags())
	binary.LittleEndian.PutUint64(b[8:], e.base)
	binary.LittleEndian.PutUint64(b[16:], e.inherit)
	if !mem.Write(uint32(s[1]), b[:]) {
		return errnoFAULT
	}
	return errnoSuccess
}

func fdFdstatSetFlags(_ context.Context, p *Process, _ wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), rightFdFdstatSetFlags)
	if en != errnoSuccess {
		return en
	}
	fl := uint16(s[1])
	if uint32(s[1])&^uint32(fdflagsAll) != 0 {
		return errnoINVAL
	}
	// DSYNC, RSYNC and SYNC are kept for fd_fdstat_get: every write to
	// memory is already synchronous. NONBLOCK set here on a host stream or
	// a FIFO is reported but not applied: Go's os package sets it on every
	// file it opens and then waits for EAGAIN in poll_oneoff, which cannot
	// wait for a FIFO, so such reads and writes block in fd_read and
	// fd_write instead. path_open's NONBLOCK does apply to FIFOs.
	e.fdflags = fl
	if !e.stream {
		var of vfs.OpenFlag
		if fl&fdflagAppend != 0 {
			of |= vfs.OAppend
		}
		if fl&fdflagNonblock != 0 && (!e.fifo() || e.file.Flags()&vfs.ONonblock != 0) {
			of |= vfs.ONonblock
		}
		e.file.SetFlags(of)
	}
	return errnoSuccess
}

func fdFdstatSetRights(_ context.Context, p *Process, _ wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), 0)
	if en != errnoSuccess {
		return en
	}
	base, inherit := s[1], s[2]
	if base&^e.base != 0 || inherit&^e.inherit != 0 {
		return errnoNOTCAPABLE
	}
	e.base, e.inherit = base, inherit
	return errnoSuccess
}

func fdFilestatGet(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), rightFdFilestatGet)
	if en != errnoSuccess {
		return en
	}
	if e.stream {
		var b [sizeFilestat]byte
		b[16] = e.ftype
		binary.LittleEndian.PutUint64(b[24:], 1) // nlink
		if !mem.Write(uint32(s[1]), b[:]) {
			return errnoFAULT
		}
		return errnoSuccess
	}
	st, err := e.file.Stat()
	if err != nil {
		return errnoOf(err)
	}
	return putFilestat(mem, uint32(s[1]), st)
}

func putFilestat(mem wasm.Memory, ptr uint32, st vfs.Stat) errno {
	var b [sizeFilestat]byte
	binary.LittleEndian.PutUint64(b[0:], st.Dev)
	binary.LittleEndian.PutUint64(b[8:], uint64(st.Ino))
	b[16] = filetypeOf(st.Type)
	binary.LittleEndian.PutUint64(b[24:], st.Nlink)
	binary.LittleEndian.PutUint64(b[32:], uint64(st.Size))
	binary.LittleEndian.PutUint64(b[40:], unixNano(st.Atime))
	binary.LittleEndian.PutUint64(b[48:], unixNano(st.Mtime))
	binary.LittleEndian.PutUint64(b[56:], unixNano(st.Ctime))
	if !mem.Write(ptr, b[:]) {
		return errnoFAULT
	}
	return errnoSuccess
}

func fdFilestatSetSize(_ context.Context, p *Process, _ wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), rightFdFilestatSetSize)
	if en != errnoSuccess {
		return en
	}
	size := int64(s[1])
	if size < 0 || e.stream {
		return errnoINVAL
	}
	return errnoOf(e.file.Truncate(size))
}

func fdFilestatSetTimes(_ context.Context, p *Process, _ wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), rightFdFilestatSetTimes)
	if en != errnoSuccess {
		return en
	}
	a, m, en := p.timeArgs(s[1], s[2], uint16(s[3]))
	if en != errnoSuccess {
		return en
	}
	if e.stream {
		return errnoSuccess // a host stream has no inode to stamp
	}
	return errnoOf(e.file.SetTimes(a, m))
}

func fdPrestatGet(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), 0)
	if en != errnoSuccess {
		return en
	}
	if !e.isPreopen {
		return errnoBADF
	}
	var b [sizePrestat]byte // tag 0: a directory
	binary.LittleEndian.PutUint32(b[4:], uint32(len(e.preopen)))
	if !mem.Write(uint32(s[1]), b[:]) {
		return errnoFAULT
	}
	return errnoSuccess
}

func fdPrestatDirName(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), 0)
	if en != errnoSuccess {
		return en
	}
	if !e.isPreopen {
		return errnoBADF
	}
	ptr, n := uint32(s[1]), uint32(s[2])
	if uint64(n) < uint64(len(e.preopen)) {
		return errnoNAMETOOLONG
	}
	if !mem.Write(ptr, []byte(e.preopen)) {
		return errnoFAULT
	}
	return errnoSuccess
}

func fdRead(ctx context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	// A directory has no fd_read right; reading it is EISDIR, as on
	// Linux, rather than the rights check's ENOTCAPABLE.
	if e, en := p.get(uint32(s[0]), 0); en == errnoSuccess && e.isDir {
		return errnoISDIR
	}
	e, en := p.get(uint32(s[0]), rightFdRead)
	if en != errnoSuccess {
		return en
	}
	n, en := p.readv(ctx, "fd_read", mem, e, uint32(s[1]), uint32(s[2]), -1)
	if en != errnoSuccess {
		return en
	}
	return writeU32(mem, uint32(s[3]), n)
}

func fdPread(ctx context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	if e, en := p.get(uint32(s[0]), 0); en == errnoSuccess && e.isDir {
		return errnoISDIR
	}
	e, en := p.get(uint32(s[0]), rightFdRead|rightFdSeek)
	if en != errnoSuccess {
		return en
	}
	switch off := int64(s[3]); {
	case e.isDir:
		return errnoISDIR
	case e.stream:
		return errnoSPIPE
	case off < 0:
		return errnoINVAL
	default:
		n, en := p.readv(ctx, "fd_pread", mem, e, uint32(s[1]), uint32(s[2]), off)
		if en != errnoSuccess {
			return en
		}
		return writeU32(mem, uint32(s[4]), n)
	}
}

// fdReadNow tells whether fd_read would return without waiting: on a
// file, a FIFO with bytes or without writers, a pipe end of Process.Pipe
// likewise, or a closed stream; and when it fails at once.
func fdReadNow(p *Process, _ wasm.Memory, s []uint64) bool {
	e, en := p.get(uint32(s[0]), rightFdRead)
	switch {
	case en != errnoSuccess || e.isDir:
		return true
	case !e.stream:
		return e.file.Ready(false, 1)
	case e.r == nil:
		return true
	}
	if end, ok := e.end.(PipeReader); ok {
		return end.p.ready(false, 1)
	}
	return false
}

// readv reads into the iovecs at iovs, straight into guest memory. With
// off < 0 it reads at the current offset and stops after the first read
// of anything but a regular file, so it never blocks once it has data.
func (p *Process) readv(ctx context.Context, op string, mem wasm.Memory, e *fdEntry, iovs, count uint32, off int64) (uint32, errno) {
	if !inBounds(mem, iovs, uint64(count)*sizeIovec) {
		return 0, errnoFAULT
	}
	vec, _ := mem.Read(iovs, count*sizeIovec)
	var total uint32
	for i := uint32(0); i < count; i++ {
		ptr, l := le32(vec[i*sizeIovec:]), le32(vec[i*sizeIovec+4:])
		if l == 0 {
			continue
		}
		if uint64(total)+uint64(l) > math.MaxUint32 {
			break
		}
		var buf []byte
		var ok bool
		if _, copies := mem.(wasm.CopyingMemory); copies && inBounds(mem, ptr, uint64(l)) {
			buf = p.buffer(int(l))
		} else if buf, ok = mem.Read(ptr, l); !ok {
			if total > 0 {
				break
			}
			return 0, errnoFAULT
		}
		var n int
		var err error
		if off >= 0 {
			n, err = e.file.ReadAt(buf, off+int64(total))
		} else {
			n, err = p.read(ctx, op, e, buf)
		}
		if n > 0 {
			mem.Write(ptr, buf[:n])
			total += uint32(n)
		}
		if err != nil {
			if errors.Is(err, io.EOF) || total > 0 {
				break
			}
			return 0, errnoOf(err)
		}
		if n < int(l) || (off < 0 && e.ftype != filetypeRegularFile) {
			break
		}
	}
	return total, errnoSuccess
}

func fdWrite(ctx context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), rightFdWrite)
	if en != errnoSuccess {
		return en
	}
	if e.isDir {
		return errnoISDIR
	}
	drop := p.dropStderr
	if uint32(s[0]) != 2 {
		drop = nil
	}
	n, en := p.writev(ctx, "fd_write", mem, e, uint32(s[1]), uint32(s[2]), -1, drop)
	if en != errnoSuccess {
		return en
	}
	return writeU32(mem, uint32(s[3]), n)
}

func fdPwrite(ctx context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), rightFdWrite|rightFdSeek)
	if en != errnoSuccess {
		return en
	}
	switch off := int64(s[3]); {
	case e.isDir:
		return errnoISDIR
	case e.stream:
		return errnoSPIPE
	case off < 0:
		return errnoINVAL
	default:
		n, en := p.writev(ctx, "fd_pwrite", mem, e, uint32(s[1]), uint32(s[2]), off, nil)
		if en != errnoSuccess {
			return en
		}
		return writeU32(mem, uint32(s[4]), n)
	}
}

// fdWriteNow tells whether fd_write would return without waiting: on a
// file, on a FIFO or a pipe end of Process.Pipe with room for all the
// bytes or without readers, or on a discarded stream; and when it fails
// at once.
func fdWriteNow(p *Process, mem wasm.Memory, s []uint64) bool {
	e, en := p.get(uint32(s[0]), rightFdWrite)
	if en != errnoSuccess || e.isDir || e.stream && e.w == nil {
		return true
	}
	end, isPipe := e.end.(PipeWriter)
	if e.stream && !isPipe {
		return false
	}
	n, ok := iovecsLen(mem, uint32(s[1]), uint32(s[2]))
	switch {
	case !ok:
		return true
	case !e.stream:
		return e.file.Ready(true, n)
	}
	return end.p.ready(true, n)
}

// iovecsLen adds up the lengths of the iovecs at iovs; false if they are
// out of bounds or add up past what a write takes.
func iovecsLen(mem wasm.Memory, iovs, count uint32) (int, bool) {
	if !inBounds(mem, iovs, uint64(count)*sizeIovec) {
		return 0, false
	}
	vec, _ := mem.Read(iovs, count*sizeIovec)
	var total uint64
	for i := uint32(0); i < count; i++ {
		total += uint64(le32(vec[i*sizeIovec+4:]))
	}
	if total > math.MaxUint32 {
		return 0, false
	}
	return int(total), true
}

// writev writes the iovecs at iovs in one call to the file or stream: one
// iovec is written straight from guest memory, several are gathered first.
// With off >= 0 it writes at off without moving the offset. If drop is
// not nil and returns true for the bytes, they are not written.
func (p *Process) writev(ctx context.Context, op string, mem wasm.Memory, e *fdEntry, iovs, count uint32, off int64, drop func([]byte) bool) (uint32, errno) {
	if !inBounds(mem, iovs, uint64(count)*sizeIovec) {
		return 0, errnoFAULT
	}
	vec, _ := mem.Read(iovs, count*sizeIovec)
	var total uint64
	var parts int
	var onePtr, oneLen uint32
	for i := uint32(0); i < count; i++ {
		ptr, l := le32(vec[i*sizeIovec:]), le32(vec[i*sizeIovec+4:])
		if l == 0 {
			continue
		}
		if !inBounds(mem, ptr, uint64(l)) {
			return 0, errnoFAULT
		}
		parts++
		total += uint64(l)
		onePtr, oneLen = ptr, l
	}
	if total > math.MaxUint32 {
		return 0, errnoINVAL
	}
	if parts == 0 {
		return 0, errnoSuccess
	}
	var data []byte
	if parts == 1 {
		data, _ = mem.Read(onePtr, oneLen)
	} else {
		data = p.buffer(int(total))[:0]
		for i := uint32(0); i < count; i++ {
			ptr, l := le32(vec[i*sizeIovec:]), le32(vec[i*sizeIovec+4:])
			if l > 0 {
				b, _ := mem.Read(ptr, l)
				data = append(data, b...)
			}
		}
	}
	if drop != nil && drop(data) {
		return uint32(len(data)), errnoSuccess
	}
	var n int
	var err error
	if off >= 0 {
		n, err = e.file.WriteAt(data, off)
	} else {
		n, err = p.write(ctx, op, e, data)
	}
	if err != nil && n == 0 {
		return 0, errnoOf(err)
	}
	return uint32(n), errnoSuccess
}

func fdReaddir(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), 0)
	if en != errnoSuccess {
		return en
	}
	if !e.isDir {
		return errnoNOTDIR
	}
	if e.base&rightFdReaddir == 0 {
		return errnoNOTCAPABLE
	}
	buf, bufLen, cookie, usedPtr := uint32(s[1]), uint32(s[2]), s[3], uint32(s[4])
	if !inBounds(mem, buf, uint64(bufLen)) || !inBounds(mem, usedPtr, 4) {
		return errnoFAULT
	}
	if cookie == 0 || e.dirents == nil {
		list, err := e.file.ReadDir()
		if err != nil {
			return errnoOf(err)
		}
		if list == nil {
			list = []vfs.DirEntry{}
		}
		e.dirents = list
		e.dotdot = e.ino
		if up, err := p.fs.Lookup(e.ino, "..", false); err == nil {
			e.dotdot = up
		}
	}
	n := uint64(len(e.dirents)) + 2
	out := p.scratch[:0] // grows by append: bufLen may be far larger than the listing
	for i := cookie; i < n && uint32(len(out)) < bufLen; i++ {
		var name string
		var ino vfs.Ino
		var typ uint8
		switch i {
		case 0:
			name, ino, typ = ".", e.ino, filetypeDirectory
		case 1:
			name, ino, typ = "..", e.dotdot, filetypeDirectory
		default:
			d := e.dirents[i-2]
			name, ino, typ = d.Name, d.Ino, filetypeOf(d.Type)
		}
		var h [sizeDirent]byte
		binary.LittleEndian.PutUint64(h[0:], i+1)
		binary.LittleEndian.PutUint64(h[8:], uint64(ino))
		binary.LittleEndian.PutUint32(h[16:], uint32(len(name)))
		h[20] = typ
		room := int(bufLen) - len(out)
		out = append(out, h[:min(room, sizeDirent)]...)
		if room > sizeDirent {
			out = append(out, name[:min(room-sizeDirent, len(name))]...)
		}
	}
	mem.Write(buf, out)
	if cap(out) <= maxScratch {
		p.scratch = out[:0]
	}
	return writeU32(mem, usedPtr, uint32(len(out)))
}

func fdRenumber(_ context.Context, p *Process, _ wasm.Memory, s []uint64) errno {
	from, to := uint32(s[0]), uint32(s[1])
	p.mu.Lock()
	n := uint64(len(p.fds))
	if uint64(from) >= n || uint64(to) >= n || p.fds[from] == nil || p.fds[to] == nil {
		p.mu.Unlock()
		return errnoBADF
	}
	if from == to {
		p.mu.Unlock()
		return errnoSuccess
	}
	old := p.fds[to]
	p.fds[to], p.fds[from] = p.fds[from], nil
	p.mu.Unlock()
	old.release()
	return errnoSuccess
}

func fdSeek(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	off, whence, resultPtr := int64(s[1]), uint32(s[2]), uint32(s[3])
	e, en := p.get(uint32(s[0]), 0)
	if en != errnoSuccess {
		return en
	}
	// Reading the offset (0, CUR) needs only FD_TELL.
	if e.base&rightFdSeek == 0 && (off != 0 || whence != uint32(whenceCur) || e.base&rightFdTell == 0) {
		return errnoNOTCAPABLE
	}
	if whence > uint32(whenceEnd) {
		return errnoINVAL
	}
	if e.stream {
		return errnoSPIPE
	}
	if e.isDir {
		// Unreachable through the rights (directories lack FD_SEEK and
		// FD_TELL) unless a guest widened them; guests rewind a directory
		// with fd_readdir's cookie 0.
		return errnoISDIR
	}
	if !inBounds(mem, resultPtr, 8) {
		return errnoFAULT
	}
	pos, err := e.file.Seek(off, int(whence))
	if err != nil {
		return errnoOf(err)
	}
	return writeU64(mem, resultPtr, uint64(pos))
}

func fdTell(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, en := p.get(uint32(s[0]), rightFdTell)
	if en != errnoSuccess {
		return en
	}
	if e.stream {
		return errnoSPIPE
	}
	if e.isDir {
		return errnoINVAL
	}
	pos, err := e.file.Seek(0, io.SeekCurrent)
	if err != nil {
		return errnoOf(err)
	}
	return writeU64(mem, uint32(s[1]), uint64(pos))
}
