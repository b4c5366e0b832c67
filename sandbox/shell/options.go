package shell

import (
	"sort"
	"strings"
)

// options are the shell's set -o and shopt options.
type options struct {
	// set -o
	allexport, errexit, errtrace, functrace, noclobber, noglob, nounset bool
	xtrace, verbose, pipefail, posix, noexec, monitor, hashall, noBrace bool
	// shopt
	extglob, nullglob, failglob, dotglob, globstar, nocaseglob, nocasematch bool
	lastpipe, expandAliases, patsubReplacement, inheritErrexit, xpgEcho     bool
	globskipdots                                                            bool
	globasciiranges, sourcepath                                             bool
	physical, shiftVerbose                                                  bool
	extdebug                                                                bool
	varredirClose                                                           bool // {var} fds close after their command
	keyword                                                                 bool // set -k
	restricted                                                              bool // set -r (restricted.go)
	restrictedShell                                                         bool // shopt restricted_shell: started restricted
}

func defaultOptions() options {
	return options{hashall: true, patsubReplacement: true, globasciiranges: true, sourcepath: true, globskipdots: true}
}

// setOptions lists set -o names with their fields, in bash's order.
func (o *options) setOptions() []namedOpt {
	return []namedOpt{
		{"allexport", &o.allexport}, {"braceexpand", nil}, {"emacs", nil}, {"errexit", &o.errexit},
		{"errtrace", &o.errtrace}, {"functrace", &o.functrace}, {"hashall", &o.hashall},
		{"histexpand", nil}, {"history", nil}, {"ignoreeof", nil}, {"interactive-comments", nil},
		{"keyword", &o.keyword}, {"monitor", &o.monitor}, {"noclobber", &o.noclobber}, {"noexec", &o.noexec},
		{"noglob", &o.noglob}, {"nolog", nil}, {"notify", nil}, {"nounset", &o.nounset},
		{"onecmd", nil}, {"physical", &o.physical}, {"pipefail", &o.pipefail}, {"posix", &o.posix},
		{"privileged", nil}, {"verbose", &o.verbose}, {"vi", nil}, {"xtrace", &o.xtrace},
	}
}

// restoreSet restores the set -o options from saved (shopt options stay),
// as a function's `local -` does when it returns.
func (o *options) restoreSet(saved *options) {
	cur, old := o.setOptions(), saved.setOptions()
	for i := range cur {
		if cur[i].p != nil {
			*cur[i].p = *old[i].p
		}
	}
	o.noBrace = saved.noBrace
}

type namedOpt struct {
	name string
	p    *bool
}

// shoptOptions lists the shopt names the shell knows; those without a
// field are accepted and reported with their bash defaults.
func (o *options) shoptOptions() []namedOpt {
	list := []namedOpt{
		{"shift_verbose", &o.shiftVerbose},
		{"dotglob", &o.dotglob}, {"expand_aliases", &o.expandAliases}, {"extglob", &o.extglob},
		{"failglob", &o.failglob}, {"globasciiranges", &o.globasciiranges}, {"globskipdots", &o.globskipdots}, {"globstar", &o.globstar},
		{"inherit_errexit", &o.inheritErrexit}, {"lastpipe", &o.lastpipe}, {"nocaseglob", &o.nocaseglob},
		{"nocasematch", &o.nocasematch}, {"nullglob", &o.nullglob}, {"patsub_replacement", &o.patsubReplacement},
		{"sourcepath", &o.sourcepath}, {"xpg_echo", &o.xpgEcho}, {"extdebug", &o.extdebug},
		{"varredir_close", &o.varredirClose}, {"restricted_shell", &o.restrictedShell},
	}
	for _, n := range []string{"assoc_expand_once", "autocd", "cdable_vars", "cdspell", "checkhash",
		"checkjobs", "checkwinsize", "cmdhist", "compat31", "compat32", "compat40", "compat41",
		"compat42", "compat43", "compat44", "complete_fullquote", "direxpand", "dirspell",
		"execfail", "extquote", "force_fignore", "gnu_errfmt",
		"histappend", "histreedit", "histverify", "hostcomplete", "huponexit", "interactive_comments",
		"localvar_inherit", "localvar_unset", "login_shell", "mailwarn", "no_empty_cmd_completion",
		"noexpand_translation", "progcomp", "progcomp_alias", "promptvars"} {
		list = append(list, namedOpt{n, nil})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].name < list[j].name })
	return list
}

// shoptDefaultOn are the field-less shopt options bash turns on.
var shoptDefaultOn = map[string]bool{
	"checkwinsize": true, "cmdhist": true, "complete_fullquote": true, "extquote": true,
	"force_fignore": true, "globskipdots": true, "hostcomplete": true, "interactive_comments": true,
	"progcomp": true, "promptvars": true,
}

// optionFlags is $-.
func (r *Interp) optionFlags() string {
	var sb strings.Builder
	o := &r.opts
	for _, f := range []struct {
		c  byte
		on bool
	}{{'a', o.allexport}, {'e', o.errexit}, {'f', o.noglob}, {'h', o.hashall}, {'k', o.keyword},
		{'m', o.monitor}, {'n', o.noexec}, {'r', o.restricted}, {'u', o.nounset}, {'v', o.verbose},
		{'x', o.xtrace}} {
		if f.on {
			sb.WriteByte(f.c)
		}
	}
	if !o.noBrace {
		sb.WriteByte('B')
	}
	if o.noclobber {
		sb.WriteByte('C')
	}
	if o.errtrace {
		sb.WriteByte('E')
	}
	if o.physical {
		sb.WriteByte('P')
	}
	if o.functrace {
		sb.WriteByte('T')
	}
	if r.cmdString {
		sb.WriteByte('c')
	}
	return sb.String()
}

// shellopts is $SHELLOPTS.
func (r *Interp) shellopts() string {
	var on []string
	for _, o := range r.opts.setOptions() {
		if o.p != nil && *o.p || o.p == nil && (o.name == "braceexpand" && !r.opts.noBrace || o.name == "interactive-comments") {
			on = append(on, o.name)
		}
	}
	return strings.Join(on, ":")
}

// bashopts is $BASHOPTS.
func (r *Interp) bashopts() string {
	var on []string
	for _, o := range r.opts.shoptOptions() {
		if o.p != nil && *o.p || o.p == nil && shoptDefaultOn[o.name] {
			on = append(on, o.name)
		}
	}
	return strings.Join(on, ":")
}

// setFlag sets a single-letter option; it reports false for an unknown
// letter.
func (r *Interp) setFlag(c byte, on bool) bool {
	o := &r.opts
	switch c {
	case 'a':
		o.allexport = on
	case 'e':
		o.errexit = on
	case 'f':
		o.noglob = on
	case 'h':
		o.hashall = on
	case 'm':
		o.monitor = on
	case 'n':
		o.noexec = on
	case 'u':
		o.nounset = on
	case 'v':
		o.verbose = on
	case 'x':
		o.xtrace = on
	case 'B':
		o.noBrace = !on
	case 'C':
		o.noclobber = on
	case 'E':
		o.errtrace = on
	case 'T':
		o.functrace = on
	case 'P':
		o.physical = on
	case 'k':
		o.keyword = on
	case 'r':
		// set +r cannot undo it
		if on {
			r.makeRestricted()
		} else if o.restricted {
			return false
		}
	case 'b', 'p', 'H', 't':
	default:
		return false
	}
	return true
}

// setLongOption sets a set -o option by name.
func (r *Interp) setLongOption(name string, on bool) bool {
	if name == "braceexpand" {
		r.opts.noBrace = !on
		return true
	}
	for _, o := range r.opts.setOptions() {
		if o.name == name {
			if o.p != nil {
				*o.p = on
			}
			return true
		}
	}
	return false
}

// patternMode is the pattern matching mode the options give.
func (r *Interp) patternMode(nocase bool) patternMode {
	var m patternMode
	if r.opts.extglob {
		m |= patternExtglob
	}
	if nocase {
		m |= patternNoCase
	}
	return m
}

// matchPattern matches s against an escaped pattern.
func (r *Interp) matchPattern(pat, s string, nocase bool) bool {
	m, err := patternCompile(pat, r.patternMode(nocase))
	if err != nil {
		return pat == s
	}
	return m.match(s)
}

// globOptions are the options pathname expansion uses.
func (r *Interp) globOptions() globOptions {
	g := globOptions{
		Dotglob: r.opts.dotglob, Nullglob: r.opts.nullglob, Failglob: r.opts.failglob,
		Nocaseglob: r.opts.nocaseglob, Extglob: r.opts.extglob, Globstar: r.opts.globstar,
		Globskipdots: r.opts.globskipdots,
	}
	if ig, ok := r.getScalar("GLOBIGNORE"); ok && ig != "" {
		g.Ignore = splitGlobIgnore(ig)
	}
	return g
}

// splitGlobIgnore splits GLOBIGNORE on the colons outside brackets and
// extglob groups, as bash does.
func splitGlobIgnore(s string) []string {
	var out []string
	depth, bracket, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case c == '[':
			bracket = true
		case c == ']':
			bracket = false
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case c == ':' && depth == 0 && !bracket:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
