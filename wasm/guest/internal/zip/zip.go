// Package zip is the zip and unzip commands (archive/zip) with Info-ZIP's
// common options and messages; unzip never writes outside the target
// directory ("zip slip").
package zip

import (
	"archive/zip"
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/klauspost/compress/flate"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const zipHelp = `Usage: zip [-options] zipfile list
  The default action is to add or replace zipfile entries from list.
  -r   recurse into directories     -j   junk (don't record) directory names
  -q   quiet operation              -0   store only
  -1   compress faster              -9   compress better
  -D   do not add directory entries -y   store symbolic links as the link
  -m   move into zipfile (delete OS files)
  -d   delete entries in zipfile
`

// ZipMain runs zip.
func ZipMain(env *tool.Env) int {
	var (
		recurse, quiet, junk, store, noDirs, symlinks, move, del bool
		operands                                                 []string
	)
	args := env.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--help" || a == "-h" {
			return env.Help(zipHelp)
		}
		if a == "--version" || a == "-v" && len(args) == 1 {
			return env.PrintVersion()
		}
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			for _, c := range a[1:] {
				switch c {
				case 'r', 'R':
					recurse = true
				case 'q':
					quiet = true
				case 'j':
					junk = true
				case '0':
					store = true
				case '1', '2', '3', '4', '5', '6', '7', '8', '9', 'v', 'X', 'o':
				case 'D':
					noDirs = true
				case 'y':
					symlinks = true
				case 'm':
					move = true
				case 'd':
					del = true
				default:
					fmt.Fprintf(env.Stderr, "zip error: Invalid command arguments (no such option: %c)\n", c)
					return 16
				}
			}
			continue
		}
		operands = append(operands, a)
	}
	if len(operands) == 0 {
		return env.Help(zipHelp)
	}
	archive := operands[0]
	if filepath.Ext(archive) == "" {
		archive += ".zip"
	}
	z := &zipper{env: env, recurse: recurse, quiet: quiet, junk: junk, store: store,
		noDirs: noDirs, symlinks: symlinks, index: map[string]int{}}
	if del {
		return z.delete(archive, operands[1:])
	}
	if len(operands) == 1 {
		fmt.Fprintf(env.Stderr, "\nzip error: Nothing to do! (%s)\n", archive)
		return 12
	}
	code := z.add(archive, operands[1:])
	if code == 0 && move {
		for i := len(z.added) - 1; i >= 0; i-- {
			os.Remove(z.added[i])
		}
	}
	return code
}

type zipper struct {
	env                                 *tool.Env
	recurse, quiet, junk, store, noDirs bool
	symlinks                            bool
	w                                   *zip.Writer
	index                               map[string]int
	todo                                []*entry
	added                               []string
	archiveAbs                          string
	missing                             int
}

// add creates or updates archive with the files named.
func (z *zipper) add(archive string, files []string) int {
	z.archiveAbs, _ = filepath.Abs(archive)
	tmp := archive + ".tmp-zip"
	out, err := os.Create(tmp)
	if err != nil {
		fmt.Fprintf(z.env.Stderr, "zip I/O error: %s\nzip error: Could not create output file (%s)\n", tool.Strerror(err), archive)
		return 15
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	z.w = zip.NewWriter(bw)
	z.w.RegisterCompressor(zip.Deflate, deflater)
	var old *zip.ReadCloser
	if _, err := os.Stat(archive); err == nil {
		if old, err = zip.OpenReader(archive); err != nil {
			out.Close()
			os.Remove(tmp)
			fmt.Fprintf(z.env.Stderr, "\nzip error: Zip file structure invalid (%s)\n", archive)
			return 3
		}
		defer old.Close()
	}
	for _, f := range files {
		z.collect(f)
	}
	// Entries named again are replaced where they stand; new ones follow
	// the old ones, as Info-ZIP orders them.
	if old != nil {
		for _, f := range old.File {
			if i, ok := z.index[f.Name]; ok {
				z.write(z.todo[i])
				z.todo[i].done = true
				continue
			}
			if err := z.w.Copy(f); err != nil {
				break
			}
		}
	}
	for _, e := range z.todo {
		if !e.done {
			z.write(e)
		}
	}
	if len(z.added) == 0 && old == nil {
		out.Close()
		os.Remove(tmp)
		fmt.Fprintf(z.env.Out(), "\nzip error: Nothing to do! (%s)\n", archive)
		return 12
	}
	err = z.w.Close()
	if err == nil {
		err = bw.Flush()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		fmt.Fprintf(z.env.Stderr, "zip I/O error: %s\nzip error: Output file write failure (write error on zip file)\n", tool.Strerror(err))
		return 14
	}
	if err := os.Rename(tmp, archive); err != nil {
		os.Remove(tmp)
		fmt.Fprintf(z.env.Stderr, "zip error: %s\n", tool.Strerror(err))
		return 15
	}
	if z.missing > 0 {
		return 18
	}
	return 0
}

// entryName is the name a path is stored under: relative, no "./" or
// "../" prefixes, directories ending in "/".
func (z *zipper) entryName(p string, dir bool) string {
	n := filepath.ToSlash(p)
	if z.junk {
		n = path.Base(n)
	}
	for {
		switch {
		case strings.HasPrefix(n, "/"):
			n = n[1:]
			continue
		case strings.HasPrefix(n, "./"):
			n = n[2:]
			continue
		case strings.HasPrefix(n, "../"):
			n = n[3:]
			continue
		}
		break
	}
	if dir && n != "" && !strings.HasSuffix(n, "/") {
		n += "/"
	}
	return n
}

// entry is a file to store.
type entry struct {
	path, name string
	fi         fs.FileInfo
	done       bool
}

// collect lists p (and what is below it with -r) for storing.
func (z *zipper) collect(p string) {
	fi, err := os.Lstat(p)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 && !z.symlinks {
		fi, err = os.Stat(p)
	}
	if err != nil {
		fmt.Fprintf(z.env.Stderr, "\tzip warning: name not matched: %s\n", p)
		z.missing++
		return
	}
	if fi.Mode().IsRegular() {
		if abs, _ := filepath.Abs(p); abs == z.archiveAbs {
			return
		}
	}
	name := z.entryName(p, fi.IsDir())
	if fi.IsDir() && (z.junk || z.noDirs) {
		name = ""
	}
	if name != "" {
		if _, dup := z.index[name]; !dup {
			z.index[name] = len(z.todo)
			z.todo = append(z.todo, &entry{path: p, name: name, fi: fi})
		}
	}
	if fi.IsDir() && z.recurse {
		entries, err := os.ReadDir(p)
		if err != nil {
			fmt.Fprintf(z.env.Stderr, "\tzip warning: could not open directory %s\n", p)
			return
		}
		for _, e := range entries {
			z.collect(filepath.Join(p, e.Name()))
		}
	}
}

func (z *zipper) write(e *entry) {
	p, name, fi := e.path, e.name, e.fi
	h, err := zip.FileInfoHeader(fi)
	if err != nil {
		return
	}
	h.Name = name
	h.Modified = fi.ModTime().Truncate(time.Second)
	if perm, err := fsx.Perm(p, fi.Mode()&fs.ModeSymlink == 0); err == nil {
		h.SetMode(fi.Mode()&^fs.ModePerm | perm&fs.ModePerm)
	}
	var data io.Reader
	switch {
	case fi.IsDir():
		h.Method = zip.Store
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(p)
		if err != nil {
			return
		}
		h.Method = zip.Store
		data = strings.NewReader(target)
	default:
		f, err := os.Open(p)
		if err != nil {
			fmt.Fprintf(z.env.Stderr, "\tzip warning: could not open for reading: %s\n", p)
			z.missing++
			return
		}
		defer f.Close()
		data = f
		h.Method = zip.Deflate
		if z.store || fi.Size() == 0 {
			h.Method = zip.Store
		}
	}
	w, err := z.w.CreateHeader(h)
	if err != nil {
		return
	}
	var n int64
	if data != nil {
		n, _ = io.Copy(w, data)
	}
	z.added = append(z.added, p)
	if !z.quiet {
		// Sizes are only known once the entry is finished; report the
		// method as Info-ZIP does.
		if h.Method == zip.Store || n == 0 {
			fmt.Fprintf(z.env.Out(), "  adding: %s (stored 0%%)\n", name)
		} else {
			fmt.Fprintf(z.env.Out(), "  adding: %s (deflated)\n", name)
		}
	}
}

// delete removes the named entries from archive.
func (z *zipper) delete(archive string, names []string) int {
	old, err := zip.OpenReader(archive)
	if err != nil {
		fmt.Fprintf(z.env.Stderr, "\nzip error: Zip file structure invalid (%s)\n", archive)
		return 3
	}
	defer old.Close()
	tmp := archive + ".tmp-zip"
	out, err := os.Create(tmp)
	if err != nil {
		return 15
	}
	w := zip.NewWriter(out)
	deleted := 0
	for _, f := range old.File {
		match := false
		for _, n := range names {
			if ok, _ := path.Match(n, f.Name); ok || f.Name == n || strings.HasPrefix(f.Name, strings.TrimSuffix(n, "/")+"/") {
				match = true
			}
		}
		if match {
			deleted++
			if !z.quiet {
				fmt.Fprintf(z.env.Out(), "deleting: %s\n", f.Name)
			}
			continue
		}
		w.Copy(f)
	}
	w.Close()
	out.Close()
	if deleted == 0 {
		os.Remove(tmp)
		fmt.Fprintf(z.env.Stderr, "\nzip error: Nothing to do! (%s)\n", archive)
		return 12
	}
	if err := os.Rename(tmp, archive); err != nil {
		return 15
	}
	return 0
}

// deflater compresses zip entries with github.com/klauspost/compress's
// deflate at Info-ZIP's default level: about twice as fast as
// compress/flate's, and as any deflate stream, readable by every unzip.
func deflater(w io.Writer) (io.WriteCloser, error) {
	return flate.NewWriter(w, flate.DefaultCompression)
}
