package find

import (
	"io/fs"
	"slices"
	"strings"
)

// dirent is one entry of a directory: its name and its type as the
// directory gives it (fs.ModeIrregular when the directory does not say).
type dirent struct {
	name string
	typ  fs.FileMode
}

// readDir returns the entries of dir, without "." and "..", in name order
// (the VFS order; natively the order os.ReadDir gives). Find reads every
// directory of a tree, so this costs no allocation per entry where it can
// (see readDirents).
func readDir(dir string) ([]dirent, error) {
	ents, err := readDirents(dir)
	if !slices.IsSortedFunc(ents, compareDirents) {
		slices.SortFunc(ents, compareDirents)
	}
	return ents, err
}

func compareDirents(a, b dirent) int { return strings.Compare(a.name, b.name) }

// children makes the files for the entries of the directory parent, all in
// one allocation, their paths in another.
func (fd *finder) children(parent *file, ents []dirent) []file {
	sep := "/"
	if strings.HasSuffix(parent.path, "/") {
		sep = ""
	}
	n := 0
	for _, e := range ents {
		n += len(parent.path) + len(sep) + len(e.name)
	}
	var b strings.Builder
	b.Grow(n)
	for _, e := range ents {
		b.WriteString(parent.path)
		b.WriteString(sep)
		b.WriteString(e.name)
	}
	paths := b.String()
	kids := make([]file, len(ents))
	at := 0
	for i, e := range ents {
		end := at + len(parent.path) + len(sep) + len(e.name)
		p := paths[at:end]
		kids[i] = file{path: p, base: p[len(p)-len(e.name):], start: parent.start, depth: parent.depth + 1, typ: e.typ, f: fd}
		at = end
	}
	return kids
}
