package find

import (
	"io/fs"
	"slices"
	"strings"
	"unsafe"
)

// dirent is one entry of a directory: its name and its type as the
// directory gives it (fs.ModeIrregular when the directory does not say).
type dirent struct {
	name string
	typ  fs.FileMode
}

// listing holds one directory of the walk: its entries and the files made
// of them. The walk keeps one listing for each depth and reuses it for the
// next directory at that depth, so that walking a tree allocates nothing
// per directory once the listings are large enough: in the sandbox a heap
// that grows past the image's free room grows the process's memory, which
// the JS engine then cannot recycle (each fresh page costs a fault).
//
// The names, and the paths of the files, are strings over the listing's
// byte buffers: they hold while find is inside the directory and are
// overwritten by the next directory at the same depth. Whatever keeps a
// file's path or name longer (-exec ... + batches) must clone it.
type listing struct {
	names []byte   // the entries' names, back to back
	ends  []int    // where each entry's name ends in names
	ents  []dirent // the entries, in name order
	paths []byte   // the files' paths, back to back
	kids  []file   // the files of the entries
}

// listingAt returns the walk's listing for directories at depth.
func (fd *finder) listingAt(depth int) *listing {
	for len(fd.listings) <= depth {
		fd.listings = append(fd.listings, &listing{})
	}
	return fd.listings[depth]
}

// readDir reads the entries of dir, without "." and "..", into l.ents in
// name order (the VFS order; natively the order os.ReadDir gives). On an
// error l.ents holds what was read before it.
func readDir(dir string, l *listing) error {
	l.names, l.ends, l.ents = l.names[:0], l.ends[:0], l.ents[:0]
	err := readDirents(dir, l)
	if !slices.IsSortedFunc(l.ents, compareDirents) {
		slices.SortFunc(l.ents, compareDirents)
	}
	return err
}

// bytesString returns a string sharing b's bytes: b must not change while
// the string is in use.
func bytesString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func compareDirents(a, b dirent) int { return strings.Compare(a.name, b.name) }

// children makes the files for the entries of the directory parent in l
// (whose entries readDir read), their paths in l.paths.
func (fd *finder) children(parent *file, l *listing) []file {
	sep := "/"
	if strings.HasSuffix(parent.path, "/") {
		sep = ""
	}
	n := 0
	for _, e := range l.ents {
		n += len(parent.path) + len(sep) + len(e.name)
	}
	b := slices.Grow(l.paths[:0], n)
	for _, e := range l.ents {
		b = append(b, parent.path...)
		b = append(b, sep...)
		b = append(b, e.name...)
	}
	l.paths = b
	paths := bytesString(b)
	l.kids = slices.Grow(l.kids[:0], len(l.ents))[:len(l.ents)]
	at := 0
	for i, e := range l.ents {
		end := at + len(parent.path) + len(sep) + len(e.name)
		p := paths[at:end]
		l.kids[i] = file{path: p, base: p[len(p)-len(e.name):], start: parent.start, depth: parent.depth + 1, typ: e.typ, f: fd}
		at = end
	}
	return l.kids
}
