package shell

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// readUntil reads bytes from fd up to delim (not included) or nchars
// characters (when > 0). It reports whether the delimiter was seen (or
// nchars reached) and whether anything was read. Pipes are read a byte
// at a time so that what follows stays for the next reader; files are
// read in blocks and the rest is given back.
func (r *Interp) readUntil(fd int, delim byte, nchars int, raw bool, timeout time.Duration) (line []byte, complete, any bool, err error) {
	return r.readUntilNUL(fd, delim, nchars, raw, timeout, false)
}

// readUntilNUL is readUntil; with keepNUL, NUL bytes stay in the line
// (mapfile truncates there, where read drops them).
func (r *Interp) readUntilNUL(fd int, delim byte, nchars int, raw bool, timeout time.Duration, keepNUL bool) (line []byte, complete, any bool, err error) {
	d := r.fds.get(fd)
	if d == nil {
		return nil, false, false, errBadFd
	}
	if !d.readable() {
		return nil, false, false, errBadFd
	}
	block := d.seekable()
	buf := make([]byte, 1)
	if block {
		buf = make([]byte, 512)
	}
	count := 0
	pending := 0 // continuation bytes the last character still needs
	escaped := false
	ctx := r.ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	for {
		n, rerr := d.read(ctx, buf)
		for i := 0; i < n; i++ {
			c := buf[i]
			any = true
			if c == 0 && delim != 0 && !keepNUL {
				continue // bash drops NUL bytes
			}
			if !raw && !escaped && c == '\\' {
				escaped = true
				line = append(line, c)
				continue
			}
			if escaped {
				escaped = false
				if c == '\n' {
					line = line[:len(line)-1] // line continuation
					continue
				}
				line = append(line, c)
				count++
				if nchars > 0 && count >= nchars {
					d.unread(buf[i+1 : n])
					return line, true, any, nil
				}
				continue
			}
			if c == delim && nchars >= 0 {
				d.unread(buf[i+1 : n])
				return line, true, any, nil
			}
			line = append(line, c)
			if c < 0x80 || c >= 0xc0 {
				count++
				pending = utf8SeqLen(c) - 1
			} else if pending > 0 {
				pending--
			}
			if nchars != 0 && count >= abs(nchars) && pending == 0 {
				d.unread(buf[i+1 : n])
				return line, true, any, nil
			}
			if len(line) > r.sh.cfg.Limits.MaxStringBytes {
				r.fail(1, "read: line longer than %d bytes", r.sh.cfg.Limits.MaxStringBytes)
			}
		}
		if rerr != nil {
			if rerr == io.EOF {
				return line, false, any, nil
			}
			if ctxDone(r.ctx) {
				panic(&exitError{status: 124, fatal: true})
			}
			if ctxDone(ctx) {
				return line, false, any, errReadTimeout
			}
			return line, false, any, rerr
		}
		if n == 0 {
			return line, false, any, nil
		}
	}
}

// errReadTimeout is read -t running out of time.
var errReadTimeout = errors.New("read timed out")

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// readLine reads one raw line from fd, for select.
func (r *Interp) readLine(fd int) (string, bool) {
	b, complete, any, err := r.readUntil(fd, '\n', 0, true, 0)
	if err != nil || !complete && !any {
		return "", false
	}
	return string(b), true
}

func builtinRead(r *Interp, args []string) int {
	raw, silent := false, false
	delim := byte('\n')
	nchars := 0
	fd := 0
	prompt := ""
	arrayName := ""
	var timeout time.Duration
	hasTimeout, hasN := false, false
	args = args[1:]
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			needArg := strings.IndexByte("adinNptu", c) >= 0
			val := ""
			if needArg {
				if j+1 < len(a) {
					val = a[j+1:]
				} else if len(args) > 0 {
					val, args = args[0], args[1:]
				} else {
					r.builtinErr("read", "-%c: option requires an argument", c)
					r.writeErr("read: usage: " + synopses["read"] + "\n")
					return 2
				}
				j = len(a)
			}
			switch c {
			case 'r':
				raw = true
			case 's':
				silent = true
			case 'e', 'i':
			case 'a':
				arrayName = val
			case 'd':
				if val == "" {
					delim = 0
				} else {
					delim = val[0]
				}
			case 'n', 'N':
				n, err := strconv.Atoi(val)
				if err != nil || n < 0 {
					r.builtinErr("read", "%s: invalid number", val)
					return 1
				}
				nchars, hasN = n, true
				if c == 'N' {
					nchars = -n
					if n == 0 {
						nchars = 0
					}
				}
			case 'p':
				prompt = val
			case 't':
				f, err := strconv.ParseFloat(val, 64)
				if err != nil || f < 0 {
					r.builtinErr("read", "%s: invalid timeout specification", val)
					return 1
				}
				timeout, hasTimeout = time.Duration(f*float64(time.Second)), true
			case 'u':
				n, err := strconv.Atoi(val)
				if err != nil || n < 0 {
					r.builtinErr("read", "%s: invalid file descriptor specification", val)
					return 1
				}
				fd = n
			default:
				r.builtinErr("read", "-%c: invalid option", c)
				r.writeErr("read: usage: " + synopses["read"] + "\n")
				return 2
			}
		}
	}
	_ = silent
	names := args
	badName := false
	for i, n := range names {
		if !validTarget(n) {
			if i == 0 {
				r.builtinErr("read", "`%s': not a valid identifier", n)
				return 1
			}
			// bash reads, assigns the names before it and stops there.
			badName = true
		}
	}
	if d := r.fds.get(fd); d == nil {
		if fd == 0 {
			r.builtinErr("read", "read error: %d: Bad file descriptor", fd)
		} else {
			r.builtinErr("read", "%d: invalid file descriptor: Bad file descriptor", fd)
		}
		return 1
	}
	if hasN && nchars == 0 {
		// read -n 0 reads nothing.
		r.assignRead(names, arrayName, "", true)
		return 0
	}
	if hasTimeout && timeout == 0 {
		// read -t 0: is input available? A file or a host stream is.
		d := r.fds.get(fd)
		if d.vf != nil {
			st, err := d.vf.Stat()
			if err == nil && st.Type == vfs.TypeFIFO && st.Size == 0 {
				return 1
			}
		}
		return 0
	}
	// The prompt is for a terminal, which the sandbox never has.
	_ = prompt
	exact := nchars < 0 // -N: exactly n chars, delimiter ignored
	rdelim := delim
	if exact {
		rdelim = 0
	}
	n := nchars
	if exact {
		n = -nchars
	}
	nArg := n
	if exact {
		nArg = -n
		if n == 0 {
			nArg = 0
		}
	}
	line, complete, any, err := r.readUntil(fd, rdelim, nArg, raw, timeout)
	if err == errReadTimeout {
		if exact {
			r.assignRead(names, arrayName, string(line), true)
		} else {
			r.assignRead(names, arrayName, rawForSplit(string(line), raw), false)
		}
		return 142
	}
	if err != nil {
		r.builtinErr("read", "read error: %d: %s", fd, errnoText(err))
		return 1
	}
	text := string(line)
	if !raw {
		text = unescapeRead(text)
	}
	status := 0
	if !complete {
		status = 1
	}
	if !any && !complete {
		status = 1
	}
	if badName {
		status = 1
	}
	if exact {
		if !r.assignRead(names, arrayName, string(line), true) {
			return 1
		}
		return status
	}
	if !r.assignRead(names, arrayName, rawForSplit(string(line), raw), false) {
		return 1 // a readonly name, for one
	}
	_ = text
	return status
}

// rawForSplit keeps backslashes for the splitter, which treats an
// escaped character as literal and then removes the backslash.
func rawForSplit(s string, raw bool) string {
	if raw {
		return "\x00raw" + s
	}
	return s
}

// unescapeRead removes the backslashes read without -r.
func unescapeRead(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// assignRead splits a line read by read into names (or an array) with
// IFS, as bash does: leading and trailing IFS whitespace are trimmed, the
// last name gets the rest of the line.
func (r *Interp) assignRead(names []string, arrayName, line string, noSplit bool) bool {
	ok := true
	raw := strings.HasPrefix(line, "\x00raw")
	if raw {
		line = line[4:]
	}
	// escaped[i] marks bytes that a backslash quoted (without -r).
	var b []byte
	var esc []bool
	for i := 0; i < len(line); i++ {
		if !raw && line[i] == '\\' && i+1 < len(line) {
			i++
			b = append(b, line[i])
			esc = append(esc, true)
			continue
		}
		if !raw && line[i] == '\\' {
			continue
		}
		b = append(b, line[i])
		esc = append(esc, false)
	}
	if noSplit {
		if len(names) == 0 && arrayName == "" {
			r.assignQuiet("REPLY", string(b))
		} else if len(names) > 0 {
			ok = r.assignChecked(names[0], string(b))
		}
		return ok
	}
	ifs, isSet := r.getScalar("IFS")
	if !isSet {
		ifs = " \t\n"
	}
	if len(names) == 0 && arrayName == "" {
		r.assignQuiet("REPLY", string(b))
		return ok
	}
	isIFS := func(i int) bool { return !esc[i] && strings.IndexByte(ifs, b[i]) >= 0 }
	isWS := func(i int) bool { return isIFS(i) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n') }
	// Split into fields, remembering where each starts so the last name
	// can take the rest of the line.
	type span struct{ s, e int }
	var fields []span
	i := 0
	for i < len(b) && isWS(i) {
		i++
	}
	start := i
	for i <= len(b) {
		if i == len(b) {
			if i > start {
				fields = append(fields, span{start, i})
			}
			break
		}
		if isIFS(i) {
			fields = append(fields, span{start, i})
			ws := isWS(i)
			i++
			for i < len(b) && isWS(i) {
				i++
			}
			if ws && i < len(b) && isIFS(i) && !isWS(i) {
				i++
				for i < len(b) && isWS(i) {
					i++
				}
			}
			start = i
			continue
		}
		i++
	}
	if arrayName != "" {
		a := &IndexedArray{}
		for k, f := range fields {
			a.Set(int64(k), string(b[f.s:f.e]))
		}
		if v := r.vars.get(arrayName); v != nil && v.Attr&AttrReadonly != 0 {
			r.errorf("%s: readonly variable", arrayName)
			return false
		}
		rname, _, _ := r.vars.resolve(arrayName)
		v, _ := r.vars.lookup(rname)
		if v == nil {
			v = &Var{}
			r.vars.global().vars[rname] = v
		}
		v.Attr = v.Attr&^AttrAssoc | AttrIndexed
		v.Index, v.Assoc, v.Set, v.Str = a, nil, true, ""
		return ok
	}
	for k, n := range names {
		val := ""
		switch {
		case k >= len(fields):
		case k == len(names)-1:
			// The rest of the line, with trailing IFS whitespace trimmed.
			end := len(b)
			for end > fields[k].s && isWS(end-1) {
				end--
			}
			// A single trailing non-whitespace delimiter is dropped too.
			rest := fields[k].s
			val = string(b[rest:end])
			if len(fields) == len(names) && end > 0 && end-1 >= rest && isIFS(end-1) && !isWS(end-1) && fields[k].e <= end-1 {
				only := true // only IFS whitespace between the field and it
				for j := fields[k].e; j < end-1; j++ {
					only = only && isWS(j)
				}
				if only {
					val = string(b[rest:fields[k].e])
				}
			}
		default:
			val = string(b[fields[k].s:fields[k].e])
		}
		if !validTarget(n) {
			r.builtinErr("read", "`%s': not a valid identifier", n)
			return false
		}
		ok = r.assignChecked(n, val) && ok
	}
	return ok
}

// validTarget reports whether s names a variable or an array element,
// name[subscript], as read assigns to.
func validTarget(s string) bool {
	if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") && len(s) > i+2 {
		return validName(s[:i])
	}
	return validName(s)
}

func builtinMapfile(r *Interp, args []string) int {
	delim := byte('\n')
	trim := false
	count, origin, skip := 0, 0, 0
	fd := 0
	name := "MAPFILE"
	hasOrigin := false
	callback, quantum := "", 5000
	args = args[1:]
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		c := a[1]
		val := ""
		if strings.IndexByte("dnOsuCc", c) >= 0 {
			if len(a) > 2 {
				val = a[2:]
			} else if len(args) > 0 {
				val, args = args[0], args[1:]
			}
		}
		num := func() (int, bool) {
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				r.builtinErr(args0(a), "%s: invalid number", val)
				return 0, false
			}
			return n, true
		}
		var ok = true
		switch c {
		case 't':
			trim = true
		case 'd':
			if val == "" {
				delim = 0
			} else {
				delim = val[0]
			}
		case 'n':
			count, ok = num()
		case 'O':
			origin, ok = num()
			hasOrigin = true
		case 's':
			skip, ok = num()
		case 'u':
			fd, ok = num()
		case 'C':
			callback = val
		case 'c':
			quantum, ok = num()
			if ok && quantum == 0 {
				r.builtinErr("mapfile", "%s: invalid callback quantum", val)
				return 1
			}
		default:
			r.builtinErr("mapfile", "-%c: invalid option", c)
			if syn, ok := synopses["mapfile"]; ok {
				r.writeErr("mapfile: usage: " + syn + "\n")
			}
			return 2
		}
		if !ok {
			return 1
		}
	}
	if len(args) > 0 {
		name = args[0]
	}
	if !validName(name) {
		r.builtinErr("mapfile", "`%s': not a valid identifier", name)
		return 1
	}
	if r.fds.get(fd) == nil {
		r.builtinErr("mapfile", "%d: invalid file descriptor: Bad file descriptor", fd)
		return 1
	}
	rname, _, _ := r.vars.resolve(name)
	v, _ := r.vars.lookup(rname)
	if v != nil && v.Attr&AttrReadonly != 0 {
		r.errorf("%s: readonly variable", rname)
		return 1
	}
	if v != nil && v.Attr&AttrAssoc != 0 {
		r.builtinErr("mapfile", "%s: not an indexed array", name)
		return 1
	}
	if v == nil {
		v = &Var{}
		r.vars.top().vars[rname] = v
		if r.funcDepth == 0 {
			r.vars.global().vars[rname] = v
		}
	}
	if !hasOrigin || v.Attr&AttrIndexed == 0 {
		v.Index = &IndexedArray{}
	}
	v.Attr = v.Attr&^AttrAssoc | AttrIndexed
	v.Set, v.Str = true, ""
	idx := int64(origin)
	read := 0
	for count == 0 || read < count {
		line, complete, any, err := r.readUntilNUL(fd, delim, 0, true, 0, true)
		if err != nil || !complete && !any {
			break
		}
		if skip > 0 {
			skip--
			continue
		}
		s := string(line)
		if complete && !trim {
			s += string(delim)
		}
		// bash's strings end at a NUL: a line read up to a NUL
		// delimiter keeps none, and nothing after a NUL inside one.
		if i := strings.IndexByte(s, 0); i >= 0 {
			s = s[:i]
		}
		if callback != "" && (read+1)%quantum == 0 {
			r.nestedEval(func() {
				r.evalString(callback+" "+strconv.FormatInt(idx, 10)+" "+shellQuote(s), r.sourceName())
			})
		}
		v.Index.Set(idx, s)
		idx++
		read++
		if !complete {
			break
		}
	}
	return 0
}

func args0(a string) string { return "mapfile" }

// utf8SeqLen is the length of the UTF-8 sequence lead byte c starts (1
// for ASCII and for bytes that start none).
func utf8SeqLen(c byte) int {
	switch {
	case c >= 0xf8:
		return 1
	case c >= 0xf0:
		return 4
	case c >= 0xe0:
		return 3
	case c >= 0xc0:
		return 2
	}
	return 1
}
