package sandbox

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// A tool module may carry read-only files that its commands need — the
// Python standard library rides in python3.wasm — in a custom section
// named toolFilesSection, placed first in the module: an uncompressed
// (stored) zip whose entry names are paths below "/". The section is cut
// off before the module is compiled, and the files are put into a
// sandbox's filesystem the first time one of the module's commands runs
// there: a sandbox that never runs Python never holds its library, and
// the bytes are shared by every sandbox (vfs.WriteFileShared), never
// copied. They do not count against the sandbox's disk quota.
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

// placeToolFiles puts the files that a module carries (payload, from
// splitToolFiles) into the sandbox's filesystem, once per sandbox and
// module (named by its cache key). Files that already exist are left as
// they are.
func (s *Sandbox) placeToolFiles(key moduleKey, payload []byte) error {
	module := key.name
	ts := s.tools
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.placed[module] {
		return nil
	}
	file := moduleName(key)
	entries, err := readStoredZip(payload)
	if err != nil {
		return fmt.Errorf("files of %s: %w", file, err)
	}
	type item struct {
		name string
		data []byte
		dir  bool
	}
	var items []item
	var total int64
	for _, e := range entries {
		name := path.Clean("/" + e.name)
		if strings.HasSuffix(e.name, "/") {
			items = append(items, item{name: name, dir: true})
			continue
		}
		items = append(items, item{name: name, data: e.data})
		total += int64(len(e.data))
	}
	// The files are the sandbox's, not the user's: make room for them.
	maxBytes, maxInodes := s.fs.Limits()
	s.fs.SetLimits(maxBytes+total, maxInodes+2*len(items))
	for _, it := range items {
		if _, err := s.fs.Stat(vfs.RootIno, it.name, false); err == nil {
			continue
		}
		if it.dir {
			err = s.fs.MkdirAll(it.name, 0o755)
		} else if err = s.fs.MkdirAll(path.Dir(it.name), 0o755); err == nil {
			err = s.fs.WriteFileShared(it.name, it.data, 0o644)
		}
		if err != nil {
			return fmt.Errorf("placing the files of %s: %w", file, err)
		}
	}
	ts.placed[module] = true
	return nil
}

// zipEntry is one entry of a stored zip: its name and a slice of the
// archive holding its bytes.
type zipEntry struct {
	name string
	data []byte
}

var errZip = errors.New("not a stored zip archive")

// readStoredZip lists the entries of the zip archive b, whose entries must
// all be stored (uncompressed), as the build writes them: their bytes are
// slices of b, shared rather than copied. It reads the central directory
// (with its ZIP64 forms) and each entry's local header, checking every
// offset against b, and does not check CRCs. Reading stored entries takes
// this much alone; archive/zip and compress/flate would add about 160 KB
// to the js/wasm core for what the build never writes.
func readStoredZip(b []byte) ([]zipEntry, error) {
	const (
		eocdLen   = 22
		loc64Len  = 20
		eocd64Len = 56
		cdhLen    = 46
		lfhLen    = 30
	)
	// The end of central directory record ends b, but for a comment.
	end := -1
	for i := len(b) - eocdLen; i >= 0 && i >= len(b)-eocdLen-0xffff; i-- {
		if binary.LittleEndian.Uint32(b[i:]) == 0x06054b50 && i+eocdLen+int(binary.LittleEndian.Uint16(b[i+20:])) == len(b) {
			end = i
			break
		}
	}
	if end < 0 {
		return nil, errZip
	}
	count := uint64(binary.LittleEndian.Uint16(b[end+10:]))
	size := uint64(binary.LittleEndian.Uint32(b[end+12:]))
	off := uint64(binary.LittleEndian.Uint32(b[end+16:]))
	if count == 0xffff || size == 0xffffffff || off == 0xffffffff {
		// ZIP64: a locator before the record gives the ZIP64 record.
		l := end - loc64Len
		if l < 0 || binary.LittleEndian.Uint32(b[l:]) != 0x07064b50 {
			return nil, errZip
		}
		r := binary.LittleEndian.Uint64(b[l+8:])
		if r > uint64(l) || uint64(l)-r < eocd64Len || binary.LittleEndian.Uint32(b[r:]) != 0x06064b50 {
			return nil, errZip
		}
		count = binary.LittleEndian.Uint64(b[r+32:])
		size = binary.LittleEndian.Uint64(b[r+40:])
		off = binary.LittleEndian.Uint64(b[r+48:])
	}
	if off > uint64(len(b)) || size > uint64(len(b))-off || count > size/cdhLen {
		return nil, errZip
	}
	cd := b[off : off+size]
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
		if local > uint64(len(b)) || uint64(len(b))-local < lfhLen || binary.LittleEndian.Uint32(b[local:]) != 0x04034b50 {
			return nil, fmt.Errorf("%s: %w", name, errZip)
		}
		start := local + lfhLen + uint64(binary.LittleEndian.Uint16(b[local+26:])) + uint64(binary.LittleEndian.Uint16(b[local+28:]))
		if start > uint64(len(b)) || usize > uint64(len(b))-start {
			return nil, fmt.Errorf("%s: %w", name, errZip)
		}
		entries = append(entries, zipEntry{name: name, data: b[start : start+usize : start+usize]})
	}
	return entries, nil
}
