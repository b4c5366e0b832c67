package vfs

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// freshListing lists directory n from its entries, without the kept
// listing: the oracle for dirEntries.
func freshListing(n *inode) []DirEntry {
	list := []DirEntry{}
	for name, c := range n.entries {
		list = append(list, DirEntry{Name: name, Ino: c.ino, Type: c.typ})
	}
	slices.SortFunc(list, func(a, b DirEntry) int { return strings.Compare(a.Name, b.Name) })
	return list
}

// checkListings checks that every directory of f lists what it holds,
// through the public ReadDir and through an open handle.
func checkListings(t *testing.T, f *FS, step string) {
	t.Helper()
	for _, n := range f.inodes {
		if n.typ != TypeDir || n.nlink == 0 {
			continue
		}
		want := freshListing(n)
		f.mu.RLock()
		got := n.dirEntries()
		f.mu.RUnlock()
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("%s: directory %d lists %v, holds %v", step, n.ino, got, want)
		}
		pub, err := f.ReadDir(n.ino, ".")
		must(t, err)
		if !slices.Equal(pub, want) && !(len(pub) == 0 && len(want) == 0) {
			t.Fatalf("%s: ReadDir of directory %d = %v, holds %v", step, n.ino, pub, want)
		}
	}
}

// TestListingKept checks that a directory's sorted listing is made once
// and shared until the directory changes.
func TestListingKept(t *testing.T) {
	f := newFS(t)
	must(t, f.Mkdir(RootIno, "/d", 0o755))
	for _, n := range []string{"c", "a", "b"} {
		write(t, f, "/d/"+n, "")
	}
	h, err := f.Open(RootIno, "/d", ORead|ODirectory, 0)
	must(t, err)
	defer h.Close()
	one, err := h.ReadDir()
	must(t, err)
	two, err := h.ReadDir()
	must(t, err)
	if &one[0] != &two[0] {
		t.Error("an unchanged directory was sorted again")
	}
	// The public ReadDir hands out copies: changing one changes nothing.
	pub, err := f.ReadDir(RootIno, "/d")
	must(t, err)
	pub[0].Name = "zzz"
	if again, _ := h.ReadDir(); again[0].Name != "a" {
		t.Errorf("a caller's change to ReadDir's list reached the directory: %v", again)
	}
	// A change makes a new listing and leaves the old one as it was (an
	// fd_readdir in progress keeps reading it).
	write(t, f, "/d/0", "")
	three, err := h.ReadDir()
	must(t, err)
	if names := direntNames(three); names != "0,a,b,c" {
		t.Errorf("after a create: %s", names)
	}
	if names := direntNames(one); names != "a,b,c" {
		t.Errorf("a kept listing changed under its reader: %s", names)
	}
}

func direntNames(list []DirEntry) string {
	var names []string
	for _, e := range list {
		names = append(names, e.Name)
	}
	return strings.Join(names, ",")
}

// TestListingInvalidation applies random changes to a small tree, listing
// directories between them so that listings are kept, and checks after
// each change that every directory lists what it holds: create, mkdir,
// symlink, mkfifo, link, unlink, rmdir and rename (in a directory, across
// directories, over an existing name), clone and snapshot restore.
func TestListingInvalidation(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	f := newFS(t)
	dirs := []string{"/a", "/b", "/a/c"}
	for _, d := range dirs {
		must(t, f.Mkdir(RootIno, d, 0o755))
	}
	dirs = append(dirs, "/")
	name := func() string {
		return fmt.Sprintf("%s/%c", dirs[rng.Intn(len(dirs))], 'k'+rng.Intn(6))
	}
	for i := range 3000 {
		p, q := name(), name()
		var step string
		switch rng.Intn(9) {
		case 0, 1:
			step = "create " + p
			f.WriteFile(p, nil, 0o644)
		case 2:
			step = "mkdir " + p
			f.Mkdir(RootIno, p, 0o755)
		case 3:
			step = "symlink " + p
			f.Symlink("x", RootIno, p)
		case 4:
			step = "mkfifo " + p
			f.Mkfifo(RootIno, p, 0o644)
		case 5:
			step = "link " + p + " " + q
			f.Link(RootIno, p, RootIno, q)
		case 6:
			step = "unlink " + p
			f.Unlink(RootIno, p)
		case 7:
			step = "rmdir " + p
			f.Rmdir(RootIno, p)
		case 8:
			step = "rename " + p + " " + q
			f.Rename(RootIno, p, RootIno, q)
		}
		step = fmt.Sprintf("step %d: %s", i, step)
		checkListings(t, f, step)
		if i%500 == 499 {
			// A clone shares the kept listings; a change on either side
			// must not show on the other.
			g := f.Clone()
			write(t, g, "/a/clone-only", "")
			checkListings(t, f, step+", then a change in a clone")
			checkListings(t, g, step+", in the clone")
			h, err := DecodeSnapshot(f.AppendSnapshot(nil, nil), Options{}, nil)
			must(t, err)
			checkListings(t, h, step+", restored from a snapshot")
			write(t, h, "/b/restored-only", "")
			checkListings(t, h, step+", restored and changed")
			checkListings(t, f, step+", after a change to its restored copy")
		}
	}
}

// TestListingBound checks that a directory larger than maxListing lists
// correctly without keeping its listing.
func TestListingBound(t *testing.T) {
	f := newFS(t)
	must(t, f.Mkdir(RootIno, "/big", 0o755))
	for i := range maxListing + 1 {
		write(t, f, fmt.Sprintf("/big/%05d", i), "")
	}
	list, err := f.ReadDir(RootIno, "/big")
	must(t, err)
	if len(list) != maxListing+1 || list[0].Name != "00000" || list[maxListing].Name != fmt.Sprintf("%05d", maxListing) {
		t.Fatalf("ReadDir of a large directory: %d entries", len(list))
	}
	ino, err := f.Lookup(RootIno, "/big", false)
	must(t, err)
	if f.inodes[ino].listing.Load() != nil {
		t.Errorf("a directory of %d entries kept its listing (limit %d)", len(list), maxListing)
	}
	must(t, f.Unlink(RootIno, "/big/00000"))
	if _, err := f.ReadDir(RootIno, "/big"); err != nil || f.inodes[ino].listing.Load() == nil {
		t.Errorf("a directory of %d entries did not keep its listing (%v)", maxListing, err)
	}
	checkListings(t, f, "the large directory")
}
