package tar

import (
	"archive/tar"
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// read lists (-t) or extracts (-x) the archive; operands select members.
func (t *tarCmd) read(operands []string) error {
	var r io.Reader
	if t.file == "-" {
		r = t.env.Stdin
	} else {
		f, err := os.Open(t.file)
		if err != nil {
			return errors.New(t.file + ": Cannot open: " + tool.Strerror(err))
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReaderSize(r, 64<<10)
	// Like GNU tar reading a file, recognize gzip by its magic bytes.
	if magic, _ := br.Peek(2); t.gzip || len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			t.env.Errorf("This does not look like a tar archive")
			return errors.New("Child returned status 1")
		}
		defer gz.Close()
		r = gz
	} else {
		r = br
	}
	want := make(map[string]bool, len(operands))
	for _, op := range operands {
		want[strings.TrimSuffix(op, "/")] = false
	}
	tr := tar.NewReader(r)
	var dirs []*tar.Header // directory times are set last
	for n := 0; ; n++ {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if n == 0 {
				t.env.Errorf("This does not look like a tar archive")
				return errors.New("Exiting with failure status due to previous errors")
			}
			return errors.New("Unexpected EOF in archive")
		}
		if len(want) > 0 && !t.selected(h.Name, want) {
			continue
		}
		if t.excluded(strings.TrimPrefix(h.Name, "./")) {
			continue
		}
		if t.mode == 't' {
			if t.verbose > 0 {
				t.verboseLine(h)
			} else {
				t.env.Out().WriteString(h.Name + "\n")
			}
			continue
		}
		if err := t.extract(tr, h, &dirs); err != nil {
			return err
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		h := dirs[i]
		if !t.noMtime {
			os.Chtimes(h.Name, h.ModTime, h.ModTime)
		}
	}
	for op, seen := range want {
		if !seen {
			t.fail("%s: Not found in archive", op)
		}
	}
	return nil
}

// selected reports whether a member is named by an operand (or lies in a
// directory that is), and marks the operand as seen.
func (t *tarCmd) selected(name string, want map[string]bool) bool {
	n := strings.TrimSuffix(name, "/")
	for op := range want {
		if n == op || strings.HasPrefix(n, op+"/") {
			want[op] = true
			return true
		}
	}
	return false
}

// safeName is the path a member is extracted to, relative to the target
// directory, or "" to skip it. Like GNU tar it removes leading slashes and
// "../" prefixes (saying so once) and refuses names with ".." inside.
func (t *tarCmd) safeName(name string) (string, bool) {
	n := t.memberName(name)
	for _, c := range strings.Split(name, "/") {
		if c == ".." {
			t.fail("%s: Member name contains '..'", name)
			return "", false
		}
	}
	if t.strip > 0 {
		parts := strings.Split(strings.TrimSuffix(n, "/"), "/")
		if len(parts) <= t.strip {
			return "", false
		}
		n = strings.Join(parts[t.strip:], "/")
	}
	n = path.Clean(n)
	if n == "." || n == "" {
		return "", false
	}
	return n, true
}

func (t *tarCmd) extract(tr *tar.Reader, h *tar.Header, dirs *[]*tar.Header) error {
	name, ok := t.safeName(h.Name)
	if !ok {
		return nil
	}
	if t.verbose > 0 {
		t.verboseLine(h)
	}
	// tar.Reader.Next reports old-style regular files (TypeRegA) as
	// TypeReg, or TypeDir when the name ends in a slash.
	if t.toStdout {
		if h.Typeflag == tar.TypeReg {
			if _, err := io.Copy(t.env.Out(), tr); err != nil {
				return writeError{err}
			}
		}
		return nil
	}
	target := name
	if t.dir != "" {
		target = filepath.Join(t.dir, name)
	}
	if t.throughSymlink(name) {
		t.fail("%s: Cannot open: %s", name, "Not a directory (would follow a symbolic link)")
		return nil
	}
	switch h.Typeflag {
	case tar.TypeDir:
		if err := os.MkdirAll(target, 0o755); err != nil {
			t.fail("%s: Cannot mkdir: %s", name, tool.Strerror(err))
			return nil
		}
		fsx.Chmod(target, fs.FileMode(h.Mode&0o7777), false)
		hd := *h
		hd.Name = target
		*dirs = append(*dirs, &hd)
		return nil
	case tar.TypeReg, tar.TypeGNUSparse:
		if err := t.prepare(target, name); err != nil {
			return nil
		}
		f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			t.fail("%s: Cannot open: %s", name, tool.Strerror(err))
			return nil
		}
		_, err = io.Copy(f, tr)
		cerr := f.Close()
		if err == nil {
			err = cerr
		}
		if err != nil {
			if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
				return errors.New(name + ": Cannot write: " + tool.Strerror(err))
			}
			var pe *fs.PathError
			if errors.As(err, &pe) || errors.Is(err, syscall.EIO) {
				t.fail("%s: Cannot write: %s", name, tool.Strerror(err))
				return nil
			}
			return errors.New("Unexpected EOF in archive")
		}
	case tar.TypeSymlink:
		if err := t.prepare(target, name); err != nil {
			return nil
		}
		if err := os.Symlink(h.Linkname, target); err != nil {
			t.fail("%s: Cannot create symlink to %s: %s", name, tool.Quote(h.Linkname), tool.Strerror(err))
		}
		return nil
	case tar.TypeLink:
		old, ok := t.safeName(h.Linkname)
		if !ok {
			return nil
		}
		if t.dir != "" {
			old = filepath.Join(t.dir, old)
		}
		if err := t.prepare(target, name); err != nil {
			return nil
		}
		if err := os.Link(old, target); err != nil {
			t.fail("%s: Cannot hard link to %s: %s", name, tool.Quote(h.Linkname), tool.Strerror(err))
		}
		return nil
	default:
		t.env.Errorf("%s: Unknown file type '%c', extracted as normal file", name, h.Typeflag)
		return nil
	}
	fsx.Chmod(target, fs.FileMode(h.Mode&0o7777), false)
	if !t.noMtime {
		os.Chtimes(target, time.Now(), h.ModTime)
	}
	return nil
}

// prepare makes the parent directories of target and removes an old file
// in its place (or refuses, with -k).
func (t *tarCmd) prepare(target, name string) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.fail("%s: Cannot mkdir: %s", name, tool.Strerror(err))
		return err
	}
	fi, err := os.Lstat(target)
	if err != nil {
		return nil
	}
	if t.keepOld {
		t.fail("%s: Cannot open: File exists", name)
		return fs.ErrExist
	}
	if fi.IsDir() {
		return nil
	}
	os.Remove(target)
	return nil
}

// throughSymlink reports whether a parent directory of the member (below
// the target directory) is a symbolic link, which a hostile archive could
// use to write outside the target directory.
func (t *tarCmd) throughSymlink(name string) bool {
	dir := t.dir
	parts := strings.Split(name, "/")
	for _, p := range parts[:len(parts)-1] {
		if dir == "" {
			dir = p
		} else {
			dir = filepath.Join(dir, p)
		}
		fi, err := os.Lstat(dir)
		if err != nil {
			return false
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return true
		}
	}
	return false
}
