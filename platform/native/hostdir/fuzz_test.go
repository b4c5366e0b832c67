package hostdir_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// FuzzMountEscape resolves arbitrary paths and makes arbitrary symlinks,
// renames and links in a writable mount: nothing outside the mounted host
// directory may be read, and no symlink leading out of it may appear on
// the host.
func FuzzMountEscape(f *testing.F) {
	for _, s := range [][3]string{
		{"/mnt/data/../outside/secret.txt", "../outside", "l"},
		{"/mnt/data/up/secret.txt", "sub/../../outside", "sub/l"},
		{"/mnt/data/sub/../../../outside/secret.txt", "/etc/passwd", "x"},
		{"/mnt/data/abs", "..", "sub/up"},
		{"up/secret.txt", "sub/b.txt", "../l"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, p, target, name string) {
		fsys, top := setup(t, false)
		data := filepath.Join(top, "data")
		sub, err := fsys.Lookup(vfs.RootIno, "/mnt/data/sub", true)
		if err != nil {
			t.Fatal(err)
		}
		link := "/mnt/data/" + name
		fsys.Symlink(target, vfs.RootIno, link)
		fsys.Rename(vfs.RootIno, link, vfs.RootIno, "/mnt/data/moved")
		fsys.Link(vfs.RootIno, link, vfs.RootIno, "/mnt/data/hardlinked")
		fsys.Rename(vfs.RootIno, "/mnt/data/sub", vfs.RootIno, "/mnt/data/"+target)
		for _, base := range []vfs.Ino{vfs.RootIno, sub} {
			for _, q := range []string{p, p + "/secret.txt", link, link + "/secret.txt", "/mnt/data/moved/secret.txt"} {
				if b, err := readAll(fsys, base, q); err == nil && bytes.Contains(b, []byte("SECRET")) && !strings.Contains(q, "hard.txt") && !isHard(fsys, base, q) {
					t.Fatalf("read %q from %d: %q", q, base, b)
				}
			}
		}
		filepath.WalkDir(data, func(hp string, d os.DirEntry, err error) error {
			if err != nil || d.Type()&os.ModeSymlink == 0 {
				return nil
			}
			rel, _ := filepath.Rel(data, hp)
			if rel == "abs" || rel == "up" || rel == "in" {
				return nil // planted by setup
			}
			tg, _ := os.Readlink(hp)
			if filepath.IsAbs(tg) || !strings.HasPrefix(filepath.Join(filepath.Dir(hp), tg)+"/", data+"/") {
				t.Fatalf("the sandbox left %s -> %s on the host", rel, tg)
			}
			return nil
		})
		if b, _ := os.ReadFile(filepath.Join(top, "outside", "secret.txt")); string(b) != "SECRET\n" {
			t.Fatalf("outside/secret.txt is %q", b)
		}
	})
}

func readAll(fsys *vfs.FS, base vfs.Ino, p string) ([]byte, error) {
	h, err := fsys.Open(base, p, vfs.ORead, 0)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	var buf bytes.Buffer
	_, err = buf.ReadFrom(h)
	return buf.Bytes(), err
}

// isHard reports whether p names hard.txt, the host's own hard link to the
// secret, which the mount may show.
func isHard(fsys *vfs.FS, base vfs.Ino, p string) bool {
	a, err1 := fsys.Stat(base, p, true)
	b, err2 := fsys.Stat(vfs.RootIno, "/mnt/data/hard.txt", true)
	return err1 == nil && err2 == nil && a.Ino == b.Ino
}
