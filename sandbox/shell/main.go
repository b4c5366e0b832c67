package shell

import (
	"context"
	"io"
	"strings"
)

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
						if o.name == rest[0] && o.p != nil {
							*o.p = on
						}
					}
					rest = rest[1:]
				}
			case 's', 'i', 'l', 'r':
			default:
				if !r.setFlag(byte(c), on) {
					r.writeErr(name + ": -" + string(c) + ": invalid option\n")
					return 2
				}
			}
		}
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
		b, err := io.ReadAll(io.LimitReader(stdin, int64(limit)+1))
		if err != nil {
			return 1
		}
		if len(b) > limit {
			r.writeErr(name + ": script on standard input is larger than the output limit\n")
			return 1
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
