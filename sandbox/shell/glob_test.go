package shell

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// globMemNode is a file, directory or symbolic link of globMemFS.
type globMemNode struct {
	children map[string]*globMemNode // non-nil for a directory
	link     string                  // target, for a symbolic link
}

// globMemFS is an in-memory globFS for tests.
type globMemFS struct {
	root *globMemNode
	cwd  string // absolute working directory
	// listDots makes globReadDir report "." and "..", as readdir does.
	listDots bool
	// readErr, if set, is returned by globReadDir.
	readErr error
}

// globNewMemFS builds a filesystem from a spec: one entry per line (or
// space-separated), "name/" for a directory, "name -> target" for a
// symbolic link, anything else for a file; names are relative to cwd.
func globNewMemFS(cwd string, spec []string) *globMemFS {
	fs := &globMemFS{root: &globMemNode{children: map[string]*globMemNode{}}, cwd: cwd}
	fs.mkdirAll(cwd)
	for _, e := range spec {
		name, target, isLink := strings.Cut(e, " -> ")
		full := cwd + "/" + strings.TrimSuffix(name, "/")
		switch {
		case isLink:
			fs.add(full, &globMemNode{link: target})
		case strings.HasSuffix(name, "/"):
			fs.mkdirAll(full)
		default:
			fs.add(full, &globMemNode{})
		}
	}
	return fs
}

func (fs *globMemFS) mkdirAll(abs string) {
	n := fs.root
	for _, c := range strings.Split(abs, "/") {
		if c == "" {
			continue
		}
		next := n.children[c]
		if next == nil {
			next = &globMemNode{children: map[string]*globMemNode{}}
			n.children[c] = next
		}
		n = next
	}
}

func (fs *globMemFS) add(abs string, node *globMemNode) {
	dir, name := filepath.Split(abs)
	fs.mkdirAll(dir)
	n := fs.root
	for _, c := range strings.Split(dir, "/") {
		if c != "" {
			n = n.children[c]
		}
	}
	n.children[name] = node
}

// resolve looks path up, following symbolic links on the way and, if
// follow is set, a final one. Like the kernel, it resolves ".." from
// where a symbolic link leads, not from where the link is.
func (fs *globMemFS) resolve(path string, follow bool) *globMemNode {
	if !strings.HasPrefix(path, "/") {
		path = fs.cwd + "/" + path
	}
	if strings.HasSuffix(path, "/") {
		follow = true
	}
	n, _ := fs.walk(nil, strings.Split(path, "/"), follow, 0)
	return n
}

// walk resolves comps starting from the directory at the end of the
// chain dirs (the root if dirs is empty) and returns the node and the
// chain of directories leading to it.
func (fs *globMemFS) walk(dirs []*globMemNode, comps []string, follow bool, depth int) (*globMemNode, []*globMemNode) {
	if depth > 40 {
		return nil, nil
	}
	cur := func() *globMemNode {
		if len(dirs) == 0 {
			return fs.root
		}
		return dirs[len(dirs)-1]
	}
	dirs = append([]*globMemNode(nil), dirs...)
	var n *globMemNode = cur()
	for i, c := range comps {
		switch c {
		case "", ".":
			continue
		case "..":
			if len(dirs) > 0 {
				dirs = dirs[:len(dirs)-1]
			}
			n = cur()
			continue
		}
		if n.children == nil {
			return nil, nil
		}
		child := n.children[c]
		if child == nil {
			return nil, nil
		}
		last := true
		for _, rest := range comps[i+1:] {
			if rest != "" {
				last = false
			}
		}
		if child.link != "" && (!last || follow) {
			from := dirs
			if strings.HasPrefix(child.link, "/") {
				from = nil
			}
			var chain []*globMemNode
			child, chain = fs.walk(from, strings.Split(child.link, "/"), true, depth+1)
			if child == nil {
				return nil, nil
			}
			dirs = chain
		} else {
			dirs = append(dirs, child)
		}
		n = child
	}
	return n, dirs
}

func (fs *globMemFS) globReadDir(dir string) ([]globEntry, error) {
	if fs.readErr != nil {
		return nil, fs.readErr
	}
	n := fs.resolve(dir, true)
	if n == nil || n.children == nil {
		return nil, errors.New("not a directory")
	}
	var out []globEntry
	if fs.listDots {
		out = append(out, globEntry{Name: ".", IsDir: true}, globEntry{Name: "..", IsDir: true})
	}
	for name, c := range n.children {
		out = append(out, globEntry{Name: name, IsDir: c.children != nil, IsSymlink: c.link != ""})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (fs *globMemFS) globLstat(path string) (isDir, isSymlink, exists bool) {
	n := fs.resolve(path, false)
	if n == nil {
		return false, false, false
	}
	if n.link != "" {
		t := fs.resolve(path, true)
		return t != nil && t.children != nil, true, true
	}
	return n.children != nil, false, true
}

// globTree is the tree of the glob tests.
func globTree() []string {
	return []string{
		"a.txt", "b.txt", "c.md", "ab", "abc", "abd", "A.TXT", "Makefile",
		".hidden", ".hd/", ".hd/x", ".hd/.y",
		"d/", "d/c.txt", "d/.h", "d/e/", "d/e/f.txt", "d/e/g/", "d/e/g/h.txt",
		"dir2/", "dir2/c.txt", "dir2/sub/", "dir2/sub/c.txt", "dir2/sub/.dot",
		"empty/", "x*y", "[ab]", "a b", "é.txt", "-n", "back\\slash",
		"link -> d", "flink -> a.txt", "dangling -> nowhere", "d/up -> ..",
		"q?", "a(b)", "f.tar.gz", "\xff.bin", "caf\xc3\xa9\xff",
		"x\\/", "x\\/f.txt",
	}
}

// globBashWord converts a word in bash syntax (quotes and backslashes, no
// expansions) to the escaped pattern the shell hands globExpand.
func globBashWord(word string) string {
	var b strings.Builder
	for i := 0; i < len(word); i++ {
		switch c := word[i]; c {
		case '\\':
			i++
			b.WriteByte('\\')
			b.WriteByte(word[i])
		case '\'', '"':
			for i++; word[i] != c; i++ {
				if c == '"' && word[i] == '\\' && strings.IndexByte("\\\"$`", word[i+1]) >= 0 {
					i++
				}
				b.WriteByte('\\')
				b.WriteByte(word[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// globCase is one pattern word and set of options.
type globCase struct {
	word    string // bash syntax; @T@ stands for the tree's absolute path
	opts    globOptions
	ignore  string // GLOBIGNORE, unsplit
	useDots bool   // the memory filesystem lists "." and ".."
}

func (c globCase) String() string {
	var o []string
	for _, f := range []struct {
		on   bool
		name string
	}{{c.opts.Dotglob, "dotglob"}, {c.opts.Nocaseglob, "nocaseglob"}, {c.opts.Extglob, "extglob"},
		{c.opts.Globstar, "globstar"}, {!c.opts.Globskipdots, "noglobskipdots"}} {
		if f.on {
			o = append(o, f.name)
		}
	}
	if c.ignore != "" {
		o = append(o, "GLOBIGNORE="+c.ignore)
	}
	return fmt.Sprintf("%s %v", c.word, o)
}

// globCases returns the differential test's cases.
func globCases() []globCase {
	words := []string{
		`*`, `.*`, `*.txt`, `*.TXT`, `?`, `??`, `???`, `a*`, `a?`, `a??`, `[ab]*`,
		`[!a]*`, `[^a]*`, `[[:upper:]]*`, `[[:alpha:]]*`, `*[0-9]*`, `\**`,
		`'*'*`, `"*"y`, `x\*y`, `x'*'y`, `\[ab]`, `'[ab]'`, `[[]ab]`, `[ab]`,
		`a\ b`, `"a b"`, `a" "*`, `é*`, `?.txt`, `-*`, `back*`, `back\\*`, `q\?`,
		`q?`, `*\?`, `a\(b\)`, `a\(*`, `*.tar.*`, `f.*.gz`, `*.*`, `*/`, `*/*`,
		`*/*.txt`, `*/.*`, `d/*`, `d/*/`, `d/*/*`, `d/*/*.txt`, `*/*/`, `*/*/*`,
		`d/e/*`, `d/e/*/`, `d/e/g/*`, `d/.*`, `.*/`, `.*/*`, `.h*/*`, `.h?/.*`,
		`./*`, `./*.txt`, `./.*`, `../*`, `.././*`, `./d/*`, `d/../*.md`,
		`d//*`, `*//c.txt`, `d/./*`, `./*/`, `d*/c.txt`, `*/c.txt`, `*/sub/*`,
		`*/*/c.txt`, `dir2/*/c.txt`, `link/*`, `link/*/`, `l*/*`, `*link`,
		`dangling*`, `dangl?ng`, `flink*`, `empty/*`, `empty/`, `nosuch/*`,
		`nosuch*`, `a.txt/*`, `*.txt/`, `d/`, `c.md`, `'c.md'`, `c[.]md`, `c.m?`,
		`[a-c].*`, `[c-a]*`, `[]ab]*`, `[!.]*`, `[.]*`, `.`, `..`, `.?`, `..*`,
		`.[!.]*`, `@T@/*.md`, `@T@/d/*`, `@T@/*/c.txt`, `@T@/.h*`, `@T@/d/e/*/`,
		`**`, `**/`, `**/*.txt`, `**/c.txt`, `d/**`, `d/**/`, `d/**/*.txt`,
		`**/e/*`, `*/**`, `**/**`, `**/**/*.txt`, `d/**/**`, `d/**/**/*.txt`,
		`**/.*`, `**/*/`, `link/**`, `**/sub`, `dir2/**/c.txt`, `**.txt`,
		`a**`, `.hd/**`, `@T@/**/*.txt`, `./**/*.md`, `x/**`, `*/**/`,
		`d[/]*`, `[a/b]*`, `d\/*`, `"d/"*`, `d'/'*`, `d/**/e`, `**/g/`,
		`**/*/`, `*/..`, `*/.`, `d/..`, `.*/..`, `d/*/..`, `*/../*.md`, `[A-Z]*`,
		`[[:lower:]]*`, `*[[:space:]]*`, `*[[:punct:]]*`, `d/e/g/**`, `**/h*`,
		`**/.h*`, `**/.*/`, `*/*/*/`, `d/up/*`, `d/up/d/*`, `*/up/*.md`,
		`***`, `***/*.txt`, `*/***`, `.hd/*`, `.hd/.*`, `[.]hd/*`, `?hd/*`,
		`**//*.txt`, `d/**//*.txt`, `**/**/`, `dir2/**/`, `dir2/**/**`,
		`dir2/sub/**`, `**/sub/**`, `**/c.*`, `@T@/**`, `@T@/**/`, `*.[tm]*`,
		`*.bin`, `?.bin`, `??.bin`, `caf*`, `caf?`, `caf??`, `caf???`, `*é*`,
		`[!a-z].bin`, `x\\/*`, `'x\'/*`, `x\\/f*`, `x?/*`, `"x\\"/*.txt`,
	}
	extWords := []string{
		`@(a|b).txt`, `!(*.txt)`, `!(a*)`, `*.@(txt|md)`, `+(a|b)`, `?(a)b*`,
		`*(a|b|c)`, `@(d|dir2)/*`, `!(d)/*`, `@(.*)`, `!(.*)`, `@(*)`, `.@(h*)`,
		`!(x)`, `*(.)*`, `@(.hidden|a.txt)`, `!(*.*)`, `+([a-z])`, `@(a/b)`,
		`d/@(c|e)*`, `@(a|.hd)/*`, `*!(t)`, `?(.)h*`, `@(|.)*`, `!(@(a|b)*)`,
		`@(*.txt|.h*)`, `!(a.txt|b.txt|*.md)`, `*.!(txt)`, `@(A|a)*`, `@()`,
		`@(d|dir2)/@(c|e)*`, `!(d)/**`, `@(d/e|dir2)/*`, `d/!(e)`, `*/!(*.txt)`,
		`+(d|e)/*`, `@(d|link)/*/`, `!(.)*`, `.!(.)`, `.!(hd)`, `?(.)*`,
		`*(d|e)*`, `@(*|.*)`, `!(*)`, `!()`, `@(.|..)`, `@(..|d)/*`,
	}
	type optset struct {
		o      globOptions
		ignore string
	}
	base := globOptions{Globskipdots: true}
	with := func(f func(o *globOptions)) globOptions {
		o := base
		f(&o)
		return o
	}
	sets := []optset{
		{o: base},
		{o: with(func(o *globOptions) { o.Dotglob = true })},
		{o: with(func(o *globOptions) { o.Globskipdots = false })},
		{o: with(func(o *globOptions) { o.Dotglob, o.Globskipdots = true, false })},
		{o: with(func(o *globOptions) { o.Nocaseglob = true })},
		{o: with(func(o *globOptions) { o.Globstar = true })},
		{o: with(func(o *globOptions) { o.Globstar, o.Dotglob = true, true })},
		{o: base, ignore: "*.txt:d"},
		{o: with(func(o *globOptions) { o.Globstar = true }), ignore: "d/*:*/c.txt:.hd"},
		{o: with(func(o *globOptions) { o.Nocaseglob, o.Globstar = true, true })},
		{o: with(func(o *globOptions) { o.Globskipdots = false }), ignore: "a*"},
	}
	var cases []globCase
	for i, s := range sets {
		for _, w := range words {
			cases = append(cases, globCase{word: w, opts: s.o, ignore: s.ignore, useDots: i%2 == 1})
		}
	}
	extSets := []optset{
		{o: with(func(o *globOptions) { o.Extglob = true })},
		{o: with(func(o *globOptions) { o.Extglob, o.Dotglob = true, true })},
		{o: with(func(o *globOptions) { o.Extglob, o.Globskipdots = true, false })},
		{o: with(func(o *globOptions) { o.Extglob, o.Dotglob, o.Globskipdots = true, true, false })},
		{o: with(func(o *globOptions) { o.Extglob, o.Nocaseglob = true, true })},
		{o: with(func(o *globOptions) { o.Extglob = true }), ignore: "@(a|b)*"},
	}
	for i, s := range extSets {
		for _, w := range append(extWords, words...) {
			cases = append(cases, globCase{word: w, opts: s.o, ignore: s.ignore, useDots: i%2 == 0})
		}
	}
	return cases
}

func TestGlobDifferential(t *testing.T) {
	globCompare(t, globCases())
}

// TestGlobRandom compares random patterns built from path components with
// bash. The generator is seeded, so failures are reproducible.
func TestGlobRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	comps := []string{"*", "?", "**", ".*", "d", "e", "dir2", "sub", "[a-d]*",
		"*.txt", ".", "c*", "link", "?*", "*[!t]", ".h*", "g", "up", "[.]*", "..", ""}
	extComps := []string{"@(d|e)", "!(x)", "!(*.txt)", "+(d|e|g)", "?(.)*", "*(d)", "@(.hd|d)"}
	seed := uint64(3)
	if v := os.Getenv("GLOB_SEED"); v != "" {
		fmt.Sscan(v, &seed)
	}
	rng := rand.New(rand.NewPCG(seed, 4))
	var cases []globCase
	for range 2000 {
		var o globOptions
		o.Dotglob = rng.IntN(3) == 0
		o.Globstar = rng.IntN(2) == 0
		o.Extglob = rng.IntN(2) == 0
		o.Nocaseglob = rng.IntN(6) == 0
		o.Globskipdots = rng.IntN(3) != 0
		pool := comps
		if o.Extglob {
			pool = append(append([]string(nil), comps...), extComps...)
		}
		// The first component is never empty: that would make the
		// pattern absolute.
		parts := []string{comps[rng.IntN(len(comps)-1)]}
		for range rng.IntN(3) {
			parts = append(parts, pool[rng.IntN(len(pool))])
		}
		if parts[0] == "" {
			continue
		}
		word := strings.Join(parts, "/")
		switch rng.IntN(6) {
		case 0:
			word = "./" + word
		case 1:
			word = "@T@/" + word
		case 2:
			word += "/"
		}
		cases = append(cases, globCase{word: word, opts: o, useDots: rng.IntN(2) == 0})
	}
	globCompare(t, cases)
}

// globCompare expands the cases with bash, in a temporary directory
// holding globTree, and with globExpand, on the same tree in memory, and
// reports every difference.
func globCompare(t *testing.T, cases []globCase) {
	bash := patternBash(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// Patterns of up to four components like "../" or ".*/" stay within
	// the temporary directory.
	dir = filepath.Join(dir, "x1", "x2", "x3", "x4")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	spec := globTree()
	for _, e := range spec {
		name, target, isLink := strings.Cut(e, " -> ")
		p := filepath.Join(dir, name)
		var err error
		switch {
		case isLink:
			err = os.Symlink(target, p)
		case strings.HasSuffix(name, "/"):
			err = os.MkdirAll(p, 0o755)
		default:
			err = os.WriteFile(p, nil, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var script strings.Builder
	for _, c := range cases {
		script.WriteString("shopt -u dotglob nocaseglob extglob globstar; shopt -s nullglob globskipdots; unset GLOBIGNORE\n")
		var on []string
		if c.opts.Dotglob {
			on = append(on, "dotglob")
		}
		if c.opts.Nocaseglob {
			on = append(on, "nocaseglob")
		}
		if c.opts.Extglob {
			on = append(on, "extglob")
		}
		if c.opts.Globstar {
			on = append(on, "globstar")
		}
		if len(on) > 0 {
			fmt.Fprintf(&script, "shopt -s %s\n", strings.Join(on, " "))
		}
		if !c.opts.Globskipdots {
			script.WriteString("shopt -u globskipdots\n")
		}
		if c.ignore != "" {
			fmt.Fprintf(&script, "GLOBIGNORE=%s\n", patternQuote(c.ignore))
		}
		word := strings.ReplaceAll(c.word, "@T@", dir)
		fmt.Fprintf(&script, "set -- %s; (( $# )) && printf '%%s\\0' \"$@\"; printf '\\1\\0'\n", word)
	}
	out := patternBashRun(t, bash, dir, script.String())
	groups := strings.Split(strings.TrimSuffix(string(out), "\x01\x00"), "\x01\x00")
	if len(groups) != len(cases) {
		t.Fatalf("bash printed %d results for %d cases", len(groups), len(cases))
	}
	bad, nonEmpty := 0, 0
	for i, c := range cases {
		var want []string
		if groups[i] != "" {
			want = strings.Split(strings.TrimSuffix(groups[i], "\x00"), "\x00")
			nonEmpty++
		}
		fsys := globNewMemFS(dir, spec)
		fsys.listDots = c.useDots
		opts := c.opts
		if c.ignore != "" {
			opts.Ignore = strings.Split(c.ignore, ":")
		}
		pat := globBashWord(strings.ReplaceAll(c.word, "@T@", dir))
		got, err := globExpand(pat, opts, fsys)
		if err != nil {
			t.Errorf("%v: %v", c, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			bad++
			if bad <= 40 {
				t.Errorf("%v (pattern %q):\n got %q\nwant %q", c, pat, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d cases differ from bash", bad, len(cases))
	}
	t.Logf("%d glob cases compared with bash, %d with matches", len(cases), nonEmpty)
}

func TestGlobExpand(t *testing.T) {
	fsys := globNewMemFS("/home/u", []string{
		"a.txt", "b.txt", ".rc", "src/", "src/main.go", "src/util/", "src/util/x.go",
		"src/link -> util", "lit*", "bin/",
	})
	tests := []struct {
		pat  string
		opts globOptions
		want []string
	}{
		{"*.txt", globOptions{}, []string{"a.txt", "b.txt"}},
		{"*", globOptions{}, []string{"a.txt", "b.txt", "bin", "lit*", "src"}},
		{"*", globOptions{Dotglob: true}, []string{".rc", "a.txt", "b.txt", "bin", "lit*", "src"}},
		{".*", globOptions{}, []string{".", "..", ".rc"}},
		{".*", globOptions{Globskipdots: true}, []string{".rc"}},
		{"*/", globOptions{}, []string{"bin/", "src/"}},
		{"src/*", globOptions{}, []string{"src/link", "src/main.go", "src/util"}},
		{"**/*.go", globOptions{Globstar: true}, []string{"src/main.go", "src/util/x.go"}},
		{"**", globOptions{Globstar: true}, []string{"a.txt", "b.txt", "bin", "lit*", "src", "src/link", "src/main.go", "src/util", "src/util/x.go"}},
		{"/home/u/*.txt", globOptions{}, []string{"/home/u/a.txt", "/home/u/b.txt"}},
		{`lit\*`, globOptions{}, []string{"lit*"}},  // no pattern characters: the word itself
		{`nope`, globOptions{}, []string{"nope"}},   // likewise, even if absent
		{`\**`, globOptions{}, nil},                 // a pattern that matches nothing
		{`lit\**`, globOptions{}, []string{"lit*"}}, // escaped star, then a real one
		{"*.TXT", globOptions{Nocaseglob: true}, []string{"a.txt", "b.txt"}},
		{"!(*.txt)", globOptions{Extglob: true}, []string{"bin", "lit*", "src"}},
		{"*", globOptions{Ignore: []string{"*.txt", "src"}}, []string{".rc", "bin", "lit*"}},
	}
	for _, tc := range tests {
		got, err := globExpand(tc.pat, tc.opts, fsys)
		if err != nil {
			t.Errorf("%q: %v", tc.pat, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("globExpand(%q, %+v) = %q, want %q", tc.pat, tc.opts, got, tc.want)
		}
	}
}

func TestGlobAbort(t *testing.T) {
	fsys := globNewMemFS("/", []string{"a", "b"})
	fsys.readErr = fmt.Errorf("budget: %w", context.DeadlineExceeded)
	if _, err := globExpand("*", globOptions{}, fsys); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want DeadlineExceeded", err)
	}
	fsys.readErr = errors.New("permission denied")
	if got, err := globExpand("*", globOptions{}, fsys); got != nil || err != nil {
		t.Errorf("got %q, %v; want nil, nil", got, err)
	}
}

func TestGlobHasMeta(t *testing.T) {
	tests := map[string]bool{
		"abc": false, "a*": true, "a?": true, `a\*`: false, "[ab]": true,
		"[a": false, "a]": false, "[a/b]": false, "@(x)": true, "!(x)": true,
		"+(x)": true, "a/(x)": true, `x\`: false, `[a\]`: false,
	}
	for pat, want := range tests {
		if got := globHasMeta(pat); got != want {
			t.Errorf("globHasMeta(%q) = %v, want %v", pat, got, want)
		}
	}
}
