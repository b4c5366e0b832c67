package shell

import (
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// testExpr evaluates a [[ ]] expression.
func (r *Interp) testExpr(x syntax.TestExpr) bool {
	switch x := x.(type) {
	case *syntax.Word:
		return r.expandString(x) != ""
	case *syntax.ParenTest:
		return r.testExpr(x.X)
	case *syntax.UnaryTest:
		if x.Op == syntax.TsNot {
			if b := notToTerm(x); b != nil {
				return r.testExpr(b)
			}
			return !r.testExpr(x.X)
		}
		w, _ := x.X.(*syntax.Word)
		s := r.expandString(w)
		op := x.Op.String()
		if x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar {
			if x.Op == syntax.TsRefVar {
				v, _ := r.vars.lookup(s)
				return v != nil && v.Attr&AttrNameref != 0
			}
		}
		return testUnary(testInterp{r}, op, s)
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.AndTest:
			return r.testExpr(x.X) && r.testExpr(x.Y)
		case syntax.OrTest:
			return r.testExpr(x.X) || r.testExpr(x.Y)
		}
		lw, _ := x.X.(*syntax.Word)
		rw, _ := x.Y.(*syntax.Word)
		left := r.expandString(lw)
		switch x.Op {
		case syntax.TsMatch, syntax.TsMatchShort, syntax.TsNoMatch:
			pat := r.expandPattern(rw)
			m, err := patternCompile(pat, r.patternMode(r.opts.nocasematch)|patternExtglob)
			ok := false
			if err == nil {
				ok = m.match(left)
			} else {
				ok = left == patternUnescape(pat)
			}
			return ok == (x.Op != syntax.TsNoMatch)
		case syntax.TsReMatch:
			return r.regexMatch(left, rw)
		case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
			// an error in either operand makes [[ false, as in bash
			a, ok := r.arithStringPrefix(left, "[[: ")
			if !ok {
				return false
			}
			b, ok := r.arithStringPrefix(r.expandString(rw), "[[: ")
			if !ok {
				return false
			}
			switch x.Op {
			case syntax.TsEql:
				return a == b
			case syntax.TsNeq:
				return a != b
			case syntax.TsLss:
				return a < b
			case syntax.TsLeq:
				return a <= b
			case syntax.TsGtr:
				return a > b
			}
			return a >= b
		}
		ok, err := testBinary(testInterp{r}, x.Op.String(), left, r.expandString(rw))
		if err != nil {
			r.errorf("%s", err.Error())
			r.status = 2
		}
		return ok
	}
	return false
}

// notToTerm mends the parser's reading of ! x || y (and ! ! x && y) as
// !(x || y): in bash ! binds to the term, (! x) || y. It returns the
// expression as bash reads it, or nil when x is right as it is.
func notToTerm(x *syntax.UnaryTest) syntax.TestExpr {
	var nots []*syntax.UnaryTest
	var inner syntax.TestExpr = x
	for {
		u, ok := inner.(*syntax.UnaryTest)
		if !ok || u.Op != syntax.TsNot {
			break
		}
		nots = append(nots, u)
		inner = u.X
	}
	b, ok := inner.(*syntax.BinaryTest)
	if !ok || b.Op != syntax.AndTest && b.Op != syntax.OrTest {
		return nil
	}
	left := b.X
	for i := len(nots) - 1; i >= 0; i-- {
		left = &syntax.UnaryTest{OpPos: nots[i].OpPos, Op: syntax.TsNot, X: left}
	}
	return &syntax.BinaryTest{OpPos: b.OpPos, Op: b.Op, X: left, Y: b.Y}
}

// regexMatch implements =~ with BASH_REMATCH. Quoted parts of the
// pattern match literally.
func (r *Interp) regexMatch(s string, w *syntax.Word) bool {
	var x xbuf
	r.expandParts(&x, w.Parts, false, false)
	pat := posixToRE2(quoteRegex(x.b, x.quote))
	if r.opts.nocasematch {
		pat = "(?i)" + pat
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		r.status = 2
		return false
	}
	m := re.FindStringSubmatchIndex(s)
	a := &IndexedArray{}
	if m == nil {
		r.vars.global().vars["BASH_REMATCH"] = &Var{Attr: AttrIndexed, Set: true, Index: a}
		return false
	}
	for i := 0; i*2 < len(m); i++ {
		if m[2*i] >= 0 {
			a.Set(int64(i), s[m[2*i]:m[2*i+1]])
		} else {
			a.Set(int64(i), "")
		}
	}
	r.vars.global().vars["BASH_REMATCH"] = &Var{Attr: AttrIndexed, Set: true, Index: a}
	return true
}

// quoteRegex is the POSIX ERE bash 5.2 compiles for the pattern b of =~
// whose quoted bytes are marked in quoted: outside a bracket expression a
// quoted character is escaped; inside one it goes in as it is, so that
// [\.] is a bracket holding a dot and [\[=g=]] an equivalence class.
func quoteRegex(b []byte, quoted []bool) string {
	var sb strings.Builder
	inBracket := false
	start := 0 // where the bracket's content starts
	for i := 0; i < len(b); i++ {
		c := b[i]
		q := i < len(quoted) && quoted[i]
		switch {
		case !inBracket && q:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		case !inBracket && c == '\\' && i+1 < len(b):
			sb.WriteByte(c)
			sb.WriteByte(b[i+1])
			i++
		case !inBracket && c == '[':
			sb.WriteByte(c)
			inBracket = true
			if i+1 < len(b) && b[i+1] == '^' {
				sb.WriteByte('^')
				i++
			}
			start = i + 1
		case inBracket && c == '[' && i+1 < len(b) && strings.IndexByte(":=.", b[i+1]) >= 0:
			// [:class:], [=c=], [.c.]: to the matching close
			end := strings.Index(string(b[i+2:]), string(b[i+1])+"]")
			if end < 0 {
				sb.WriteByte(c)
				continue
			}
			sb.Write(b[i : i+2+end+2])
			i += 2 + end + 1
		case inBracket && c == ']' && i > start:
			sb.WriteByte(c)
			inBracket = false
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// posixToRE2 rewrites POSIX ERE bracket classes that Go's syntax reads
// differently ([[:alpha:]] is the same; a leading ] in a bracket is a
// literal).
func posixToRE2(p string) string {
	var sb strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			if n := p[i+1]; (n|0x20) >= 'a' && (n|0x20) <= 'z' && strings.IndexByte("wWsSbB", n) < 0 {
				// glibc reads \x as x; RE2 would read an escape
				sb.WriteByte(n)
				i++
				continue
			}
			sb.WriteByte(c)
			sb.WriteByte(p[i+1])
			i++
			continue
		}
		if c == '[' {
			j := i + 1
			sb.WriteByte('[')
			if j < len(p) && p[j] == '^' {
				sb.WriteByte('^')
				j++
			}
			if j < len(p) && p[j] == ']' {
				sb.WriteString(`\]`)
				j++
			}
			for j < len(p) && p[j] != ']' {
				if p[j] == '[' && j+1 < len(p) && p[j+1] == ':' {
					k := strings.Index(p[j:], ":]")
					if k > 0 {
						sb.WriteString(p[j : j+k+2])
						j += k + 2
						continue
					}
				}
				if p[j] == '[' && j+2 < len(p) && (p[j+1] == '=' || p[j+1] == '.') {
					// [=c=] and [.c.] of one character are that character
					if end := strings.Index(p[j+2:], p[j+1:j+2]+"]"); end == 1 {
						sb.WriteString(regexp.QuoteMeta(p[j+2 : j+3]))
						j += 5
						continue
					}
				}
				if p[j] == '\\' {
					sb.WriteString(`\\`)
					j++
					continue
				}
				sb.WriteByte(p[j])
				j++
			}
			if j < len(p) {
				sb.WriteByte(']')
			}
			i = j
			continue
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

// testInterp gives the test operators the sandbox's files and the
// shell's variables.
type testInterp struct{ r *Interp }

func (t testInterp) testStat(name string, follow bool) (testFileInfo, error) {
	r := t.r
	if d := r.devFd(name); d != nil {
		if d.vf == nil {
			// A stream of the host (the caller's stdin or stdout): a
			// pipe, as /proc/self/fd shows one, read-write for its owner.
			return testFileInfo{Mode: fs.ModeNamedPipe | 0o600, Dev: 2, Ino: d.streamID}, nil
		}
		st, err := d.vf.Stat()
		if err != nil {
			return testFileInfo{}, err
		}
		return statInfo(st), nil
	}
	if name == "" {
		return testFileInfo{}, vfs.ENOENT
	}
	st, err := r.fs().Stat(vfs.RootIno, r.absPath(name), follow)
	if err != nil {
		return testFileInfo{}, err
	}
	return statInfo(st), nil
}

func statInfo(st vfs.Stat) testFileInfo {
	fi := st.FileInfo("x")
	return testFileInfo{
		Mode: fi.Mode(), Size: st.Size, ModTime: fi.ModTime(), ATime: st.Atime, Dev: 1, Ino: uint64(st.Ino),
	}
}

func (t testInterp) testVarSet(name string) bool {
	r := t.r
	base, sub, hasSub := name, "", false
	if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
		base, sub, hasSub = name[:i], name[i+1:len(name)-1], true
	}
	if !hasSub {
		if v := r.dynamicVar(base); v != nil {
			return true
		}
		v := r.vars.get(base)
		if v == nil {
			return false
		}
		if v.IsArray() {
			_, ok := v.scalar()
			return ok
		}
		return v.Set
	}
	pv := r.lookupParam(base, sub, true, nil)
	if sub == "@" || sub == "*" {
		return len(pv.vals) > 0
	}
	return pv.set
}

func (t testInterp) testOption(name string) (bool, bool) {
	for _, o := range t.r.opts.setOptions() {
		if o.name == name {
			if o.p == nil {
				return o.name == "braceexpand" && !t.r.opts.noBrace || o.name == "interactive-comments", true
			}
			return *o.p, true
		}
	}
	return false, false
}

func (t testInterp) testTerminal(fd int) bool { return false }

func (t testInterp) testNameref(name string) bool {
	v, _ := t.r.vars.lookup(name)
	return v != nil && v.Attr&AttrNameref != 0
}

// globFS is the VFS as pathname expansion sees it.
func (r *Interp) globFS() globFS { return vfsGlob{r} }

type vfsGlob struct{ r *Interp }

func (g vfsGlob) globReadDir(dir string) ([]globEntry, error) {
	if dir == "" {
		dir = "."
	}
	ents, err := g.r.fs().ReadDir(vfs.RootIno, g.r.absPath(dir))
	if err != nil {
		return nil, err
	}
	out := make([]globEntry, 0, len(ents))
	for _, e := range ents {
		ge := globEntry{Name: e.Name, IsDir: e.Type == vfs.TypeDir, IsSymlink: e.Type == vfs.TypeSymlink}
		if ge.IsSymlink {
			if st, err := g.r.fs().Stat(vfs.RootIno, path.Join(g.r.absPath(dir), e.Name), true); err == nil && st.Type == vfs.TypeDir {
				ge.IsDir = true
			}
		}
		out = append(out, ge)
	}
	return out, nil
}

func (g vfsGlob) globLstat(p string) (isDir, isSymlink, exists bool) {
	st, err := g.r.fs().Stat(vfs.RootIno, g.r.absPath(p), false)
	if err != nil {
		return false, false, false
	}
	if st.Type == vfs.TypeSymlink {
		if t, err := g.r.fs().Stat(vfs.RootIno, g.r.absPath(p), true); err == nil && t.Type == vfs.TypeDir {
			return true, true, true
		}
		return false, true, true
	}
	return st.Type == vfs.TypeDir, false, true
}

// --- xtrace ----------------------------------------------------------

func (r *Interp) xtraceTest(c *syntax.TestClause) {
	if !r.opts.xtrace {
		return
	}
	r.xtrace("[[ " + strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(r.curText(c), "[["), "]]")) + " ]]")
}

var _ = fs.ModeDir
var _ = strconv.Itoa
