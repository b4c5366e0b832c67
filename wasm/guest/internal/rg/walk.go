package rg

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// An ignoreLevel holds the ignore files of one directory.
type ignoreLevel struct {
	dir        string // absolute, clean
	rgignore   *ruleset
	dotignore  *ruleset
	gitignore  *ruleset
	gitExclude *ruleset
	hasGit     bool
}

// walker finds the files to search below the search roots.
type walker struct {
	o       *options
	cwd     string
	globs   *ruleset
	posGlob bool                                  // some --glob is not negated: other files are skipped
	typeSel *ruleset                              // globs of the -t types
	typeNot *ruleset                              // globs of the -T types
	visit   func(path string, explicit bool) bool // false stops the walk
	errf    func(path string, err error)
}

func readRules(path string) *ruleset {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return parseIgnore(string(b))
}

// level loads the ignore files of dir.
func (w *walker) level(dir string) *ignoreLevel {
	l := &ignoreLevel{dir: dir}
	if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
		l.hasGit = true
	}
	if w.o.noIgnore {
		return l
	}
	if !w.o.noIgnoreDo {
		l.rgignore = readRules(filepath.Join(dir, ".rgignore"))
		l.dotignore = readRules(filepath.Join(dir, ".ignore"))
	}
	if !w.o.noIgnoreVC {
		l.gitignore = readRules(filepath.Join(dir, ".gitignore"))
		if l.hasGit {
			l.gitExclude = readRules(filepath.Join(dir, ".git", "info", "exclude"))
		}
	}
	return l
}

// parents returns the ignore levels of the directories above abs, the
// outermost first.
func (w *walker) parents(abs string) []*ignoreLevel {
	var dirs []string
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == filepath.Dir(d) {
			break
		}
	}
	var ls []*ignoreLevel
	for i := len(dirs) - 1; i >= 0; i-- {
		l := w.level(dirs[i])
		if w.o.noParent {
			l = &ignoreLevel{dir: dirs[i], hasGit: l.hasGit}
		}
		ls = append(ls, l)
	}
	return ls
}

// ignored decides whether a walked entry is skipped: --glob overrides
// first, then ignore files, then file types, then hiddenness.
func (w *walker) ignored(display, abs, name string, isDir bool, stack []*ignoreLevel) bool {
	if w.globs != nil {
		rel := strings.TrimPrefix(display, "./")
		if filepath.IsAbs(rel) {
			if r, err := filepath.Rel(w.cwd, rel); err == nil && !strings.HasPrefix(r, "..") {
				rel = r
			}
		}
		switch w.globs.match(rel, isDir) {
		case matchIgnore:
			return false // a --glob names it: searched
		case matchWhitelist:
			return true // a --glob '!...' names it
		}
		if w.posGlob && !isDir {
			return true
		}
	}
	whitelisted := false
	if !w.o.noIgnore {
		m := w.ignoreMatch(abs, isDir, stack)
		if m == matchIgnore {
			return true
		}
		whitelisted = m == matchWhitelist
	}
	if !isDir && (w.typeSel != nil || w.typeNot != nil) {
		switch w.typeMatch(name) {
		case matchIgnore:
			return true
		case matchWhitelist:
			whitelisted = true
		}
	}
	if !whitelisted && !w.o.hidden && strings.HasPrefix(name, ".") {
		return true
	}
	return false
}

func (w *walker) ignoreMatch(abs string, isDir bool, stack []*ignoreLevel) int {
	anyGit := w.o.noReqGit
	for _, l := range stack {
		anyGit = anyGit || l.hasGit
	}
	mRG, mIgn, mGit, mEx := matchNone, matchNone, matchNone, matchNone
	sawGit := false
	for i := len(stack) - 1; i >= 0; i-- {
		l := stack[i]
		rel, err := filepath.Rel(l.dir, abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		if mRG == matchNone {
			mRG = l.rgignore.match(rel, isDir)
		}
		if mIgn == matchNone {
			mIgn = l.dotignore.match(rel, isDir)
		}
		if anyGit && !sawGit {
			if mGit == matchNone {
				mGit = l.gitignore.match(rel, isDir)
			}
			if mEx == matchNone {
				mEx = l.gitExclude.match(rel, isDir)
			}
		}
		sawGit = sawGit || l.hasGit
	}
	for _, m := range []int{mRG, mIgn, mGit, mEx} {
		if m != matchNone {
			return m
		}
	}
	return matchNone
}

func (w *walker) typeMatch(name string) int {
	if w.typeNot.match(name, false) == matchIgnore {
		return matchIgnore
	}
	if w.typeSel != nil {
		if w.typeSel.match(name, false) == matchIgnore {
			return matchWhitelist
		}
		return matchIgnore
	}
	return matchNone
}

// walkRoot walks one search root. display is the path as printed ("" for
// the implicit current directory).
func (w *walker) walkRoot(root string) bool {
	display := root
	if root == "" {
		root = "."
	}
	fi, err := os.Stat(root)
	if err != nil {
		w.errf(root, err)
		return true
	}
	if !fi.IsDir() {
		return w.visit(root, true)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		w.errf(root, err)
		return true
	}
	stack := w.parents(abs)
	return w.walkDir(display, abs, stack, 1)
}

func join(dir, name string) string {
	switch {
	case dir == "":
		return name
	case strings.HasSuffix(dir, "/"):
		return dir + name
	}
	return dir + "/" + name
}

func (w *walker) walkDir(display, abs string, stack []*ignoreLevel, depth int) bool {
	if w.o.maxDepth >= 0 && depth > w.o.maxDepth {
		return true
	}
	stack = append(stack[:len(stack):len(stack)], w.level(abs))
	f, err := os.Open(abs)
	if err != nil {
		w.errf(orDot(display), err)
		return true
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		w.errf(orDot(display), err)
		return true
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	if w.o.sortRev {
		for i, j := 0, len(entries)-1; i < j; i, j = i+1, j-1 {
			entries[i], entries[j] = entries[j], entries[i]
		}
	}
	for _, e := range entries {
		name := e.Name()
		p := join(display, name)
		pa := filepath.Join(abs, name)
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			if !w.o.follow {
				continue
			}
			fi, err := os.Stat(pa)
			if err != nil {
				w.errf(p, err)
				continue
			}
			mode = fi.Mode().Type()
		}
		isDir := mode.IsDir()
		if w.ignored(p, pa, name, isDir, stack) {
			continue
		}
		if isDir {
			if !w.walkDir(p, pa, stack, depth+1) {
				return false
			}
			continue
		}
		if !mode.IsRegular() && mode&fs.ModeSymlink == 0 {
			continue
		}
		if w.o.maxDepth >= 0 && depth > w.o.maxDepth {
			continue
		}
		if !w.visit(p, false) {
			return false
		}
	}
	return true
}

func orDot(s string) string {
	if s == "" {
		return "."
	}
	return s
}
