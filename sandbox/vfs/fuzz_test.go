package vfs

import (
	"testing"
)

// reachable returns every inode reachable from the root.
func reachable(f *FS) map[Ino]bool {
	f.mu.RLock()
	defer f.mu.RUnlock()
	seen := map[Ino]bool{RootIno: true}
	var visit func(d *inode)
	visit = func(d *inode) {
		for _, c := range d.entries {
			if !seen[c.ino] {
				seen[c.ino] = true
				if c.typ == TypeDir {
					visit(c)
				}
			}
		}
	}
	visit(f.root())
	return seen
}

// checkErr fails unless err is nil or carries a known Errno.
func checkErr(t *testing.T, op string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	e := errno(err)
	if _, ok := errnoText[e]; !ok {
		t.Fatalf("%s: error %v carries no known errno", op, err)
	}
}

func FuzzResolve(f *testing.F) {
	f.Add("/a/l1/x", "../b", "/a", false, uint8(0))
	f.Add("../../..", "..", "../../../../..", true, uint8(3))
	f.Add("l2/l2/l2", "l1", "../l1", true, uint8(2))
	f.Add("/a/b/c/up/a/f/", "/a/f", "f/", true, uint8(1))
	f.Add("a//b/./c/../../l1/", "/", "./././", false, uint8(4))
	f.Add("", "", "b/c/up", true, uint8(5))
	f.Fuzz(func(t *testing.T, path, t1, t2 string, follow bool, sel uint8) {
		fsys := New(Options{MaxInodes: 64, MaxBytes: 4096})
		must(t, fsys.MkdirAll("/a/b/c", 0o755))
		must(t, fsys.WriteFile("/a/f", []byte("file"), 0o644))
		checkErr(t, "symlink", fsys.Symlink(t1, RootIno, "/a/l1"))
		checkErr(t, "symlink", fsys.Symlink(t2, RootIno, "/a/b/l2"))
		must(t, fsys.Symlink("../../..", RootIno, "/a/b/c/up"))
		bases := []string{"/", "/a", "/a/b", "/a/b/c", "/a/f"}
		base, err := fsys.Lookup(RootIno, bases[int(sel)%len(bases)], false)
		must(t, err)

		check := func(op string, ino Ino, err error) {
			t.Helper()
			checkErr(t, op, err)
			if err == nil && !reachable(fsys)[ino] {
				t.Fatalf("%s(%q) = inode %d outside the tree", op, path, ino)
			}
		}
		ino, err := fsys.Lookup(base, path, follow)
		check("lookup", ino, err)
		st, err := fsys.Stat(base, path, follow)
		check("stat", st.Ino, err)

		// Mutations through the fuzzed path keep the tree consistent.
		checkErr(t, "mkdir", fsys.Mkdir(base, path, 0o755))
		h, err := fsys.Open(base, path, OWrite|OCreate, 0o644)
		checkErr(t, "open", err)
		if err == nil {
			h.Write([]byte("x"))
			check("open", h.Ino(), nil)
		}
		checkErr(t, "symlink", fsys.Symlink(t1, base, path))
		checkErr(t, "link", fsys.Link(RootIno, "/a/f", base, path))
		checkErr(t, "rename", fsys.Rename(base, path, RootIno, "/a/b/c/moved"))
		checkErr(t, "rename", fsys.Rename(RootIno, "/a/b", base, path))
		checkErr(t, "mkdirall", fsys.MkdirAll("/"+path, 0o755))
		_, err = fsys.ReadDir(base, path)
		checkErr(t, "readdir", err)
		checkErr(t, "unlink", fsys.Unlink(base, path))
		checkErr(t, "rmdir", fsys.Rmdir(base, path))
		if h != nil {
			h.Close()
		}
		checkInvariants(t, fsys)
		c := fsys.Clone()
		checkInvariants(t, c)
	})
}
