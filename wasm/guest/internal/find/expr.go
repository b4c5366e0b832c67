package find

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/posixre"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// node is one part of the expression.
type node interface {
	eval(f *file) bool
}

type andNode struct{ l, r node }
type orNode struct{ l, r node }
type commaNode struct{ l, r node }
type notNode struct{ x node }
type funcNode func(f *file) bool

// The binary operators stop at once after -quit.
func (n *andNode) eval(f *file) bool { return n.l.eval(f) && !f.f.quit && n.r.eval(f) }
func (n *orNode) eval(f *file) bool  { return (n.l.eval(f) || !f.f.quit && n.r.eval(f)) && !f.f.quit }
func (n *commaNode) eval(f *file) bool {
	n.l.eval(f)
	return !f.f.quit && n.r.eval(f)
}
func (n *notNode) eval(f *file) bool { return !n.x.eval(f) }
func (n funcNode) eval(f *file) bool { return n(f) }

var trueNode = funcNode(func(*file) bool { return true })

// parser turns the expression arguments into a tree.
type parser struct {
	f         *finder
	args      []string
	pos       int
	hasAction bool // an action other than -prune appeared
	regexType string
	daystart  bool
}

type parseError string

func (e parseError) Error() string { return string(e) }

func errorf(format string, a ...any) error { return parseError(fmt.Sprintf(format, a...)) }

func (p *parser) parse() (node, error) {
	p.regexType = "emacs"
	if len(p.args) == 0 {
		return p.printNode(), nil
	}
	n, err := p.comma()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.args) {
		if p.args[p.pos] == ")" {
			return nil, errorf("you have too many ')'")
		}
		return nil, errorf("unexpected extra predicate '%s'", p.args[p.pos])
	}
	if n == nil {
		n = trueNode
	}
	if !p.hasAction {
		n = &andNode{n, p.printNode()}
	}
	return n, nil
}

func (p *parser) peek() string {
	if p.pos < len(p.args) {
		return p.args[p.pos]
	}
	return ""
}

func (p *parser) comma() (node, error) {
	l, err := p.or()
	if err != nil {
		return nil, err
	}
	for p.peek() == "," {
		p.pos++
		r, err := p.or()
		if err != nil {
			return nil, err
		}
		if l == nil || r == nil {
			return nil, errorf("invalid expression; you have used a binary operator ',' with nothing before it.")
		}
		l = &commaNode{l, r}
	}
	return l, nil
}

func (p *parser) or() (node, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.peek() == "-o" || p.peek() == "-or" {
		op := p.peek()
		p.pos++
		if l == nil {
			return nil, errorf("invalid expression; you have used a binary operator '%s' with nothing before it.", op)
		}
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, errorf("invalid expression; you have used a binary operator '%s' with nothing after it.", op)
		}
		l = &orNode{l, r}
	}
	return l, nil
}

func (p *parser) and() (node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t == "" || t == ")" || t == "-o" || t == "-or" || t == "," {
			return l, nil
		}
		if t == "-a" || t == "-and" {
			p.pos++
			if l == nil {
				return nil, errorf("invalid expression; you have used a binary operator '%s' with nothing before it.", t)
			}
		}
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, errorf("invalid expression; you have used a binary operator '%s' with nothing after it.", t)
		}
		if l == nil {
			l = r
		} else {
			l = &andNode{l, r}
		}
	}
}

func (p *parser) unary() (node, error) {
	t := p.peek()
	switch t {
	case "":
		return nil, nil
	case "!", "-not":
		p.pos++
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if x == nil {
			return nil, errorf("invalid expression; you have used a binary operator '%s' with nothing after it.", t)
		}
		return &notNode{x}, nil
	case "(":
		p.pos++
		x, err := p.comma()
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, errorf("invalid expression; I was expecting to find a ')' somewhere but did not see one.")
		}
		p.pos++
		if x == nil {
			return nil, errorf("invalid expression; empty parentheses are not allowed.")
		}
		return x, nil
	case ")", "-o", "-or", "-a", "-and", ",":
		return nil, nil
	}
	p.pos++
	return p.primary(t)
}

// arg returns the argument of the predicate just read.
func (p *parser) arg(pred string) (string, error) {
	if p.pos >= len(p.args) {
		return "", errorf("missing argument to `%s'", pred)
	}
	a := p.args[p.pos]
	p.pos++
	return a, nil
}

func (p *parser) printNode() node {
	w := p.f.env.Out()
	return funcNode(func(f *file) bool {
		w.WriteString(f.path)
		w.WriteByte('\n')
		return true
	})
}

// primary parses one test, action or option named t.
func (p *parser) primary(t string) (node, error) {
	fd := p.f
	switch t {
	// Options: always true.
	case "-depth", "-d":
		fd.depth = true
		return trueNode, nil
	case "-maxdepth", "-mindepth":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 {
			return nil, errorf("Expected a positive decimal integer argument to %s, but got %s", t, quote(a))
		}
		if t == "-maxdepth" {
			fd.maxDepth = n
		} else {
			fd.minDepth = n
		}
		return trueNode, nil
	case "-xdev", "-mount":
		fd.xdev = true
		return trueNode, nil
	case "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race", "-nowarn", "-warn":
		return trueNode, nil
	case "-follow":
		fd.follow = followAlways
		return trueNode, nil
	case "-daystart":
		p.daystart = true
		return trueNode, nil
	case "-regextype":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		switch a {
		case "emacs", "findutils-default", "posix-basic", "posix-extended", "posix-egrep", "egrep",
			"posix-awk", "awk", "gnu-awk", "grep", "ed", "sed", "posix-minimal-basic":
			p.regexType = a
		default:
			return nil, errorf("Unknown regular expression type %s; valid types are 'findutils-default', 'ed', 'emacs', 'gnu-awk', 'grep', 'posix-awk', 'awk', 'posix-basic', 'posix-egrep', 'egrep', 'posix-extended', 'posix-minimal-basic', 'sed'.", quote(a))
		}
		return trueNode, nil

	case "-true":
		return trueNode, nil
	case "-false":
		return funcNode(func(*file) bool { return false }), nil

	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-lname", "-ilname":
		pat, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		fold := t[1] == 'i'
		match := matcher(pat, fold)
		switch strings.TrimPrefix(t, "-i") {
		case "name", "-name":
			return funcNode(func(f *file) bool { return match(f.name()) }), nil
		case "lname", "-lname":
			return funcNode(func(f *file) bool {
				if f.mode()&fs.ModeSymlink == 0 {
					if fi, err := f.lstatInfo(); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
						return false
					}
				}
				target, err := os.Readlink(f.path)
				return err == nil && match(target)
			}), nil
		}
		return funcNode(func(f *file) bool { return match(f.path) }), nil

	case "-regex", "-iregex":
		pat, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		re, err := p.compileRegex(pat, t == "-iregex")
		if err != nil {
			return nil, err
		}
		return funcNode(func(f *file) bool {
			ok, err := re.Match([]byte(f.path))
			if err != nil {
				fd.errorf("%v", err)
			}
			return ok
		}), nil

	case "-type", "-xtype":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		var want []fs.FileMode
		var wantReg, wantDoor bool
		for i, part := range strings.Split(a, ",") {
			if len(part) != 1 {
				if part == "" && i > 0 {
					return nil, errorf("Last file type in list argument to %s is missing, i.e., list is ending on: ','", t)
				}
				return nil, errorf("Must separate multiple arguments to %s using: ','", t)
			}
			switch part[0] {
			case 'f':
				wantReg = true
			case 'd':
				want = append(want, fs.ModeDir)
			case 'l':
				want = append(want, fs.ModeSymlink)
			case 'p':
				want = append(want, fs.ModeNamedPipe)
			case 's':
				want = append(want, fs.ModeSocket)
			case 'c':
				want = append(want, fs.ModeDevice|fs.ModeCharDevice)
			case 'b':
				want = append(want, fs.ModeDevice)
			case 'D':
				wantDoor = true
			default:
				return nil, errorf("Unknown argument to %s: %s", t, part)
			}
		}
		_ = wantDoor
		xtype := t == "-xtype"
		return funcNode(func(f *file) bool {
			var m fs.FileMode
			if xtype {
				// The type the other way round from the follow mode.
				if f.following() {
					fi, err := f.lstatInfo()
					if err != nil {
						return false
					}
					m = fi.Mode().Type()
				} else {
					fi, err := os.Stat(f.path)
					if err != nil {
						m = fs.ModeSymlink
					} else {
						m = fi.Mode().Type()
					}
				}
			} else {
				m = f.mode()
			}
			if m == 0 {
				return wantReg
			}
			for _, w := range want {
				if m == w {
					return true
				}
			}
			return false
		}), nil

	case "-size":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		cmp, num := splitSign(a)
		unit := int64(512)
		if num != "" {
			switch c := num[len(num)-1]; c {
			case 'b':
				unit = 512
			case 'c':
				unit = 1
			case 'w':
				unit = 2
			case 'k':
				unit = 1024
			case 'M':
				unit = 1 << 20
			case 'G':
				unit = 1 << 30
			default:
				if c < '0' || c > '9' {
					return nil, errorf("invalid -size type `%c'", c)
				}
				num += "b"
			}
			num = num[:len(num)-1]
		}
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n < 0 {
			return nil, errorf("Invalid argument `%s' to -size", a)
		}
		return funcNode(func(f *file) bool {
			fi, err := f.stat()
			if err != nil {
				return false
			}
			size := fi.Size()
			units := (size + unit - 1) / unit
			return compare(cmp, units, n)
		}), nil

	case "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-used":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		cmp, num := splitSign(a)
		n, err := strconv.ParseFloat(num, 64)
		if err != nil || num == "" || strings.ContainsAny(num, "eExXpPnN") || math.IsInf(n, 0) {
			return nil, errorf("invalid argument `%s' to `%s'", a, t)
		}
		window := 86400.0
		if strings.HasSuffix(t, "min") {
			window = 60
		}
		kind := t[1]
		origin := fd.now
		if p.daystart && window == 86400 {
			y, m, d := fd.now.Date()
			origin = time.Date(y, m, d, 0, 0, 0, 0, fd.now.Location()).Add(24 * time.Hour)
		}
		return funcNode(func(f *file) bool {
			ts, ok := fileTime(f, kind)
			if !ok {
				return false
			}
			ref := float64(origin.UnixNano())/1e9 - n*window
			delta := float64(ts.UnixNano())/1e9 - ref
			switch cmp {
			case '+':
				return delta < -window
			case '-':
				return delta > 0
			}
			return delta <= 0 && delta > -window
		}), nil

	case "-newer", "-anewer", "-cnewer":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		fi, err := p.refStat(a)
		if err != nil {
			return nil, err
		}
		ref := fi.ModTime()
		kind := byte('m')
		if t != "-newer" {
			kind = t[1]
		}
		return funcNode(func(f *file) bool {
			ts, ok := fileTime(f, kind)
			return ok && ts.After(ref)
		}), nil

	case "-empty":
		return funcNode(func(f *file) bool {
			fi, err := f.stat()
			if err != nil {
				return false
			}
			switch {
			case fi.IsDir():
				d, err := os.Open(f.path)
				if err != nil {
					return false
				}
				defer d.Close()
				names, _ := d.Readdirnames(1)
				return len(names) == 0
			case fi.Mode().IsRegular():
				return fi.Size() == 0
			}
			return false
		}), nil

	case "-perm":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		kind := byte(0)
		spec := a
		if spec != "" && (spec[0] == '-' || spec[0] == '/') {
			kind, spec = spec[0], spec[1:]
		}
		m, ok := tool.ParseMode(spec, 0, false)
		if !ok || spec == "" {
			return nil, errorf("invalid mode %s", quote(a))
		}
		want := permBits(m)
		return funcNode(func(f *file) bool {
			have, ok := f.perm()
			if !ok {
				return false
			}
			switch kind {
			case '-':
				return have&want == want
			case '/':
				return want == 0 || have&want != 0
			}
			return have == want
		}), nil

	case "-readable", "-writable", "-executable":
		bit := map[string]uint32{"-readable": 4, "-writable": 2, "-executable": 1}[t]
		return funcNode(func(f *file) bool {
			have, ok := f.perm()
			return ok && have&(bit<<6) != 0
		}), nil

	case "-links", "-inum", "-uid", "-gid":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		cmp, num := splitSign(a)
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			return nil, errorf("invalid argument `%s' to `%s'", a, t)
		}
		return funcNode(func(f *file) bool {
			s := f.sysinfo()
			var v int64
			switch t {
			case "-links":
				v = int64(s.nlink)
			case "-inum":
				v = int64(s.ino)
			case "-uid":
				v = int64(s.uid)
			default:
				v = int64(s.gid)
			}
			return compare(cmp, v, n)
		}), nil

	case "-user", "-group":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		var id uint32
		var ok bool
		if t == "-user" {
			id, ok = lookupUser(a)
		} else {
			id, ok = lookupGroup(a)
		}
		if !ok {
			n, err := strconv.ParseUint(a, 10, 32)
			if err != nil {
				if t == "-user" {
					return nil, errorf("%s is not the name of a known user", quote(a))
				}
				return nil, errorf("%s is not the name of an existing group", quote(a))
			}
			id = uint32(n)
		}
		return funcNode(func(f *file) bool {
			s := f.sysinfo()
			if t == "-user" {
				return s.uid == id
			}
			return s.gid == id
		}), nil

	case "-nouser", "-nogroup":
		return funcNode(func(f *file) bool {
			s := f.sysinfo()
			if t == "-nouser" {
				_, ok := userName(s.uid)
				return !ok
			}
			_, ok := groupName(s.gid)
			return !ok
		}), nil

	case "-samefile":
		a, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		ref, err := p.refStat(a)
		if err != nil {
			return nil, err
		}
		return funcNode(func(f *file) bool {
			fi, err := f.stat()
			return err == nil && os.SameFile(fi, ref)
		}), nil

	// Actions.
	case "-print":
		p.hasAction = true
		return p.printNode(), nil
	case "-print0":
		p.hasAction = true
		w := fd.env.Out()
		return funcNode(func(f *file) bool {
			w.WriteString(f.path)
			w.WriteByte(0)
			return true
		}), nil
	case "-fprint", "-fprint0", "-fprintf", "-fls":
		p.hasAction = true
		name, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		out, err := fd.openOut(name)
		if err != nil {
			return nil, err
		}
		switch t {
		case "-fprint":
			return funcNode(func(f *file) bool { fmt.Fprintf(out, "%s\n", f.path); return true }), nil
		case "-fprint0":
			return funcNode(func(f *file) bool { fmt.Fprintf(out, "%s\x00", f.path); return true }), nil
		case "-fls":
			return funcNode(func(f *file) bool { out.WriteString(lsLine(f)); return true }), nil
		}
		format, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		pf, err := compilePrintf(format)
		if err != nil {
			return nil, err
		}
		return funcNode(func(f *file) bool { out.WriteString(pf.format(f)); return true }), nil
	case "-printf":
		p.hasAction = true
		format, err := p.arg(t)
		if err != nil {
			return nil, err
		}
		pf, err := compilePrintf(format)
		if err != nil {
			return nil, err
		}
		w := fd.env.Out()
		return funcNode(func(f *file) bool {
			w.WriteString(pf.format(f))
			return true
		}), nil
	case "-ls":
		p.hasAction = true
		w := fd.env.Out()
		return funcNode(func(f *file) bool {
			w.WriteString(lsLine(f))
			return true
		}), nil
	case "-prune":
		return funcNode(func(f *file) bool {
			if !fd.depth {
				f.prune = true
			}
			return true
		}), nil
	case "-quit":
		return funcNode(func(f *file) bool {
			fd.quit = true
			return true
		}), nil
	case "-delete":
		p.hasAction = true
		fd.depth = true
		return funcNode(func(f *file) bool {
			if f.path == "." {
				return true
			}
			fi, err := f.lstatInfo()
			if err == nil && fi.IsDir() {
				err = os.Remove(f.path)
			} else if err == nil {
				err = os.Remove(f.path)
			}
			if err != nil {
				fd.errorf("cannot delete %s: %s", quote(f.path), tool.Strerror(err))
				return false
			}
			return true
		}), nil
	case "-exec", "-execdir", "-ok", "-okdir":
		p.hasAction = true
		return p.execNode(t)
	}
	if len(t) == 8 && strings.HasPrefix(t, "-newer") {
		return p.newerXY(t)
	}
	if strings.HasPrefix(t, "-") {
		return nil, errorf("unknown predicate `%s'", t)
	}
	return nil, errorf("paths must precede expression: `%s'", t)
}

// newerXY parses -newerXY: true if the file's time X (a, c, m; B for
// birth is taken as c) is after the reference's time Y, where Y = t means
// the argument is a date.
func (p *parser) newerXY(t string) (node, error) {
	x, y := t[6], t[7]
	valid := func(c byte) bool { return c == 'a' || c == 'c' || c == 'm' || c == 'B' }
	if !valid(x) || !(valid(y) || y == 't') {
		return nil, errorf("invalid predicate `%s'", t)
	}
	a, err := p.arg(t)
	if err != nil {
		return nil, err
	}
	var ref time.Time
	if y == 't' {
		var ok bool
		if ref, ok = tool.ParseDate(a, p.f.now, time.Local); !ok {
			return nil, errorf("I cannot figure out how to interpret %s as a date or time", quote(a))
		}
	} else {
		fi, err := p.refStat(a)
		if err != nil {
			return nil, err
		}
		ref = fi.ModTime()
		if y != 'm' {
			s := sysInfo(fi)
			ref = s.ctime
			if y == 'a' {
				ref = s.atime
			}
		}
	}
	kind := x
	if kind == 'B' {
		kind = 'c'
	}
	return funcNode(func(f *file) bool {
		ts, ok := fileTime(f, kind)
		return ok && ts.After(ref)
	}), nil
}

// refStat stats the reference file of -newer and friends.
func (p *parser) refStat(name string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	var err error
	if p.f.follow == followNever {
		fi, err = os.Lstat(name)
	} else {
		fi, err = os.Stat(name)
	}
	if err != nil {
		return nil, errorf("%s: %s", quote(name), tool.Strerror(err))
	}
	return fi, nil
}

// openOut opens (once) a file named by -fprint and friends.
func (fd *finder) openOut(name string) (*os.File, error) {
	if f, ok := fd.files[name]; ok {
		return f, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, errorf("%s: %s", quote(name), tool.Strerror(err))
	}
	fd.files[name] = f
	return f, nil
}

// splitSign splits a numeric argument's leading '+' or '-'.
func splitSign(a string) (byte, string) {
	if a != "" && (a[0] == '+' || a[0] == '-') {
		return a[0], a[1:]
	}
	return 0, a
}

func compare(cmp byte, v, n int64) bool {
	switch cmp {
	case '+':
		return v > n
	case '-':
		return v < n
	}
	return v == n
}

// fileTime returns the access ('a'), status change ('c' or 'u' for -used
// which compares access) or modification time.
func fileTime(f *file, kind byte) (time.Time, bool) {
	fi, err := f.stat()
	if err != nil {
		return time.Time{}, false
	}
	switch kind {
	case 'a', 'u':
		return f.sysinfo().atime, true
	case 'c':
		return f.sysinfo().ctime, true
	}
	return fi.ModTime(), true
}

// permBits converts an fs.FileMode's permission bits to POSIX bits.
func permBits(m fs.FileMode) uint32 {
	b := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		b |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		b |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		b |= 0o1000
	}
	return b
}

// compileRegex compiles a -regex pattern of the current -regextype; it
// must match the whole path.
func (p *parser) compileRegex(pat string, fold bool) (*posixre.Regexp, error) {
	opts := posixre.Options{IgnoreCase: fold, Line: true}
	switch p.regexType {
	case "emacs", "findutils-default":
		pat = emacsToERE(pat)
		opts.Extended = true
	case "posix-basic", "grep", "ed", "sed", "posix-minimal-basic":
	default:
		opts.Extended = true
	}
	re, err := posixre.Compile([]string{pat}, opts)
	if err != nil {
		return nil, errorf("%v", err)
	}
	return re, nil
}

// emacsToERE rewrites an Emacs-syntax regular expression (find's default:
// \( \) \| group and alternate, + and ? repeat, braces are literal) as an
// extended one.
func emacsToERE(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			if i+1 < len(s) {
				i++
				switch s[i] {
				case '(', ')', '|':
					b.WriteByte(s[i])
				case '{', '}':
					b.WriteString(`\` + string(s[i]))
				default:
					b.WriteByte('\\')
					b.WriteByte(s[i])
				}
				continue
			}
			b.WriteString(`\\`)
		case '(', ')', '|', '{', '}':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '[':
			// Copy a bracket expression unchanged.
			j := i + 1
			if j < len(s) && s[j] == '^' {
				j++
			}
			if j < len(s) && s[j] == ']' {
				j++
			}
			for j < len(s) && s[j] != ']' {
				if s[j] == '[' && j+1 < len(s) && (s[j+1] == ':' || s[j+1] == '.' || s[j+1] == '=') {
					if k := strings.Index(s[j+2:], string(s[j+1])+"]"); k >= 0 {
						j += k + 4
						continue
					}
				}
				j++
			}
			if j >= len(s) {
				b.WriteString(s[i:])
				return b.String()
			}
			b.WriteString(s[i : j+1])
			i = j
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
