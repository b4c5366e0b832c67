package shell

import (
	"bytes"
	"errors"
	"io/fs"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// varFdBase is where {var}> redirections start looking for a free fd:
// bash hands out the lowest free fd from 10 up.
const varFdBase = 10

// maxFd is the highest file descriptor number the shell accepts: the
// default and the hard `ulimit -n` allow 1024 descriptors.
const maxFd = 1023

// withRedirs runs f with redirs applied to a copy of the fd table, then
// restores the table. A failed redirection skips f with status 1.
func (r *Interp) withRedirs(redirs []*syntax.Redirect, f func()) {
	if len(redirs) == 0 {
		f()
		return
	}
	saved, savedVarFds := r.fds, r.varFds
	r.fds, r.varFds = saved.clone(), nil
	defer func() {
		tbl := r.fds
		r.fds = saved
		// The fds {var} redirections opened stay open after their
		// command, unless varredir_close is on.
		if !r.opts.varredirClose {
			for _, fd := range r.varFds {
				if d := tbl.get(fd); d != nil {
					saved.set(fd, d.ref())
				}
			}
		}
		r.varFds = savedVarFds
		tbl.closeAll()
		for _, cp := range r.reaped {
			r.closeCoprocFds(cp)
		}
	}()
	if !r.redirect(redirs) {
		r.status = 1
		return
	}
	f()
}

// redirect applies redirections to r.fds in order. It reports failures
// itself and returns false after one.
func (r *Interp) redirect(redirs []*syntax.Redirect) bool {
	for _, rd := range redirs {
		if !r.redirectOne(rd) {
			return false
		}
	}
	return true
}

// varFd picks the descriptor of a {var} redirection: the lowest free one
// from varFdBase up, under the open-files limit. With none, it says so as
// bash does and returns -1.
func (r *Interp) varFd(rd *syntax.Redirect) int {
	fd := r.fds.lowestFree(varFdBase)
	if fd < r.fdLimit() {
		return fd
	}
	r.errorfLine(0, "redirection error: cannot duplicate fd: Invalid argument")
	if target := r.expandRedirWord(rd.Word); target != nil {
		r.errorf("%s: Invalid argument", *target)
	}
	return -1
}

func (r *Interp) redirectOne(rd *syntax.Redirect) bool {
	// The fd: N>, {var}>, or the operator's default.
	fd := 1
	switch rd.Op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		fd = 0
	}
	varName := ""
	if rd.N != nil {
		n := rd.N.Value
		if strings.HasPrefix(n, "{") && strings.HasSuffix(n, "}") {
			varName = n[1 : len(n)-1]
		} else {
			v, err := strconv.Atoi(n)
			if err != nil || v >= r.fdLimit() {
				r.errorf("%s: Bad file descriptor", n)
				return false
			}
			fd = v
		}
	}
	if varName != "" && rd.Op != syntax.DplIn && rd.Op != syntax.DplOut || varName != "" && r.redirWordIsClose(rd) {
		if r.redirWordIsClose(rd) {
			s, _ := r.getScalar(varName)
			if i := strings.IndexByte(varName, '['); i > 0 && strings.HasSuffix(varName, "]") {
				pv := r.lookupParam(varName[:i], varName[i+1:len(varName)-1], true, nil)
				s = pv.str()
			}
			// bash's redir_varvalue: an unset or empty variable is an
			// ambiguous redirect; a value that is no number is fd 0 (its
			// legal_number leaves 0 behind), truncated to an int, and a
			// negative one is ambiguous again.
			n := 0
			if s == "" {
				n = -1
			} else if v, err := strconv.ParseInt(strings.Trim(s, " \t\n"), 10, 64); err == nil {
				n = int(int32(v))
			}
			if n < 0 {
				r.errorf("%s: ambiguous redirect", varName)
				return false
			}
			r.fds.close(n)
			return true
		}
		return r.redirectVar(rd, varName)
	} else if varName != "" {
		return r.redirectVar(rd, varName)
	}
	return r.redirectFd(rd, fd)
}

// redirectVar performs a {var} redirection: it opens the lowest free fd
// from varFdBase, then assigns its number to var. If var cannot take it
// (readonly), the fd is closed again, as bash does once the file is open.
func (r *Interp) redirectVar(rd *syntax.Redirect, varName string) bool {
	fd := r.varFd(rd)
	if fd < 0 || !r.redirectFd(rd, fd) {
		return false
	}
	if !r.assignChecked(varName, strconv.Itoa(fd)) {
		r.errorf("%s: cannot assign fd to variable", varName)
		r.fds.close(fd)
		return false
	}
	r.varFds = append(r.varFds, fd)
	return true
}

// redirectFd performs rd on descriptor fd.
func (r *Interp) redirectFd(rd *syntax.Redirect, fd int) bool {
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		body := ""
		if rd.Hdoc != nil {
			hdoc := rd.Hdoc
			if rd.Op == syntax.DashHdoc {
				hdoc = stripTabs(hdoc)
			}
			if quotedHeredoc(rd.Word) {
				body = r.literalHeredoc(rd.Hdoc, hdoc, rd.Op == syntax.DashHdoc)
			} else {
				body = r.expandHeredoc(hdoc)
			}
		}
		r.fds.set(fd, r.stringFd(body))
		return true
	case syntax.WordHdoc:
		s := r.expandString(rd.Word)
		r.fds.set(fd, r.stringFd(s+"\n"))
		return true
	}

	target := r.expandRedirWord(rd.Word)
	if target == nil {
		return false
	}
	name := *target
	switch rd.Op {
	case syntax.DplIn, syntax.DplOut:
		if name == "-" {
			r.fds.close(fd)
			return true
		}
		move := strings.HasSuffix(name, "-")
		src := strings.TrimSuffix(name, "-")
		n, err := strconv.Atoi(src)
		if err != nil {
			if rd.Op == syntax.DplOut && rd.N == nil {
				// >&word with a non-number is &>word.
				return r.openRedir(1, name, syntax.RdrAll)
			}
			r.errorf("%s: ambiguous redirect", name)
			return false
		}
		d := r.fds.get(n)
		if d == nil || n >= r.fdLimit() {
			// bash names the word as written: "$fd: Bad file descriptor".
			word := strings.TrimSuffix(r.curText(rd.Word), "-")
			if word == "" {
				word = strconv.Itoa(n)
			}
			r.errorf("%s: Bad file descriptor", word)
			return false
		}
		if n == fd {
			if move {
				r.fds.close(n)
			}
			return true
		}
		r.fds.set(fd, d.ref())
		if move {
			r.fds.close(n)
		}
		return true
	}
	return r.openRedir(fd, name, rd.Op)
}

// redirWordIsClose reports whether rd is {var}>&- or {var}<&-.
func (r *Interp) redirWordIsClose(rd *syntax.Redirect) bool {
	return (rd.Op == syntax.DplIn || rd.Op == syntax.DplOut) && rd.Word != nil && rd.Word.Lit() == "-"
}

// openRedir opens name for fd with the operator's mode.
func (r *Interp) openRedir(fd int, name string, op syntax.RedirOperator) bool {
	if r.opts.restricted && op != syntax.RdrIn {
		// >, >|, <>, >&, &>, >> and &>> all write
		r.errorf("%s: restricted: cannot redirect output", name)
		return false
	}
	if name == "" {
		r.errorf(": No such file or directory")
		return false
	}
	// The shell's own fds by name, as bash does itself.
	if d := r.devFd(name); d != nil || (isDevFdName(name) && !r.isProcSubstFifo(name)) {
		if d == nil {
			r.errorf("%s: Bad file descriptor", name)
			return false
		}
		r.fds.set(fd, d.ref())
		if op == syntax.RdrAll || op == syntax.AppAll {
			r.fds.set(2, d.ref())
		}
		return true
	}
	var flags vfs.OpenFlag
	switch op {
	case syntax.RdrIn:
		flags = vfs.ORead
	case syntax.RdrInOut:
		flags = vfs.ORead | vfs.OWrite | vfs.OCreate
	case syntax.AppOut, syntax.AppAll:
		flags = vfs.OWrite | vfs.OCreate | vfs.OAppend
	case syntax.RdrOut, syntax.RdrAll:
		flags = vfs.OWrite | vfs.OCreate | vfs.OTrunc
		if r.opts.noclobber {
			flags = vfs.OWrite | vfs.OCreate | vfs.OExcl
			if st, err := r.fs().Stat(vfs.RootIno, r.absPath(name), true); err == nil && st.Type != vfs.TypeRegular {
				flags = vfs.OWrite
			}
		}
	case syntax.RdrClob:
		flags = vfs.OWrite | vfs.OCreate | vfs.OTrunc
	default:
		r.errorf("unsupported redirection")
		return false
	}
	f, err := r.fs().Open(vfs.RootIno, r.absPath(name), flags, fs.FileMode(0o666&^r.umask))
	if err != nil {
		if r.opts.noclobber && errors.Is(err, vfs.EEXIST) {
			r.errorf("%s: cannot overwrite existing file", name)
			return false
		}
		r.errorf("%s: %s", name, errnoText(err))
		return false
	}
	d := newVfsFd(f)
	r.fds.set(fd, d)
	if op == syntax.RdrAll || op == syntax.AppAll {
		r.fds.set(2, d.ref())
	}
	return true
}

// isDevFdName reports whether name is one the shell resolves itself.
func isDevFdName(name string) bool {
	if name == "/dev/stdin" || name == "/dev/stdout" || name == "/dev/stderr" {
		return true
	}
	if rest, ok := strings.CutPrefix(name, "/dev/fd/"); ok {
		_, err := strconv.Atoi(rest)
		return err == nil
	}
	return false
}

// devFd returns the description /dev/stdin, /dev/fd/N and friends name.
func (r *Interp) devFd(name string) *fdFile {
	n := -1
	switch name {
	case "/dev/stdin":
		n = 0
	case "/dev/stdout":
		n = 1
	case "/dev/stderr":
		n = 2
	default:
		rest, ok := strings.CutPrefix(name, "/dev/fd/")
		if !ok {
			return nil
		}
		v, err := strconv.Atoi(rest)
		if err != nil {
			return nil
		}
		// A process substitution's FIFO lives in the VFS under this name.
		if r.isProcSubstFifo(name) {
			return nil
		}
		n = v
	}
	return r.fds.get(n)
}

// isProcSubstFifo reports whether name is a process substitution's FIFO
// in the VFS.
func (r *Interp) isProcSubstFifo(name string) bool {
	_, err := r.fs().Stat(vfs.RootIno, name, true)
	return err == nil
}

// stringFd is a description reading s: a here-document or here-string.
// Bash gives them to programs as a file; so does the shell, through an
// unlinked VFS file when s fits, so programs can seek it.
func (r *Interp) stringFd(s string) *fdFile {
	return newStreamFd(bytes.NewReader([]byte(s)), nil)
}

// expandRedirWord expands the target of a redirection: one word, or an
// "ambiguous redirect".
func (r *Interp) expandRedirWord(w *syntax.Word) *string {
	if w == nil {
		return nil
	}
	// a non-interactive shell in posix mode does no pathname expansion
	// on the word
	noglob := r.opts.noglob
	r.opts.noglob = noglob || r.opts.posix
	fields := func() []string {
		defer func() { r.opts.noglob = noglob }()
		return r.expandWords([]*syntax.Word{w})
	}()
	if len(fields) != 1 {
		r.errorf("%s: ambiguous redirect", r.wordText(w))
		return nil
	}
	return &fields[0]
}

// wordText is a word as written.
func (r *Interp) wordText(w *syntax.Word) string {
	if t := r.curText(w); t != "" {
		return t
	}
	var sb strings.Builder
	syntax.NewPrinter().Print(&sb, w)
	return sb.String()
}

// quotedHeredoc reports whether a here-document's delimiter has quotes,
// which turns off expansion in its body.
func quotedHeredoc(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, "\\") {
				return true
			}
		}
	}
	return false
}

// literalHeredoc is the body of a here-document whose delimiter is
// quoted: its text as written. The parser splits such a body into
// expansions when only part of the delimiter is quoted (E"O"F), so the
// text comes from the source then; stripped is raw with <<- tabs removed.
func (r *Interp) literalHeredoc(raw, stripped *syntax.Word, dash bool) string {
	for _, p := range raw.Parts {
		if _, ok := p.(*syntax.Lit); !ok {
			if text := r.curText(raw); text != "" {
				// The parser's end may run into the delimiter line.
				text = text[:strings.LastIndexByte(text, '\n')+1]
				if dash {
					lines := strings.SplitAfter(text, "\n")
					for i, l := range lines {
						lines[i] = strings.TrimLeft(l, "\t")
					}
					text = strings.Join(lines, "")
				}
				return text
			}
			break
		}
	}
	return literalWord(stripped)
}

// literalWord is the text of a word made only of literals.
func literalWord(w *syntax.Word) string {
	var sb strings.Builder
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			sb.WriteString(l.Value)
		}
	}
	return sb.String()
}

// stripTabs removes the leading tabs of every line of a <<- body.
func stripTabs(w *syntax.Word) *syntax.Word {
	out := &syntax.Word{Parts: make([]syntax.WordPart, len(w.Parts))}
	atLineStart := true
	for i, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			out.Parts[i] = p
			atLineStart = false
			continue
		}
		var sb strings.Builder
		for j := 0; j < len(l.Value); j++ {
			c := l.Value[j]
			if atLineStart && c == '\t' {
				continue
			}
			atLineStart = c == '\n'
			sb.WriteByte(c)
		}
		cp := *l
		cp.Value = sb.String()
		out.Parts[i] = &cp
	}
	return out
}
