package sandbox

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
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

// checkAgainstArchiveZip compares readStoredZip with archive/zip on b.
func checkAgainstArchiveZip(t *testing.T, b []byte) {
	t.Helper()
	got, err := readStoredZip(b)
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
		if got[i].name != f.Name || !bytes.Equal(got[i].data, want) {
			t.Fatalf("entry %d: %q %q, want %q %q", i, got[i].name, got[i].data, f.Name, want)
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
	_, err := readStoredZip(storedZip(t, zip.Deflate, "", "a/b.py"))
	if err == nil || !strings.Contains(err.Error(), "a/b.py: compressed") {
		t.Fatalf("err = %v, want a/b.py: compressed", err)
	}
}

// TestReadStoredZipDamaged cuts and flips bytes of an archive: the result
// is an error or entries that lie within the archive, never a panic.
func TestReadStoredZipDamaged(t *testing.T) {
	b := storedZip(t, zip.Store, "", "usr/", "usr/lib/a.py", "b", "c/d/e")
	for n := range len(b) {
		if _, err := readStoredZip(b[:n]); err == nil {
			t.Fatalf("a %d-byte prefix of %d bytes read without error", n, len(b))
		}
	}
	for i := range b {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			c := bytes.Clone(b)
			c[i] ^= x
			readStoredZip(c)
		}
	}
	if _, err := readStoredZip(nil); err == nil {
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
		got, err := readStoredZip(b)
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
			if got[i].name != zf.Name || !bytes.Equal(got[i].data, want) {
				t.Fatalf("entry %d: %q %q, archive/zip reads %q %q", i, got[i].name, got[i].data, zf.Name, want)
			}
		}
	})
}
