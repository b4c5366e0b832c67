package sandbox

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
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
func (s *Sandbox) placeToolFiles(module string, payload []byte) error {
	ts := s.tools
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.placed[module] {
		return nil
	}
	file := strings.TrimPrefix(module, "tool:")
	zr, err := zip.NewReader(bytes.NewReader(payload), int64(len(payload)))
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
	for _, f := range zr.File {
		name := path.Clean("/" + f.Name)
		if strings.HasSuffix(f.Name, "/") {
			items = append(items, item{name: name, dir: true})
			continue
		}
		data, err := storedData(payload, f)
		if err != nil {
			return fmt.Errorf("files of %s: %s: %w", file, f.Name, err)
		}
		items = append(items, item{name: name, data: data})
		total += int64(len(data))
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

// storedData returns the bytes of a zip entry: a slice of payload when the
// entry is stored, as the build writes them, else a decompressed copy.
func storedData(payload []byte, f *zip.File) ([]byte, error) {
	if f.Method == zip.Store && f.CompressedSize64 == f.UncompressedSize64 {
		off, err := f.DataOffset()
		if err != nil {
			return nil, err
		}
		end := off + int64(f.UncompressedSize64)
		if off < 0 || end > int64(len(payload)) {
			return nil, fs.ErrInvalid
		}
		return payload[off:end:end], nil
	}
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}
