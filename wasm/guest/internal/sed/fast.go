package sed

import (
	"bytes"
	"io"
)

// fastSubst is the whole-buffer path for the commonest scripts, a single
// unaddressed s command that prints nothing of its own.
//
// With a literal pattern that cannot span lines and a literal replacement
// (sed s/a/b/g, sed s/foo/bar/) and the g flag, every occurrence in the
// stream is replaced, so lines need not be split; without it, the first
// occurrence of each line is. The input is rewritten a buffer at a time.
//
// With a regular expression (re set), the automaton finds the lines that
// hold a match across a whole buffer of lines; the lines between are
// copied as they are, and only the others are substituted, straight into
// the output: no pattern space, cycle or write per line.
type fastSubst struct {
	lit, repl []byte
	global    bool
	bufSize   int
	delim     byte

	re   *Regex
	s    *subst
	ncap int // offsets the replacement needs (2: the whole match alone)
	run  substRun
}

// fastBufSize, if positive, overrides the buffer size (for tests).
var fastBufSize int

// planFast returns the fast path for cmds, or nil if the script needs the
// general machine.
func planFast(cmds []*command, quiet, unbuf bool, delim byte) *fastSubst {
	if len(cmds) != 1 || quiet || unbuf {
		return nil
	}
	c := cmds[0]
	if c.name != 's' || c.a1 != nil || c.neg {
		return nil
	}
	s := c.s
	if s.re == nil || s.print > 0 || s.out != nil {
		return nil
	}
	size := 256 << 10
	if fastBufSize > 0 {
		size = fastBufSize
	}
	if s.re.Literal() == nil || bytes.IndexByte(s.re.Literal(), delim) >= 0 || s.nth > 1 {
		if s.maxRef > s.re.NumSubexp() {
			return nil // the general path reports it
		}
		ncap := 2 * (s.re.NumSubexp() + 1)
		if s.maxRef == 0 && !hasGroupZero(s.repl) {
			ncap = 2
		}
		return &fastSubst{re: s.re, s: s, ncap: ncap, bufSize: size, delim: delim}
	}
	var repl []byte
	for _, p := range s.repl {
		if p.kind != rpLit {
			return nil
		}
		repl = append(repl, p.lit...)
	}
	return &fastSubst{lit: s.re.Literal(), repl: repl, global: s.global, bufSize: size, delim: delim}
}

// runFast streams every file of m.in through the fast substitution.
func (m *machine) runFast() error {
	f := m.fast
	o := m.out
	buf := make([]byte, max(f.bufSize, 2*len(f.lit)))
	keep := len(f.lit) - 1
	var out []byte
	for {
		if m.in.r == nil {
			more, err := m.in.open()
			if err != nil || !more {
				return err
			}
		}
		n := 0 // bytes of buf holding unprocessed input
		first := true
		for {
			k, err := m.in.r.Read(buf[n:])
			if k > 0 && first {
				// A previous file that ended without a newline gets one
				// before more output, as in the general path.
				o.fixNL()
				first = false
			}
			n += k
			eof := err == io.EOF
			if err != nil && !eof {
				m.in.closeCur()
				return readError(m.in, err)
			}
			limit := max(n-keep, 0) // matches starting before limit are decidable
			if eof {
				limit = n
			}
			data := buf[:n]
			var pos int
			if f.re != nil {
				var err error
				if out, pos, err = f.substLines(out[:0], data, eof); err != nil {
					o.w.Write(out)
					m.in.closeCur()
					return err
				}
			} else {
				out, pos = f.replace(out[:0], data, limit, eof)
			}
			if eof {
				out = append(out, data[pos:]...)
				o.w.Write(out)
				if n > 0 {
					o.missingNL = data[n-1] != m.delim
				}
				break
			}
			o.w.Write(out)
			n = copy(buf, data[pos:])
			if n == len(buf) {
				// A line longer than the buffer: grow it.
				buf = append(buf, make([]byte, len(buf))...)
			}
		}
		m.in.closeCur()
	}
}

// replace rewrites data[:limit] (and matches that start there) onto out.
// It returns out and how much of data it consumed; without the g flag it
// stops before a line it cannot finish unless eof.
func (f *fastSubst) replace(out, data []byte, limit int, eof bool) ([]byte, int) {
	pos := 0
	if f.global {
		if len(f.lit) == 1 && len(f.repl) == 1 {
			// One byte for another: rewrite in place.
			a, b := f.lit[0], f.repl[0]
			for pos < limit {
				i := bytes.IndexByte(data[pos:limit], a)
				if i < 0 {
					break
				}
				data[pos+i] = b
				pos += i + 1
			}
			return append(out, data[:limit]...), limit
		}
		for pos < limit {
			i := bytes.Index(data[pos:], f.lit)
			if i < 0 || pos+i >= limit {
				break
			}
			out = append(out, data[pos:pos+i]...)
			out = append(out, f.repl...)
			pos += i + len(f.lit)
		}
		if pos < limit {
			out = append(out, data[pos:limit]...)
			pos = limit
		}
		return out, pos
	}
	// First occurrence per line: only whole lines (or the tail at eof).
	for pos < len(data) {
		nl := bytes.IndexByte(data[pos:], f.delim)
		end := pos + nl + 1
		if nl < 0 {
			if !eof {
				break
			}
			end = len(data)
		}
		line := data[pos:end]
		if i := bytes.Index(line, f.lit); i >= 0 {
			out = append(out, line[:i]...)
			out = append(out, f.repl...)
			out = append(out, line[i+len(f.lit):]...)
		} else {
			out = append(out, line...)
		}
		pos = end
	}
	return out, pos
}

// substLines runs the s command on each whole line of data (at eof on
// the last line too, which may lack its end) onto out. It returns out and
// how much of data it consumed; on an error out ends before the line that
// caused it.
func (f *fastSubst) substLines(out, data []byte, eof bool) ([]byte, int, error) {
	end := len(data)
	if !eof {
		end = bytes.LastIndexByte(data, f.delim) + 1
	}
	b := data[:end]
	pos := 0
	for pos < len(b) {
		s, e, ok := f.re.NextLine(b[pos:], f.delim)
		if ok && s < 0 {
			break
		}
		if s < 0 {
			// The automaton cannot tell: the next line, tested alone.
			s, e = 0, len(b)-pos
			if k := bytes.IndexByte(b[pos:], f.delim); k >= 0 {
				e = k + 1
			}
		}
		out = append(out, b[pos:pos+s]...)
		line := b[pos+s : pos+e]
		nl := len(line) > 0 && line[len(line)-1] == f.delim
		if nl {
			line = line[:len(line)-1]
		}
		var err error
		if out, err = f.substLine(out, line, ok); err != nil {
			return out, pos + s, err
		}
		if nl {
			out = append(out, f.delim)
		}
		pos += e
	}
	return append(out, b[pos:]...), end, nil
}

// substLine appends line with the s command run on it to out; known says
// the automaton found a match in it.
func (f *fastSubst) substLine(out, line []byte, known bool) ([]byte, error) {
	n := len(out)
	r := &f.run
	*r = substRun{s: f.s, ps: line, out: out}
	var err error
	if known {
		err = f.re.ForEachSubmatchOfLine(line, f.ncap, r.match)
	} else {
		err = f.re.ForEachSubmatch(line, f.ncap, r.match)
	}
	out = r.out
	r.ps, r.out = nil, nil
	if err != nil {
		return out[:n], &fatalError{err.Error(), exitPanic}
	}
	if !r.done {
		return append(out, line...), nil
	}
	return append(out, line[r.last:]...), nil
}
