package vfs

import (
	"strings"
	"testing"
)

func TestByteLimit(t *testing.T) {
	f := New(Options{MaxBytes: 100})
	h, err := f.Open(RootIno, "/f", ORead|OWrite|OCreate, 0o644)
	must(t, err)
	defer h.Close()
	if n, err := h.Write(make([]byte, 60)); n != 60 || err != nil {
		t.Fatalf("first write %d %v", n, err)
	}
	// Crossing the limit writes what fits and says ENOSPC.
	n, err := h.Write(make([]byte, 60))
	if n != 40 {
		t.Fatalf("partial write n = %d, want 40", n)
	}
	wantErr(t, err, ENOSPC)
	n, err = h.Write([]byte("x"))
	if n != 0 {
		t.Fatalf("write when full n = %d", n)
	}
	wantErr(t, err, ENOSPC)
	// Overwriting existing bytes costs nothing.
	if n, err := h.WriteAt([]byte("abc"), 10); n != 3 || err != nil {
		t.Fatalf("overwrite when full: %d %v", n, err)
	}
	// Overwrite that extends: the part below the size fits, the rest not.
	n, err = h.WriteAt([]byte("abcdef"), 97)
	if n != 3 {
		t.Fatalf("overwrite past end n = %d, want 3", n)
	}
	wantErr(t, err, ENOSPC)
	wantErr(t, h.Truncate(101), ENOSPC)
	wantErr(t, f.Symlink("t", RootIno, "/l"), ENOSPC)
	must(t, f.Mkdir(RootIno, "/d", 0o755)) // directories cost no bytes
	wantErr(t, f.WriteFile("/g", []byte("x"), 0o644), ENOSPC)
	if b, _ := f.Usage(); b != 100 {
		t.Fatalf("used = %d", b)
	}
	// Space comes back by truncating.
	must(t, h.Truncate(50))
	must(t, f.WriteFile("/g", make([]byte, 50), 0o644))
	wantErr(t, f.WriteFile("/g2", []byte("x"), 0o644), ENOSPC)
	// ... and by unlinking, but only once the last handle closes.
	must(t, f.Unlink(RootIno, "/f"))
	wantErr(t, f.WriteFile("/g2", []byte("x"), 0o644), ENOSPC)
	h.Close()
	must(t, f.WriteFile("/g2", make([]byte, 50), 0o644))
	checkInvariants(t, f)
}

func TestInodeLimit(t *testing.T) {
	f := New(Options{MaxInodes: 4})
	must(t, f.Mkdir(RootIno, "/d", 0o755))
	write(t, f, "/d/a", "")
	must(t, f.Link(RootIno, "/d/a", RootIno, "/b")) // links are free
	must(t, f.Symlink("x", RootIno, "/s"))
	wantErr(t, f.Mkdir(RootIno, "/e", 0o755), ENOSPC)
	wantErr(t, f.Mkfifo(RootIno, "/p", 0o644), ENOSPC)
	wantErr(t, f.Symlink("x", RootIno, "/s2"), ENOSPC)
	_, err := f.Open(RootIno, "/n", OWrite|OCreate, 0o644)
	wantErr(t, err, ENOSPC)
	if _, n := f.Usage(); n != 4 {
		t.Fatalf("inodes = %d", n)
	}
	must(t, f.Unlink(RootIno, "/s"))
	must(t, f.Mkdir(RootIno, "/e", 0o755))
}

func TestSetLimits(t *testing.T) {
	f := New(Options{})
	if b, i := f.Limits(); b != DefaultMaxBytes || i != DefaultMaxInodes {
		t.Fatalf("defaults %d %d", b, i)
	}
	write(t, f, "/f", strings.Repeat("x", 10))
	f.SetLimits(5, 0)
	wantErr(t, f.WriteFile("/g", []byte("y"), 0o644), ENOSPC)
	if read(t, f, "/f") != strings.Repeat("x", 10) {
		t.Fatal("existing data must stay")
	}
}

// checkInvariants walks the tree and checks link counts, parents and byte
// accounting against f's bookkeeping.
func checkInvariants(t testing.TB, f *FS) {
	t.Helper()
	f.mu.RLock()
	defer f.mu.RUnlock()
	refs := map[*inode]uint64{}
	seen := map[*inode]bool{}
	var visit func(d *inode)
	visit = func(d *inode) {
		seen[d] = true
		subdirs := uint64(0)
		for name, c := range d.entries {
			if name == "" || name == "." || name == ".." || strings.Contains(name, "/") || len(name) > NameMax {
				t.Fatalf("bad name %q in dir %d", name, d.ino)
			}
			if f.inodes[c.ino] != c {
				t.Fatalf("entry %q -> inode %d not in table", name, c.ino)
			}
			if c.typ == TypeDir {
				subdirs++
				if c.parent != d {
					t.Fatalf("dir %q: parent mismatch", name)
				}
				if seen[c] {
					t.Fatalf("directory %q reachable twice", name)
				}
				visit(c)
			} else {
				refs[c]++
			}
		}
		if d.nlink != 2+subdirs {
			t.Fatalf("dir %d nlink = %d, want %d", d.ino, d.nlink, 2+subdirs)
		}
	}
	root := f.root()
	if root.parent != root {
		t.Fatal("root's parent must be root")
	}
	visit(root)
	var used int64
	for ino, n := range f.inodes {
		if n.ino != ino {
			t.Fatalf("inode %d stored under %d", n.ino, ino)
		}
		switch {
		case n.typ == TypeDir && !seen[n] && (n.nlink != 0 || n.open == 0):
			t.Fatalf("unreachable dir %d nlink=%d open=%d", ino, n.nlink, n.open)
		case n.typ != TypeDir && refs[n] != n.nlink:
			t.Fatalf("inode %d nlink = %d, refs %d", ino, n.nlink, refs[n])
		case n.nlink == 0 && n.open == 0 && ino != RootIno:
			t.Fatalf("inode %d leaked", ino)
		}
		switch n.typ {
		case TypeRegular:
			used += n.size
			for i, c := range n.chunks {
				if c != nil && int64(i)*chunkSize+int64(len(c.data)) > n.size {
					t.Fatalf("inode %d chunk %d holds data past size %d", ino, i, n.size)
				}
			}
		case TypeSymlink:
			used += int64(len(n.target))
		}
	}
	if used != f.used {
		t.Fatalf("used = %d, sum = %d", f.used, used)
	}
}
