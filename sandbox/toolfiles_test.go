package sandbox

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// storedZip writes files (names ending in "/" are directories) as a zip
// with method m, as Python's zipfile or Go's archive/zip would.
func storedZip(t testing.TB, m uint16, comment string, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: m})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(name, "/") {
			io.WriteString(w, strings.Repeat("data of "+name+"\n", len(name)))
		}
	}
	if err := zw.SetComment(comment); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readZipBytes is readStoredZip of the archive b.
func readZipBytes(b []byte) ([]zipEntry, error) {
	return readStoredZip(bytes.NewReader(b), int64(len(b)))
}

// checkAgainstArchiveZip compares readStoredZip with archive/zip on b.
func checkAgainstArchiveZip(t *testing.T, b []byte) {
	t.Helper()
	got, err := readZipBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(zr.File) {
		t.Fatalf("%d entries, want %d", len(got), len(zr.File))
	}
	for i, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		want, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if data := b[got[i].off : got[i].off+got[i].size]; got[i].name != f.Name || !bytes.Equal(data, want) {
			t.Fatalf("entry %d: %q %q, want %q %q", i, got[i].name, data, f.Name, want)
		}
	}
}

func TestReadStoredZip(t *testing.T) {
	checkAgainstArchiveZip(t, storedZip(t, zip.Store, "", "usr/", "usr/lib/", "usr/lib/a.py", "usr/lib/empty", "b"))
	checkAgainstArchiveZip(t, storedZip(t, zip.Store, "a comment"))
	checkAgainstArchiveZip(t, storedZip(t, zip.Store, strings.Repeat("c", 0xffff), "x"))
}

// TestReadStoredZip64 reads an archive with more entries than the
// classic end record counts, which archive/zip writes in the ZIP64 form.
func TestReadStoredZip64(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 65,536-entry archive")
	}
	names := make([]string, 0x10000)
	for i := range names {
		names[i] = fmt.Sprintf("d/%05x", i)
	}
	b := storedZip(t, zip.Store, "", names...)
	if !bytes.Contains(b, []byte{0x50, 0x4b, 0x06, 0x06}) {
		t.Fatal("archive/zip wrote no ZIP64 end record")
	}
	checkAgainstArchiveZip(t, b)
}

func TestReadStoredZipCompressed(t *testing.T) {
	_, err := readZipBytes(storedZip(t, zip.Deflate, "", "a/b.py"))
	if err == nil || !strings.Contains(err.Error(), "a/b.py: compressed") {
		t.Fatalf("err = %v, want a/b.py: compressed", err)
	}
}

// TestReadStoredZipDamaged cuts and flips bytes of an archive: the result
// is an error or entries that lie within the archive, never a panic.
func TestReadStoredZipDamaged(t *testing.T) {
	b := storedZip(t, zip.Store, "", "usr/", "usr/lib/a.py", "b", "c/d/e")
	for n := range len(b) {
		if _, err := readZipBytes(b[:n]); err == nil {
			t.Fatalf("a %d-byte prefix of %d bytes read without error", n, len(b))
		}
	}
	for i := range b {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			c := bytes.Clone(b)
			c[i] ^= x
			readZipBytes(c)
		}
	}
	if _, err := readZipBytes(nil); err == nil {
		t.Fatal("an empty payload read without error")
	}
}

// FuzzReadStoredZip feeds readStoredZip arbitrary bytes (a module's files
// section is outside input: any wasm a user runs may carry one): it must
// return an error or entries, never panic, and where archive/zip reads
// every entry of the same bytes without error, the two must agree.
func FuzzReadStoredZip(f *testing.F) {
	for _, b := range [][]byte{
		storedZip(f, zip.Store, "", "usr/", "usr/lib/a.py", "b"),
		storedZip(f, zip.Store, "comment", "x"),
		storedZip(f, zip.Deflate, "", "a/b.py"),
		nil,
	} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := readZipBytes(b)
		if err != nil {
			return
		}
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil || len(zr.File) != len(got) {
			return
		}
		for i, zf := range zr.File {
			rc, err := zf.Open()
			if err != nil {
				return
			}
			want, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				return
			}
			if data := b[got[i].off : got[i].off+got[i].size]; got[i].name != zf.Name || !bytes.Equal(data, want) {
				t.Fatalf("entry %d: %q %q, archive/zip reads %q %q", i, got[i].name, data, zf.Name, want)
			}
		}
	})
}

// countingReaderAt is an io.ReaderAt over b that counts the bytes read.
type countingReaderAt struct {
	b    []byte
	read int
}

func (r *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off > int64(len(r.b)) {
		return 0, io.EOF
	}
	n := copy(p, r.b[off:])
	r.read += n
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// TestPlaceToolFilesInPlace: files read where they lie (a
// DigestReaderStore's entry) are placed in every sandbox without their
// bytes being read, and a file's bytes are read once, when a sandbox
// first reads it, for all of them.
func TestPlaceToolFilesInPlace(t *testing.T) {
	// Files larger than the tail readStoredZip reads for the end record.
	files := map[string]string{
		"usr/lib/a.py":  strings.Repeat("print('a')\n", 20000),
		"usr/lib/bb.py": strings.Repeat("print('bb')\n", 30000),
		"b":             "b\n",
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"usr/", "usr/lib/", "usr/lib/a.py", "usr/lib/bb.py", "b"} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err == nil {
			_, err = io.WriteString(w, files[name])
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zb := buf.Bytes()
	r := &countingReaderAt{b: zb}
	tf := &toolFiles{r: r, n: int64(len(zb))}
	key := moduleKey{name: "tool:t.wasm\x00id"}
	var sbs []*Sandbox
	for range 2 {
		sb, err := New(context.Background(), Options{ToolsDir: t.TempDir(), Platform: newWazeroPlatform()})
		if err != nil {
			t.Fatal(err)
		}
		defer sb.Close()
		if err := sb.placeToolFiles(key, tf); err != nil {
			t.Fatal(err)
		}
		sbs = append(sbs, sb)
	}
	headers := r.read
	if headers > len(zb)-len(files["usr/lib/a.py"])-len(files["usr/lib/bb.py"])+70000 {
		t.Fatalf("placing read %d bytes of a %d-byte archive: more than its directory and tail", headers, len(zb))
	}
	want := files["usr/lib/a.py"]
	for _, sb := range sbs {
		got, err := sb.ReadFile("/usr/lib/a.py")
		if err != nil || string(got) != want {
			t.Fatalf("a.py: %d bytes, %v", len(got), err)
		}
		if st, err := sb.fs.Stat(vfs.RootIno, "/usr/lib/bb.py", false); err != nil || st.Size != int64(len(files["usr/lib/bb.py"])) {
			t.Fatalf("bb.py: %+v, %v", st, err)
		}
	}
	if got := r.read - headers; got != len(want) {
		t.Errorf("reading a.py in two sandboxes read %d bytes of the archive, want %d (once)", got, len(want))
	}
}
