package shell

import (
	"context"
	"errors"
	"sort"
	"strings"
)

// This file implements pathname expansion as bash 5.2 does it
// (lib/glob/glob.c and pathexp.c). The structure follows bash's
// glob_filename closely, because many observable details (how "**"
// combines with other components, which slashes survive into the
// results, when "." and ".." are produced) fall out of that structure.

// globOptions are the shell options that affect pathname expansion.
type globOptions struct {
	// Dotglob lets wildcards match a leading '.' (never "." or "..").
	Dotglob bool
	// Nullglob and Failglob are not consulted by globExpand; they are here
	// so the caller has all the options in one place. globExpand returns
	// nil when nothing matches and the caller applies them.
	Nullglob, Failglob bool
	// Nocaseglob matches without regard to case.
	Nocaseglob bool
	// Extglob enables ?(..) *(..) +(..) @(..) !(..).
	Extglob bool
	// Globstar makes "**" as a whole component match any number of
	// directory levels.
	Globstar bool
	// Globskipdots (shopt globskipdots, on by default in bash 5.2) keeps
	// "." and ".." out of the results whatever the pattern. When it is
	// off they match only components that start with a literal '.'.
	Globskipdots bool
	// Ignore holds the GLOBIGNORE patterns, already split on ':' (bash
	// does not split inside bracket expressions or extglob groups). A
	// non-empty list also implies Dotglob and removes names whose last
	// component is "." or "..".
	Ignore []string
}

// globFS is the filesystem view pathname expansion needs: the sandbox VFS,
// resolved against the shell's working directory by the implementation.
// Paths are passed as bash builds them: "." for the working directory,
// and possibly with a trailing or doubled slash ("a/", "a//b").
type globFS interface {
	// globReadDir lists the directory dir, following symbolic links.
	// The entries "." and ".." may be included or not. A
	// context.Canceled or context.DeadlineExceeded error aborts the
	// expansion; any other error means the directory cannot be read,
	// which bash silently skips.
	globReadDir(dir string) ([]globEntry, error)
	// globLstat reports whether path exists without following a final
	// symbolic link (exists), whether it is a symbolic link (isSymlink),
	// and whether it is, or is a symbolic link that resolves to, a
	// directory (isDir).
	globLstat(path string) (isDir, isSymlink, exists bool)
}

// globEntry is a directory entry. IsDir and IsSymlink describe the entry
// itself, without following a symbolic link (like a dirent's type).
type globEntry struct {
	Name      string
	IsDir     bool
	IsSymlink bool
}

// globExpand expands the pattern word pat, in which a backslash escapes
// the next character (quoted parts of the word arrive escaped). It returns
// the matching pathnames sorted as bash sorts them in the C.UTF-8 locale
// (byte order), or nil if nothing matched; the caller then keeps the
// word, drops it (nullglob) or fails (failglob). A word that bash would
// not glob at all because it has no unquoted pattern characters comes
// back as its one literal field, whether or not such a file exists. The
// error is non-nil only when the filesystem aborts the expansion.
func globExpand(pat string, opts globOptions, fsys globFS) ([]string, error) {
	pat = globUnescapeSlashes(pat)
	if !globHasMeta(pat) {
		return []string{patternUnescape(pat)}, nil
	}
	g := &globber{opts: opts, fsys: fsys}
	if len(opts.Ignore) > 0 {
		g.opts.Dotglob = true
	}
	g.mode = patternPathname
	if g.opts.Dotglob {
		g.mode |= patternDotglob
	}
	if opts.Nocaseglob {
		g.mode |= patternNoCase
	}
	if opts.Extglob {
		g.mode |= patternExtglob
	}
	var flags globFlags
	if opts.Globstar {
		flags |= globFlagGlobstar
	}
	names := g.filename(pat, flags)
	if g.err != nil {
		return nil, g.err
	}
	if len(opts.Ignore) > 0 {
		names = g.ignore(names)
	}
	if len(names) == 0 {
		return nil, nil
	}
	sort.Strings(names)
	return names, nil
}

// globUnescapeSlashes drops the backslashes that escape a '/': bash
// ignores the quoting of a slash, which always separates components.
func globUnescapeSlashes(pat string) string {
	if !strings.Contains(pat, `\/`) {
		return pat
	}
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		if pat[i] == '\\' && i+1 < len(pat) {
			if pat[i+1] != '/' {
				b.WriteByte('\\')
			}
			i++
		}
		b.WriteByte(pat[i])
	}
	return b.String()
}

// globHasMeta reports whether bash would perform pathname expansion on the
// word pat at all (bash's unquoted_glob_pattern_p): it needs an unescaped
// '*' or '?', a '[' with a ']' later in the same component, or one of
// "+(", "@(", "!(" (whatever the extglob setting).
func globHasMeta(pat string) bool {
	open := false
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '?', '*':
			return true
		case '[':
			open = true
		case ']':
			if open {
				return true
			}
		case '/', '+', '@', '!':
			if c == '/' {
				open = false
			}
			if i+1 < len(pat) && pat[i+1] == '(' {
				return true
			}
		case '\\':
			if i+1 == len(pat) {
				return false
			}
			i++
		}
	}
	return false
}

// globPatternP is bash's glob_pattern_p, used on the parts of a pattern
// that globbing has split up: like globHasMeta, but a bracket may span a
// slash.
func globPatternP(pat string) bool {
	open := false
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '?', '*':
			return true
		case '[':
			open = true
		case ']':
			if open {
				return true
			}
		case '+', '@', '!':
			if i+1 < len(pat) && pat[i+1] == '(' {
				return true
			}
		case '\\':
			if i+1 == len(pat) {
				return false
			}
			i++
		}
	}
	return false
}

// globDequote removes the backslash escapes of a pattern without
// metacharacters; a trailing backslash is dropped, as bash does.
func globDequote(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			if i == len(s) {
				break
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// globFlags are bash's GX_ flags that pass between the steps of an
// expansion.
type globFlags uint8

const (
	globFlagAllDirs   globFlags = 1 << iota // "**": collect everything below, recursively
	globFlagNullDir                         // no directory precedes the pattern
	globFlagAddCurDir                       // also return the directory itself
	globFlagGlobstar                        // globstar is on
	globFlagRecurse                         // expanding the directory part of a pattern
)

// globber holds the state of one expansion.
type globber struct {
	opts globOptions
	fsys globFS
	mode patternMode // matching mode for path components
	err  error       // set when the filesystem aborts the expansion
}

// filename is bash's glob_filename: it expands pathname, whose directory
// part is expanded recursively. It returns nil both when nothing matched
// and when a directory could not be read.
func (g *globber) filename(pathname string, flags globFlags) []string {
	if g.err != nil {
		return nil
	}
	slash := strings.LastIndexByte(pathname, '/')
	if slash >= 0 && g.opts.Extglob {
		// A slash inside an extglob group does not separate components.
		slash = globDirScan(pathname)
	}
	dirName, fileName := "", pathname
	if slash >= 0 {
		dirName, fileName = pathname[:slash+1], pathname[slash+1:]
	}
	starstar := fileName == "**"

	if dirName != "" && globPatternP(dirName) {
		d := dirName
		dflags := flags
		allStarstar, lastStarstar := false, false
		// Collapse a leading run of "**/" components to one.
		if flags&globFlagGlobstar != 0 && globIsStarstar(d) {
			p, i := 0, 0
			for globIsStarstar(d[i:]) {
				p = i
				i += 3
				for i < len(d) && d[i] == '/' {
					i++
				}
				if i == len(d) {
					break
				}
			}
			allStarstar = i == len(d)
			d = d[p:]
			dflags |= globFlagAllDirs | globFlagAddCurDir
		}
		dirLen := len(d)
		// Collapse a trailing run of "/**/" to one.
		if flags&globFlagGlobstar != 0 && !allStarstar {
			dl, prev := dirLen, dirLen
			for dl >= 4 && d[dl-1] == '/' && d[dl-2] == '*' && d[dl-3] == '*' && d[dl-4] == '/' {
				prev = dl
				dl -= 3
			}
			lastStarstar = dl != dirLen
			dirLen = prev
		}
		// "dir/**/**" needs "dir/**" only once.
		if lastStarstar && dirLen > 4 && starstar {
			dirLen -= 3
		}
		if d[dirLen-1] == '/' {
			dirLen--
		}
		d = d[:dirLen]

		dirs := g.filename(d, dflags|globFlagRecurse)
		if len(dirs) == 0 {
			return nil
		}
		if allStarstar && starstar {
			// "**/**" is just "**".
			return g.onlyFilename("", fileName, flags)
		}
		var result []string
		for _, dir := range dirs {
			if g.err != nil {
				return nil
			}
			dname := dir
			vflags := flags &^ (globFlagAllDirs | globFlagAddCurDir)
			if flags&globFlagGlobstar != 0 && starstar {
				vflags |= globFlagAllDirs | globFlagAddCurDir
			}
			if dname == "" && fileName != "" {
				vflags |= globFlagNullDir
				dname = "."
			}
			var found []string
			var ok bool
			if allStarstar && vflags&globFlagNullDir == 0 && g.isSymlinkToDir(dname) {
				// A symbolic link to a directory found by "**" is listed
				// but not descended into.
				if fileName != "" {
					continue
				}
				found, ok = []string{""}, true
			} else {
				found, ok = g.vector(fileName, dname, vflags)
			}
			if !ok {
				continue
			}
			if vflags&globFlagAllDirs != 0 && starstar {
				// The names from "**" already include the directory.
				if vflags&globFlagNullDir != 0 && flags&globFlagNullDir == 0 && len(found) > 0 && found[0] == "" {
					for len(found) > 0 && found[0] == "" {
						found = found[1:]
					}
					result = append(result, found...)
					break
				}
				result = append(result, found...)
				continue
			}
			result = append(result, globDirToArray(dir, found)...)
		}
		return result
	}
	return g.onlyFilename(dirName, fileName, flags)
}

// onlyFilename finishes glob_filename when the directory part has no
// pattern characters.
func (g *globber) onlyFilename(dirName, fileName string, flags globFlags) []string {
	if fileName == "" {
		return []string{dirName}
	}
	dirName = globDequote(dirName)
	dflags := flags
	if dirName == "" {
		dflags |= globFlagNullDir
	}
	if flags&globFlagGlobstar != 0 && fileName == "**" {
		dflags |= globFlagAllDirs | globFlagAddCurDir
		if dirName == "" && flags&globFlagAllDirs == 0 {
			dflags &^= globFlagAddCurDir
		}
	}
	dir := dirName
	if dir == "" {
		dir = "."
	}
	found, ok := g.vector(fileName, dir, dflags)
	if !ok {
		return nil
	}
	if dflags&globFlagAllDirs != 0 {
		return found
	}
	return globDirToArray(dirName, found)
}

// globIsStarstar reports whether d starts with a "**" component.
func globIsStarstar(d string) bool {
	return strings.HasPrefix(d, "**") && (len(d) == 2 || d[2] == '/')
}

// globDirToArray prefixes each name with dir, adding a slash if dir does
// not end in one.
func globDirToArray(dir string, names []string) []string {
	if dir == "" {
		return names
	}
	sep := ""
	if !strings.HasSuffix(dir, "/") {
		sep = "/"
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = dir + sep + n
	}
	return out
}

// vector is bash's glob_vector: the names in directory dir that match the
// single-component pattern pat (or, with globFlagAllDirs, all names below
// dir, as paths). ok is false if dir cannot be read.
func (g *globber) vector(pat, dir string, flags globFlags) (names []string, ok bool) {
	if pat == "" {
		if !g.isDir(dir) {
			return nil, false
		}
		return []string{""}, true
	}
	if !globPatternP(pat) {
		// No pattern characters: just check that the name exists.
		if !g.isDir(dir) {
			return nil, false
		}
		name := globDequote(pat)
		if _, _, exists := g.fsys.globLstat(dir + "/" + name); exists {
			return []string{name}, true
		}
		return nil, true
	}
	entries, err := g.fsys.globReadDir(dir)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			g.err = err
		}
		return nil, false
	}
	m, _ := patternCompile(pat, g.mode)
	sawDot, sawDotdot := false, false
	check := func(e globEntry) {
		if g.skipName(pat, e.Name) {
			return
		}
		if flags&globFlagAllDirs != 0 {
			sub := globMakePath(dir, e.Name, flags&globFlagNullDir != 0)
			if e.IsDir && !e.IsSymlink {
				deeper, _ := g.vector(pat, sub, flags&^globFlagAddCurDir)
				names = append(names, deeper...)
			}
			names = append(names, sub)
			return
		}
		if m.match(e.Name) {
			names = append(names, e.Name)
		}
	}
	for _, e := range entries {
		switch e.Name {
		case ".":
			sawDot = true
		case "..":
			sawDotdot = true
		}
		check(e)
		if g.err != nil {
			return nil, false
		}
	}
	// Directories always contain "." and "..", which bash's readdir
	// reports.
	if !sawDot {
		check(globEntry{Name: ".", IsDir: true})
	}
	if !sawDotdot {
		check(globEntry{Name: "..", IsDir: true})
	}
	if flags&(globFlagAllDirs|globFlagAddCurDir) == globFlagAllDirs|globFlagAddCurDir {
		if flags&globFlagNullDir != 0 {
			names = append(names, "")
		} else {
			names = append(names, dir)
		}
	}
	return names, true
}

// globMakePath joins dir and name as bash's sh_makepath does for "**": a
// directory of "." is dropped when no directory preceded the pattern.
func globMakePath(dir, name string, nullDir bool) string {
	if nullDir && (dir == "." || dir == "./") {
		return name
	}
	if dir == "" || strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// isDir reports whether path is a directory, following symbolic links.
// An empty path names nothing, as for stat(2).
func (g *globber) isDir(path string) bool {
	if path == "" {
		return false
	}
	isDir, _, exists := g.fsys.globLstat(path)
	return exists && isDir
}

// isSymlinkToDir reports whether path is a symbolic link to a directory.
func (g *globber) isSymlinkToDir(path string) bool {
	if path == "" {
		return false
	}
	isDir, isSymlink, exists := g.fsys.globLstat(path)
	return exists && isSymlink && isDir
}

// skipName is bash's skipname: it decides from the pattern alone whether
// the directory entry name can be skipped, which is how bash keeps
// hidden files, "." and ".." out of results.
func (g *globber) skipName(pat, name string) bool {
	if globExtglobStart(pat) {
		return g.extglobSkipName(pat, name)
	}
	dots := name == "." || name == ".."
	if g.opts.Globskipdots && dots {
		return true
	}
	literalDot := strings.HasPrefix(pat, ".") || strings.HasPrefix(pat, `\.`)
	if g.opts.Dotglob {
		return dots && !literalDot
	}
	return strings.HasPrefix(name, ".") && !literalDot
}

// extglobSkipName is skipName for a pattern that starts with an extglob
// group: the name is kept if any alternative would keep it.
func (g *globber) extglobSkipName(pat, name string) bool {
	wild := pat[0] == '*' || pat[0] == '?'
	units := patternBytesUnits(pat)
	end := int32(len(units))
	pe := patternScan(units, 2, end, 0)
	if pe < 0 {
		return false // not a valid group
	}
	if pe == end && units[pe-1] == ')' && !strings.Contains(pat[2:], "|") {
		return g.skipName(pat[2:pe-1], name)
	}
	skip := false
	pp := int32(2)
	for {
		t := patternScan(units, pp, pe, '|')
		if t < 0 {
			break
		}
		sub := pat[pp : t-1]
		if globExtglobStart(pat[pp:]) && units[t-1] == ')' {
			sub = pat[pp:] // bash leaves a nested group unterminated here
		}
		skip = g.skipName(sub, name)
		if !skip {
			return false
		}
		pp = t
		if pp == pe {
			break
		}
	}
	if pp == end {
		return skip
	}
	if wild && pe < end {
		// The group can match nothing: what follows decides.
		return g.skipName(pat[pe:], name)
	}
	return true
}

// globExtglobStart reports whether pat starts with an extglob operator and
// its '(' (bash's extglob_pattern_p).
func globExtglobStart(pat string) bool {
	return len(pat) > 1 && pat[1] == '(' && strings.IndexByte("?*+@!", pat[0]) >= 0
}

// globDirScan is bash's glob_dirscan: the index of the last '/' in pat
// that is not inside an extglob group, or -1.
func globDirScan(pat string) int {
	units := patternBytesUnits(pat)
	last := int32(len(units)) - 1
	d := -1
	for p := int32(0); p < int32(len(units)); p++ {
		if globExtglobStart(pat[p:]) {
			pe := patternScan(units, p+2, last, 0)
			if pe < 0 {
				continue
			}
			if int(pe) == len(units) {
				break
			}
			p = pe - 1
			continue
		}
		if units[p] == '/' {
			d = int(p)
		}
	}
	return d
}

// ignore drops the names that GLOBIGNORE rejects: those whose last
// component is "." or "..", and those matching an ignore pattern (as a
// whole path, where wildcards do not match '/').
func (g *globber) ignore(names []string) []string {
	mode := patternPathname | patternSlashOnly
	if g.opts.Extglob {
		mode |= patternExtglob
	}
	if g.opts.Nocaseglob {
		mode |= patternNoCase
	}
	var ms []*patternMatcher
	for _, p := range g.opts.Ignore {
		m, _ := patternCompile(p, mode)
		ms = append(ms, m)
	}
	var kept []string
next:
	for _, name := range names {
		last := name
		if i := strings.LastIndexByte(name, '/'); i >= 0 && i+1 < len(name) {
			last = name[i+1:]
		}
		if last == "." || last == ".." {
			continue
		}
		for _, m := range ms {
			if m.match(name) {
				continue next
			}
		}
		kept = append(kept, name)
	}
	return kept
}
