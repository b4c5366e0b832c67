package shell

import "strings"

// The restricted shell (bash -r, rbash, set -r), as bash 5.2's manual
// describes it under RESTRICTED SHELL: no cd, PATH, SHELL, ENV, BASH_ENV
// and HISTFILE read-only, no command names with a slash, no `.`, hash -p
// or history file with a slash, no output redirections, no exec of a
// command, no enable -f/-d or enabling a disabled builtin, no command
// -p, no set +r. Functions are not imported from the environment of a
// shell started restricted, and scripts it runs run unrestricted.

// restrictedVars become read-only when the shell turns restricted.
var restrictedVars = []string{"PATH", "SHELL", "ENV", "BASH_ENV", "HISTFILE"}

// makeRestricted turns the shell restricted, as bash's
// maybe_make_restricted does.
func (r *Interp) makeRestricted() {
	for _, n := range restrictedVars {
		v, _ := r.vars.lookup(n)
		if v == nil {
			v = &Var{}
			r.vars.global().vars[n] = v
		}
		v.Attr |= AttrReadonly
	}
	r.opts.restricted = true
}

// startRestricted makes a shell started as rbash, or with -r or
// --restricted, restricted: shopt restricted_shell is on, and the
// functions it imported from its environment are dropped.
func (r *Interp) startRestricted() {
	r.opts.restrictedShell = true
	for name, f := range r.funcs {
		if f.exported {
			delete(r.funcs, name)
		}
	}
	r.makeRestricted()
}

// fixRestrictedShell is what shopt -s or -u restricted_shell does:
// nothing, except that bash's first such attempt fixes the option to
// whether the shell is restricted at that moment (set_restricted_shell).
func (r *Interp) fixRestrictedShell() {
	if !r.restrictedShellFixed {
		r.restrictedShellFixed = true
		r.opts.restrictedShell = r.opts.restrictedShell || r.opts.restricted
	}
}

// isRestrictedName reports whether a shell called name starts
// restricted: its base name is rbash (after a login shell's dash).
func isRestrictedName(name string) bool {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimPrefix(name, "-") == "rbash"
}

// restrictedSlash refuses, in a restricted shell, a file name with a
// slash given to the builtin cmd ("" for an assignment), as bash's
// sh_restricted does, and reports whether it did.
func (r *Interp) restrictedSlash(cmd, name string) bool {
	if !r.opts.restricted || !strings.Contains(name, "/") {
		return false
	}
	r.restrictedErr(cmd, name)
	return true
}

// restrictedErr is bash's sh_restricted: "CMD: WHAT: restricted", or
// "CMD: restricted" when what is "".
func (r *Interp) restrictedErr(cmd, what string) {
	msg := "restricted"
	if what != "" {
		msg = what + ": restricted"
	}
	if cmd == "" {
		r.errorf("%s", msg)
	} else {
		r.builtinErr(cmd, "%s", msg)
	}
}

// restrictedHashTarget checks, in a restricted shell, a path given to
// hash -p or BASH_CMDS: no slash, and a command $PATH finds. It reports
// whether the path is refused (and said why).
func (r *Interp) restrictedHashTarget(cmd, p string) bool {
	if !r.opts.restricted {
		return false
	}
	if r.restrictedSlash(cmd, p) {
		return true
	}
	if _, err := r.lookPath(p); err != nil {
		if cmd == "" {
			r.errorf("%s: not found", p)
		} else {
			r.builtinErr(cmd, "%s: not found", p)
		}
		return true
	}
	return false
}
