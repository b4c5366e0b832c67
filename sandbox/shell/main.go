package shell

import (
	"context"
	"errors"
	"io"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// stdinScript is a script the shell reads from a file on its standard
// input, which it shares with the commands it runs.
type stdinScript struct {
	f *vfs.File
	// text is the script from file offset base on, after pad newlines
	// that stand for the lines the shell already read, so that $LINENO
	// counts on.
	text string
	base int64
	pad  int
	// expect is where consumed left the offset for the running command:
	// a command that read on from there moved it, and the shell reads
	// its next command from where that command stopped.
	expect int64
}

// consumed puts the file's offset after the line where st ends (and after
// any here-document it reads), as bash leaves it once it has read the
// command st.
func (s *stdinScript) consumed(st *syntax.Stmt) {
	end := int(st.End().Offset())
	syntax.Walk(st, func(n syntax.Node) bool {
		if rd, ok := n.(*syntax.Redirect); ok && rd.Hdoc != nil {
			end = max(end, int(rd.Hdoc.End().Offset()))
		}
		return true
	})
	end = min(end, len(s.text))
	if i := strings.IndexByte(s.text[end:], '\n'); i >= 0 {
		end += i + 1
	} else {
		end = len(s.text)
	}
	s.expect = s.base + int64(end-s.pad)
	_, _ = s.f.Seek(s.expect, io.SeekStart)
}

// switchTo makes f, now the shell's standard input, the file the script
// is read from, from its current offset on.
func (s *stdinScript) switchTo(f *vfs.File) {
	// $LINENO counts on from the lines read from the first file
	if k := s.expect - s.base; s.expect >= 0 && k >= 0 && k <= int64(len(s.text)-s.pad) {
		s.pad += strings.Count(s.text[s.pad:s.pad+int(k)], "\n")
	}
	s.f = f
	s.expect = -1 // whatever its offset, the next commands come from f
}

// moved reports whether the command just run read from the script's file
// (or seeked it), and if so, reads the rest of the script from where it
// left the offset, which becomes the text the shell runs on with.
func (s *stdinScript) moved(limit int) (rest string, ok bool) {
	off, err := s.f.Seek(0, io.SeekCurrent)
	if err != nil || off == s.expect {
		return "", false
	}
	// $LINENO counts the lines the shell read, not those others read.
	lines := s.pad
	if k := s.expect - s.base; s.expect >= 0 && k >= 0 && k <= int64(len(s.text)-s.pad) {
		lines += strings.Count(s.text[s.pad:s.pad+int(k)], "\n")
	}
	b, _ := io.ReadAll(io.LimitReader(s.f, int64(limit)))
	_, _ = s.f.Seek(off, io.SeekStart)
	s.base, s.pad, s.expect = off, lines, off
	s.text = strings.Repeat("\n", lines) + string(b)
	return s.text, true
}

// Main runs the shell as the program `bash ARGS...` would run: options
// (-c, -e, -u, -x, -o NAME, --posix, ...), then a -c string with $0 and
// the positional parameters, a script file, or a script read from
// standard input. It returns the exit status. readScript reads a script
// file (or returns an error message); stdin is read to its end when the
// script comes from it, at most limit bytes.
func (r *Interp) Main(ctx context.Context, args []string, stdin io.Reader, limit int) int {
	r.ctx = ctx
	name := "bash"
	if len(args) > 0 {
		name = args[0]
	}
	r.arg0 = name
	rest := args[1:]
	command := false
	restricted := isRestrictedName(name)
	for len(rest) > 0 && len(rest[0]) > 1 && (rest[0][0] == '-' || rest[0][0] == '+') {
		a := rest[0]
		rest = rest[1:]
		if a == "--" || a == "-" {
			break
		}
		if strings.HasPrefix(a, "--") {
			switch a {
			case "--posix":
				r.opts.posix = true
			case "--restricted":
				restricted = true
			case "--version":
				return r.writeOut(name, "GNU bash, version "+bashVersion+" ("+machType+")\n"+bashVersionText)
			case "--help":
				return r.writeOut(name, "GNU bash, version "+bashVersion+"-("+machType+")\n"+bashHelpText)
			}
			continue // --norc, --noprofile and friends mean nothing here
		}
		on := a[0] == '-'
		for _, c := range a[1:] {
			switch c {
			case 'c':
				command = true
			case 'o':
				if len(rest) > 0 {
					r.setLongOption(rest[0], on)
					rest = rest[1:]
				}
			case 'O':
				if len(rest) > 0 {
					for _, o := range r.opts.shoptOptions() {
						if o.name == rest[0] && o.p != nil && o.name != "restricted_shell" {
							*o.p = on
						}
					}
					rest = rest[1:]
				}
			case 'r':
				restricted = restricted || on
			case 's', 'i', 'l':
			default:
				if !r.setFlag(byte(c), on) {
					r.writeErr(name + ": -" + string(c) + ": invalid option\n")
					return 2
				}
			}
		}
	}
	if restricted {
		r.startRestricted()
	}
	var src string
	switch {
	case command:
		if len(rest) == 0 {
			r.writeErr(name + ": -c: option requires an argument\n")
			return 2
		}
		src = rest[0]
		r.cmdString = true
		r.setExecutionString(src)
		if len(rest) > 1 {
			r.arg0 = rest[1]
			r.params = append([]string(nil), rest[2:]...)
		}
		return r.Run(ctx, src, "")
	case len(rest) > 0:
		b, err := r.fs().ReadFile(r.absPath(rest[0]))
		if err != nil {
			r.writeErr(name + ": " + rest[0] + ": " + errnoText(err) + "\n")
			return 127
		}
		r.arg0 = rest[0]
		r.mainSource = rest[0]
		r.params = append([]string(nil), rest[1:]...)
		return r.Run(ctx, string(b), rest[0])
	default:
		if stdin == nil {
			return 0
		}
		// bash reads a script on standard input a command at a time,
		// so the commands it runs read on from where the script's
		// current command ends. From a file, the whole script is read
		// here and the offset put back after each command (stdinScript).
		base := int64(-1)
		f, seekable := stdin.(*vfs.File)
		if seekable {
			if off, err := f.Seek(0, io.SeekCurrent); err == nil {
				base = off
			}
		}
		if base < 0 {
			return r.runStream(ctx, name, stdin, limit)
		}
		b, err := io.ReadAll(io.LimitReader(stdin, int64(limit)+1))
		if err != nil {
			return 1
		}
		if len(b) > limit {
			r.writeErr(name + ": script on standard input is larger than the output limit\n")
			return 1
		}
		if base >= 0 {
			r.stdinScript = &stdinScript{f: f, base: base, text: string(b), expect: base}
			defer func() { r.stdinScript = nil }()
		}
		return r.Run(ctx, string(b), "")
	}
}

// RunScript runs src as the script file name with args as its positional
// parameters, as `bash name args...` would, in this shell: messages say
// "name: line N:", $0 is name. $0 and the positional parameters are
// restored afterwards.
func (r *Interp) RunScript(ctx context.Context, src, name string, args []string) int {
	savedArg0, savedParams, savedMain, savedCmd := r.arg0, r.params, r.mainSource, r.cmdString
	defer func() {
		r.arg0, r.params, r.mainSource, r.cmdString = savedArg0, savedParams, savedMain, savedCmd
	}()
	r.arg0, r.mainSource, r.cmdString = name, name, false
	r.params = append([]string(nil), args...)
	return r.Run(ctx, src, name)
}

// machType is the system type bash was built for, as in BASH_VERSINFO.
const machType = "wasm32-wasmsand-linux-gnu"

// bashVersionText follows the first line of bash --version.
const bashVersionText = `Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <http://gnu.org/licenses/gpl.html>

This is free software; you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.
`

// bashHelpText follows the first line of bash --help.
const bashHelpText = `Usage:	bash [GNU long option] [option] ...
	bash [GNU long option] [option] script-file ...
GNU long options:
	--debug
	--debugger
	--dump-po-strings
	--dump-strings
	--help
	--init-file
	--login
	--noediting
	--noprofile
	--norc
	--posix
	--pretty-print
	--rcfile
	--restricted
	--verbose
	--version
Shell options:
	-ilrsD or -c command or -O shopt_option		(invocation only)
	-abefhkmnptuvxBCEHPT or -o option
Type ` + "`" + `bash -c "help set"' for more information about shell options.
Type ` + "`" + `bash -c help' for more information about shell builtin commands.
Use the ` + "`" + `bashbug' command to report bugs.

bash home page: <http://www.gnu.org/software/bash>
General help using GNU software: <http://www.gnu.org/gethelp/>
`

// streamParseFree is how long a command read from a stream may grow
// before runStream stops trying to parse it at every line. A longer
// multi-line command may then be read a few lines past its end, which
// matters only if it reads from the same stream.
const streamParseFree = 64 << 10

// openQuote returns the character that closes the quote an incomplete
// parse reports open, or 0 when the command is incomplete for another
// reason. The parser names the quote's token written with %#q:
// reached EOF without closing quote `"` (or `'`, `$'`, `$"`, "`").
func openQuote(err error) byte {
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		return 0
	}
	q, ok := strings.CutPrefix(pe.Text, "reached EOF without closing quote ")
	if !ok || len(q) < 3 {
		return 0
	}
	switch tok := q[1 : len(q)-1]; tok {
	case `"`, `'`, "`", `$'`, `$"`:
		return tok[len(tok)-1]
	}
	return 0
}

// runStream runs a script read from a stream that cannot seek (a pipe) as
// bash does: it reads a line at a time, a byte at a time, no further than
// the command it is about to run needs, so that the commands read on from
// the stream: `printf 'read x\nhello\necho $x\n' | bash` prints hello.
func (r *Interp) runStream(ctx context.Context, name string, in io.Reader, limit int) int {
	return r.runWith(ctx, func() {
		var text strings.Builder
		lines, parsedAt := 0, 0
		var closer byte // the quote the last parse found open, if any
		b := make([]byte, 1)
		for {
			eof := false
			lineStart := text.Len()
			for {
				n, err := in.Read(b)
				if n == 1 {
					text.WriteByte(b[0])
					if b[0] == '\n' {
						break
					}
				}
				if err != nil {
					eof = true
					break
				}
				if text.Len() > limit {
					break
				}
			}
			// Only the command being read is held: one that never ends
			// (an open quote on an endless stream) stops here.
			if text.Len() > limit {
				r.writeErr(name + ": a command on standard input is larger than the output limit\n")
				r.status = 1
				return
			}
			src := text.String()
			if src == "" {
				return
			}
			// Parsing again at every line of a command that is still
			// open costs time quadratic in its length. Inside a quote
			// left open, only a line holding its closing character can
			// change the parse (checked first, so that line is seen even
			// when the next rule skips it); past streamParseFree bytes,
			// the parse waits until the command grew by an eighth.
			if closer != 0 {
				if !eof && strings.IndexByte(src[lineStart:], closer) < 0 {
					continue
				}
				closer = 0
			}
			if !eof && len(src) > streamParseFree && len(src) < parsedAt+parsedAt/8 {
				continue
			}
			parsedAt = len(src)
			_, err := parseBash(src, "")
			if err != nil && syntax.IsIncomplete(err) && !eof {
				closer = openQuote(err)
				continue // the command goes on in the next line
			}
			parsedAt, closer = 0, 0
			r.runSourceAt(src, "", lines)
			lines += strings.Count(src, "\n")
			text.Reset()
			if eof || err != nil || r.exiting || r.fatal != nil {
				return
			}
		}
	})
}
