package tar

import (
	"archive/tar"
	"io"
	"strings"
	"syscall"
)

const blockSize = 512

// archiveWriter writes the members of a new archive. archive/tar's
// Writer does for each header a format check that builds maps and strings
// (more CPU than the compression of a small file's member), and takes the
// header, the data and the padding in three writes. Most members (a name
// of at most 100 bytes, numbers that fit the header's octal fields) need
// none of it: for them archiveWriter makes the very block archive/tar
// would, and writes header, data and padding to the archive at once. The
// others go through the tar.Writer, which also writes the archive's end.
type archiveWriter struct {
	tw  *tar.Writer
	w   io.Writer // what tw writes to
	buf []byte    // a member's blocks, reused
	// viaTW says the last member went through tw, whose padding for it
	// is written only by its next Flush.
	viaTW bool
}

func newArchiveWriter(w io.Writer) *archiveWriter {
	return &archiveWriter{tw: tar.NewWriter(w), w: w}
}

// Close writes the archive's end.
func (a *archiveWriter) Close() error { return a.tw.Close() }

// writeHeader writes a member that has no data (a directory, a link).
func (a *archiveWriter) writeHeader(h *tar.Header) error {
	a.buf = grow(a.buf, blockSize)
	if h.Typeflag == tar.TypeReg || !gnuHeader((*[blockSize]byte)(a.buf), h) {
		a.viaTW = true
		return a.tw.WriteHeader(h)
	}
	return a.write(a.buf[:blockSize])
}

// writeFile writes a regular file's member, reading its h.Size bytes from
// fd. A file shorter than that is padded with zeros; what it holds past
// h.Size is left out, as GNU tar does. The error of the read, if any, is
// in rerr and the member is complete all the same; err is the archive's.
func (a *archiveWriter) writeFile(h *tar.Header, fd int) (n int64, rerr, err error) {
	const small = 64 << 10
	direct := h.Size <= small
	a.buf = grow(a.buf, blockSize+small)
	if direct {
		direct = gnuHeader((*[blockSize]byte)(a.buf), h)
	}
	if !direct {
		a.viaTW = true
		if err := a.tw.WriteHeader(h); err != nil {
			return 0, nil, err
		}
		for n < h.Size {
			b := a.buf[:min(int64(len(a.buf)), h.Size-n)]
			var m int
			m, rerr = readFull(fd, b)
			n += int64(m)
			if _, err := a.tw.Write(b[:m]); err != nil {
				return n, rerr, err
			}
			if m < len(b) {
				break
			}
		}
		if n < h.Size {
			_, err = io.CopyN(a.tw, zeroReader{}, h.Size-n)
		}
		return n, rerr, err
	}
	// Header, data and padding in one block of a.buf.
	m, rerr := readFull(fd, a.buf[blockSize:blockSize+h.Size])
	end := blockSize + int(h.Size+blockSize-1)/blockSize*blockSize
	clear(a.buf[blockSize+m : end])
	return int64(m), rerr, a.write(a.buf[:end])
}

// write writes whole blocks of members to the archive after whatever tw
// still owes it.
func (a *archiveWriter) write(b []byte) error {
	if a.viaTW {
		if err := a.tw.Flush(); err != nil {
			return err
		}
		a.viaTW = false
	}
	_, err := a.w.Write(b)
	return err
}

// readFull reads into b until it is full or the file ends.
func readFull(fd int, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := syscall.Read(fd, b[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return n, err
		}
		if m == 0 {
			break
		}
		n += m
	}
	return n, nil
}

func grow(b []byte, n int) []byte {
	if len(b) < n {
		return make([]byte, n)
	}
	return b
}

// gnuHeader fills blk with h in the GNU format, byte for byte as
// archive/tar's Writer does for a header it writes in one block, and
// reports whether it could: h must ask for the GNU format and need no
// long name, base-256 number, extended record or time beyond the
// modification time.
func gnuHeader(blk *[blockSize]byte, h *tar.Header) bool {
	switch {
	case h.Format != tar.FormatGNU,
		h.Typeflag != tar.TypeReg && h.Typeflag != tar.TypeDir && h.Typeflag != tar.TypeSymlink,
		h.Typeflag == tar.TypeReg && strings.HasSuffix(h.Name, "/"),
		!h.AccessTime.IsZero() || !h.ChangeTime.IsZero(),
		len(h.PAXRecords) > 0 || len(h.Xattrs) > 0: //lint:ignore SA1019 Xattrs set by a caller would need PAX
		return false
	}
	*blk = [blockSize]byte{}
	mtime := int64(0)
	if !h.ModTime.IsZero() {
		mtime = h.ModTime.Unix()
	}
	ok := putString(blk[0:100], h.Name) &&
		putOctal(blk[100:108], h.Mode) &&
		putOctal(blk[108:116], int64(h.Uid)) &&
		putOctal(blk[116:124], int64(h.Gid)) &&
		putOctal(blk[124:136], h.Size) &&
		putOctal(blk[136:148], mtime) &&
		putString(blk[157:257], h.Linkname) &&
		putString(blk[265:297], h.Uname) &&
		putString(blk[297:329], h.Gname) &&
		putOctal(blk[329:337], h.Devmajor) &&
		putOctal(blk[337:345], h.Devminor)
	if !ok {
		return false
	}
	blk[156] = h.Typeflag
	copy(blk[257:265], "ustar  \x00")
	sum := int64(8 * ' ') // the checksum's own field counts as spaces
	for i, c := range blk {
		if i < 148 || i >= 156 {
			sum += int64(c)
		}
	}
	putOctal(blk[148:155], sum)
	blk[155] = ' '
	return true
}

// putString stores s in a zeroed field b, if it fits and holds no NUL.
func putString(b []byte, s string) bool {
	if len(s) > len(b) || strings.IndexByte(s, 0) >= 0 {
		return false
	}
	copy(b, s)
	return true
}

// putOctal stores x in the field b as octal digits, zero-padded to fill
// all of it but the last byte, a NUL, if x fits.
func putOctal(b []byte, x int64) bool {
	if x < 0 || len(b) < 22 && x >= 1<<(3*(len(b)-1)) {
		return false
	}
	for i := len(b) - 2; i >= 0; i-- {
		b[i] = byte('0' + x&7)
		x >>= 3
	}
	b[len(b)-1] = 0
	return true
}
