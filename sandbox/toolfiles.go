package sandbox

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"sync"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// A tool module may carry read-only files that its commands need — the
// Python standard library rides in python3.wasm — in a custom section
// named toolFilesSection, placed first in the module: an uncompressed
// (stored) zip whose entry names are paths below "/". The section is cut
// off before the module is compiled, and the files are put into a
// sandbox's filesystem the first time one of the module's commands runs
// there: a sandbox that never runs Python never holds its library, and
// the bytes are shared by every sandbox (vfs.SharedFile), never copied;
// where a store keeps them (DigestReaderStore), the core copies only the
// files commands open. They do not count against the sandbox's disk
// quota.
const toolFilesSection = "wasmsand.files"

// splitToolFiles returns the module without a leading toolFilesSection
// and the section's payload (nil if there is none).
func splitToolFiles(bin []byte) (module, files []byte) {
	const header = 8
	if len(bin) < header+1 || !bytes.HasPrefix(bin, []byte("\x00asm")) || bin[header] != 0 {
		return bin, nil
	}
	size, n := binary.Uvarint(bin[header+1:])
	start := header + 1 + n
	if n <= 0 || size > uint64(len(bin)-start) {
		return bin, nil
	}
	body := bin[start : start+int(size)]
	nameLen, m := binary.Uvarint(body)
	if m <= 0 || nameLen > uint64(len(body)-m) || string(body[m:m+int(nameLen)]) != toolFilesSection {
		return bin, nil
	}
	rest := bin[start+int(size):]
	module = make([]byte, 0, header+len(rest))
	module = append(append(module, bin[:header]...), rest...)
	return module, body[m+int(nameLen):]
}

// toolFiles is the payload of a module's files section (see
// splitToolFiles), listed once per module and shared by every sandbox
// that places it: bytes in the core's memory, or n bytes that r reads
// where they lie (a DigestReaderStore's entry), file by file as commands
// open them.
type toolFiles struct {
	b []byte
	r io.ReaderAt
	n int64

	once  sync.Once
	files []toolFile
	total int64 // bytes of the files
	err   error
}

// toolFile is a file or directory a module carries.
type toolFile struct {
	name string
	sf   *vfs.SharedFile // nil for a directory
}

func filesOfBytes(b []byte) *toolFiles { return &toolFiles{b: b, n: int64(len(b))} }

// size returns the payload's size in bytes.
func (tf *toolFiles) size() int64 {
	if tf == nil {
		return 0
	}
	return tf.n
}

// list returns the files, reading the payload's directory the first time.
func (tf *toolFiles) list() ([]toolFile, int64, error) {
	tf.once.Do(func() {
		r := tf.r
		if tf.b != nil {
			r = bytes.NewReader(tf.b)
		}
		entries, err := readStoredZip(r, tf.n)
		if err != nil {
			tf.err = err
			return
		}
		for _, e := range entries {
			name := path.Clean("/" + e.name)
			if strings.HasSuffix(e.name, "/") {
				tf.files = append(tf.files, toolFile{name: name})
				continue
			}
			sf := vfs.NewSharedFile(tf.r, e.off, e.size)
			if tf.b != nil {
				sf = vfs.SharedBytes(tf.b[e.off : e.off+e.size])
			}
			tf.files = append(tf.files, toolFile{name: name, sf: sf})
			tf.total += e.size
		}
	})
	return tf.files, tf.total, tf.err
}

// placeToolFiles puts the files that a module carries into the sandbox's
// filesystem, once per sandbox and module (named by its cache key). Files
// that already exist are left as they are.
func (s *Sandbox) placeToolFiles(key moduleKey, tf *toolFiles) error {
	module := key.name
	ts := s.tools
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.placed[module] {
		return nil
	}
	file := moduleName(key)
	files, total, err := tf.list()
	if err != nil {
		return fmt.Errorf("files of %s: %w", file, err)
	}
	// The files are the sandbox's, not the user's: make room for them.
	maxBytes, maxInodes := s.fs.Limits()
	s.fs.SetLimits(maxBytes+total, maxInodes+2*len(files))
	for _, f := range files {
		if _, err := s.fs.Stat(vfs.RootIno, f.name, false); err == nil {
			continue
		}
		if f.sf == nil {
			err = s.fs.MkdirAll(f.name, 0o755)
		} else if err = s.fs.MkdirAll(path.Dir(f.name), 0o755); err == nil {
			err = s.fs.WriteSharedFile(f.name, f.sf, 0o644)
		}
		if err != nil {
			return fmt.Errorf("placing the files of %s: %w", file, err)
		}
	}
	ts.placed[module] = true
	return nil
}

// zipEntry is one entry of a stored zip: its name and where its bytes
// lie in the archive.
type zipEntry struct {
	name      string
	off, size int64
}

var errZip = errors.New("not a stored zip archive")

// readStoredZip lists the entries of the zip archive of n bytes that r
// reads, whose entries must all be stored (uncompressed), as the build
// writes them, so that an entry's bytes can be read, or sliced, where
// they lie. It reads the central directory (with its ZIP64 forms) and
// each entry's local header, checking every offset against n, and does
// not check CRCs. Reading stored entries takes this much alone;
// archive/zip and compress/flate would add about 160 KB to the js/wasm
// core for what the build never writes.
func readStoredZip(r io.ReaderAt, n int64) ([]zipEntry, error) {
	const (
		eocdLen   = 22
		loc64Len  = 20
		eocd64Len = 56
		cdhLen    = 46
		lfhLen    = 30
	)
	size := uint64(n)
	if n < eocdLen {
		return nil, errZip
	}
	// The end of central directory record ends the archive, but for a
	// comment.
	tailOff := uint64(max(n-eocdLen-0xffff, 0))
	tail, err := readZipAt(r, tailOff, size-tailOff)
	if err != nil {
		return nil, err
	}
	end := -1
	for i := len(tail) - eocdLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(tail[i:]) == 0x06054b50 && i+eocdLen+int(binary.LittleEndian.Uint16(tail[i+20:])) == len(tail) {
			end = i
			break
		}
	}
	if end < 0 {
		return nil, errZip
	}
	count := uint64(binary.LittleEndian.Uint16(tail[end+10:]))
	cdSize := uint64(binary.LittleEndian.Uint32(tail[end+12:]))
	off := uint64(binary.LittleEndian.Uint32(tail[end+16:]))
	if count == 0xffff || cdSize == 0xffffffff || off == 0xffffffff {
		// ZIP64: a locator before the record gives the ZIP64 record.
		l := tailOff + uint64(end)
		if l < loc64Len {
			return nil, errZip
		}
		l -= loc64Len
		loc, err := readZipAt(r, l, loc64Len)
		if err != nil || binary.LittleEndian.Uint32(loc) != 0x07064b50 {
			return nil, errZip
		}
		at := binary.LittleEndian.Uint64(loc[8:])
		if at > l || l-at < eocd64Len {
			return nil, errZip
		}
		rec, err := readZipAt(r, at, eocd64Len)
		if err != nil || binary.LittleEndian.Uint32(rec) != 0x06064b50 {
			return nil, errZip
		}
		count = binary.LittleEndian.Uint64(rec[32:])
		cdSize = binary.LittleEndian.Uint64(rec[40:])
		off = binary.LittleEndian.Uint64(rec[48:])
	}
	if off > size || cdSize > size-off || count > cdSize/cdhLen {
		return nil, errZip
	}
	cd, err := readZipAt(r, off, cdSize)
	if err != nil {
		return nil, err
	}
	entries := make([]zipEntry, 0, count)
	for range count {
		if len(cd) < cdhLen || binary.LittleEndian.Uint32(cd) != 0x02014b50 {
			return nil, errZip
		}
		method := binary.LittleEndian.Uint16(cd[10:])
		csize := uint64(binary.LittleEndian.Uint32(cd[20:]))
		usize := uint64(binary.LittleEndian.Uint32(cd[24:]))
		nameLen := int(binary.LittleEndian.Uint16(cd[28:]))
		extraLen := int(binary.LittleEndian.Uint16(cd[30:]))
		commentLen := int(binary.LittleEndian.Uint16(cd[32:]))
		local := uint64(binary.LittleEndian.Uint32(cd[42:]))
		if len(cd) < cdhLen+nameLen+extraLen+commentLen {
			return nil, errZip
		}
		name := string(cd[cdhLen : cdhLen+nameLen])
		// A ZIP64 extra field holds, in this order, those of the sizes
		// and the offset that did not fit.
		for extra := cd[cdhLen+nameLen : cdhLen+nameLen+extraLen]; len(extra) >= 4; {
			id, n := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
			if len(extra) < 4+n {
				return nil, errZip
			}
			if id == 0x0001 {
				f := extra[4 : 4+n]
				for _, v := range []*uint64{&usize, &csize, &local} {
					if *v == 0xffffffff {
						if len(f) < 8 {
							return nil, errZip
						}
						*v, f = binary.LittleEndian.Uint64(f), f[8:]
					}
				}
			}
			extra = extra[4+n:]
		}
		cd = cd[cdhLen+nameLen+extraLen+commentLen:]
		if method != 0 || csize != usize {
			return nil, fmt.Errorf("%s: compressed (method %d); the files must be stored", name, method)
		}
		if local > size || size-local < lfhLen {
			return nil, fmt.Errorf("%s: %w", name, errZip)
		}
		lfh, err := readZipAt(r, local, lfhLen)
		if err != nil || binary.LittleEndian.Uint32(lfh) != 0x04034b50 {
			return nil, fmt.Errorf("%s: %w", name, errZip)
		}
		start := local + lfhLen + uint64(binary.LittleEndian.Uint16(lfh[26:])) + uint64(binary.LittleEndian.Uint16(lfh[28:]))
		if start > size || usize > size-start {
			return nil, fmt.Errorf("%s: %w", name, errZip)
		}
		entries = append(entries, zipEntry{name: name, off: int64(start), size: int64(usize)})
	}
	return entries, nil
}

// readZipAt reads the n bytes at off of an archive that readStoredZip
// has checked to hold them.
func readZipAt(r io.ReaderAt, off, n uint64) ([]byte, error) {
	b := make([]byte, n)
	if k, err := r.ReadAt(b, int64(off)); k < len(b) {
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("%w: %w", errZip, err)
	}
	return b, nil
}
