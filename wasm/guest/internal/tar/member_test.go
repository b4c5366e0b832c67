package tar

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestArchiveWriterMatchesArchiveTar writes the same members with
// archiveWriter and with archive/tar's Writer alone: the archives must be
// the same bytes, whether archiveWriter makes a member's header itself or
// hands it to archive/tar, in any order of the two.
func TestArchiveWriterMatchesArchiveTar(t *testing.T) {
	mtime := time.Unix(1700000000, 0)
	dir := t.TempDir()
	type member struct {
		h    tar.Header
		data string
	}
	reg := func(name, data string) member {
		return member{tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Uid: 1000, Gid: 1000,
			Uname: "user", Gname: "user", Size: int64(len(data)), ModTime: mtime, Format: tar.FormatGNU}, data}
	}
	hdrOnly := func(flag byte, name, link string) member {
		return member{tar.Header{Typeflag: flag, Name: name, Linkname: link, Mode: 0o755, Uid: 1000, Gid: 1000,
			Uname: "user", Gname: "user", ModTime: mtime, Format: tar.FormatGNU}, ""}
	}
	with := func(m member, f func(h *tar.Header)) member {
		f(&m.h)
		return m
	}
	members := []member{
		hdrOnly(tar.TypeDir, "d/", ""),
		reg("d/a.txt", "file 00 00\n"),
		reg("d/empty", ""),
		reg("d/block", strings.Repeat("x", 512)),
		reg("d/block+1", strings.Repeat("y", 513)),
		reg("d/big", strings.Repeat("0123456789abcdef", 70<<10/16)), // past one write
		reg(strings.Repeat("n", 100), "name of 100 bytes\n"),
		reg(strings.Repeat("l", 101), "a long name goes through archive/tar\n"),
		reg("d/utf8 é", "é\n"),
		hdrOnly(tar.TypeSymlink, "d/link", "a.txt"),
		hdrOnly(tar.TypeSymlink, "d/longlink", strings.Repeat("t", 101)),
		hdrOnly(tar.TypeDir, strings.Repeat("D", 99)+"/", ""),
		with(reg("d/mode", "m\n"), func(h *tar.Header) { h.Mode = 0o4755 }),
		with(reg("d/uid", "u\n"), func(h *tar.Header) { h.Uid = 1<<21 - 1 }),
		with(reg("d/biguid", "u\n"), func(h *tar.Header) { h.Uid = 1 << 21 }), // base 256
		with(reg("d/user", "u\n"), func(h *tar.Header) { h.Uname = strings.Repeat("u", 32) }),
		with(reg("d/nouser", "u\n"), func(h *tar.Header) { h.Uname, h.Gname = "", "" }),
		with(reg("d/epoch", "e\n"), func(h *tar.Header) { h.ModTime = time.Time{} }),
		with(reg("d/before", "b\n"), func(h *tar.Header) { h.ModTime = time.Unix(-1, 0) }),
		with(reg("d/far", "f\n"), func(h *tar.Header) { h.ModTime = time.Unix(1<<33, 0) }),
		with(reg("d/atime", "a\n"), func(h *tar.Header) { h.AccessTime = mtime }),
		reg("d/last", "the end\n"),
	}
	// Each order of the members, turned by one, mixes the two ways
	// differently.
	for turn := range members {
		ms := append(members[turn:len(members):len(members)], members[:turn]...)
		var want bytes.Buffer
		tw := tar.NewWriter(&want)
		for _, m := range ms {
			h := m.h
			if err := tw.WriteHeader(&h); err != nil {
				t.Fatalf("%s: %v", h.Name, err)
			}
			if _, err := tw.Write([]byte(m.data)); err != nil {
				t.Fatal(err)
			}
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}

		var got bytes.Buffer
		aw := newArchiveWriter(&got)
		direct := 0
		for i, m := range ms {
			h := m.h
			var blk [blockSize]byte
			if gnuHeader(&blk, &h) {
				direct++
			}
			if h.Typeflag != tar.TypeReg {
				if err := aw.writeHeader(&h); err != nil {
					t.Fatal(err)
				}
				continue
			}
			name := filepath.Join(dir, "f"+string(rune('a'+i)))
			if err := os.WriteFile(name, []byte(m.data), 0o644); err != nil {
				t.Fatal(err)
			}
			fd, err := syscall.Open(name, syscall.O_RDONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			n, rerr, err := aw.writeFile(&h, fd)
			syscall.Close(fd)
			if err != nil || rerr != nil || n != h.Size {
				t.Fatalf("%s: writeFile = %d, %v, %v", h.Name, n, rerr, err)
			}
		}
		if err := aw.Close(); err != nil {
			t.Fatal(err)
		}
		if direct < len(ms)/2 || direct == len(ms) {
			t.Fatalf("%d of %d headers made directly: the test should mix both ways", direct, len(ms))
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			g, w := got.Bytes(), want.Bytes()
			i := 0
			for i < len(g) && i < len(w) && g[i] == w[i] {
				i++
			}
			t.Fatalf("turn %d: archives differ at byte %d (block %d, offset %d); lengths %d and %d", turn, i, i/blockSize, i%blockSize, len(g), len(w))
		}
	}
}

// TestGNUHeaderRefuses checks that gnuHeader leaves to archive/tar the
// headers it refuses, so their error is archive/tar's.
func TestGNUHeaderRefuses(t *testing.T) {
	for _, h := range []tar.Header{
		{Typeflag: tar.TypeReg, Name: "f", Uname: strings.Repeat("u", 33), Format: tar.FormatGNU},
		{Typeflag: tar.TypeReg, Name: "nul\x00", Format: tar.FormatGNU},
		{Typeflag: tar.TypeReg, Name: "dir/", Format: tar.FormatGNU},
		{Typeflag: tar.TypeReg, Name: "f", Size: -1, Format: tar.FormatGNU},
		{Typeflag: tar.TypeReg, Name: "f", Format: tar.FormatPAX},
		{Typeflag: tar.TypeChar, Name: "f", Format: tar.FormatGNU},
	} {
		var blk [blockSize]byte
		if gnuHeader(&blk, &h) {
			t.Errorf("gnuHeader made a block for %+v", h)
		}
	}
}

// TestArchiveWriterShrunk gives writeFile a file shorter than its header
// says: the member is padded with zeros to its size, and the archive stays
// readable.
func TestArchiveWriterShrunk(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, []byte("short\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int64{10, 100 << 10} {
		var buf bytes.Buffer
		aw := newArchiveWriter(&buf)
		h := &tar.Header{Typeflag: tar.TypeReg, Name: "f", Mode: 0o644, Size: size, Format: tar.FormatGNU}
		fd, err := syscall.Open(name, syscall.O_RDONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		n, rerr, err := aw.writeFile(h, fd)
		syscall.Close(fd)
		if n != 6 || rerr != nil || err != nil {
			t.Fatalf("size %d: writeFile = %d, %v, %v; want 6, nil, nil", size, n, rerr, err)
		}
		if err := aw.Close(); err != nil {
			t.Fatal(err)
		}
		tr := tar.NewReader(&buf)
		if _, err := tr.Next(); err != nil {
			t.Fatal(err)
		}
		var data bytes.Buffer
		if _, err := data.ReadFrom(tr); err != nil {
			t.Fatal(err)
		}
		want := append([]byte("short\n"), make([]byte, size-6)...)
		if !bytes.Equal(data.Bytes(), want) {
			t.Fatalf("size %d: member holds %q", size, data.Bytes()[:min(20, data.Len())])
		}
		if _, err := tr.Next(); err == nil {
			t.Fatalf("size %d: a second member", size)
		}
	}
}
