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
	// misc are the options the shell keeps but does not act on, by
	// their place in miscOptions.
	misc [len(miscOptions)]bool
}

// miscOptions are the set -o and shopt options that only hold a value
// here: an interactive shell's, or ones whose effect the sandbox lacks.
var miscOptions = [...]string{
	// set -o
	"emacs", "histexpand", "history", "ignoreeof", "interactive-comments", "nolog", "notify",
	"onecmd", "privileged", "vi",
	// shopt
	"assoc_expand_once", "autocd", "cdable_vars", "cdspell", "checkhash", "checkjobs",
	"checkwinsize", "cmdhist", "compat31", "compat32", "compat40", "compat41", "compat42",
	"compat43", "compat44", "complete_fullquote", "direxpand", "dirspell", "execfail",
	"extquote", "force_fignore", "gnu_errfmt", "histappend", "histreedit", "histverify",
	"hostcomplete", "huponexit", "interactive_comments", "lithist", "localvar_inherit",
	"localvar_unset", "login_shell", "mailwarn", "no_empty_cmd_completion",
	"noexpand_translation", "progcomp", "progcomp_alias", "promptvars",
}

// miscSetOptions is how many of miscOptions are set -o options.
const miscSetOptions = 10

// miscDefaultOn are the misc options a non-interactive bash starts with on.
var miscDefaultOn = map[string]bool{
	"interactive-comments": true,
	"checkwinsize":         true, "cmdhist": true, "complete_fullquote": true, "extquote": true,
	"force_fignore": true, "hostcomplete": true, "interactive_comments": true,
	"progcomp": true, "promptvars": true,
}

// miscOpt is the field of the misc option name.
func (o *options) miscOpt(name string) *bool {
	for i, n := range miscOptions {
		if n == name {
			return &o.misc[i]
		}
	}
	panic("shell: no misc option " + name)
}

func defaultOptions() options {
	o := options{hashall: true, patsubReplacement: true, globasciiranges: true, sourcepath: true, globskipdots: true}
	for i, n := range miscOptions {
		o.misc[i] = miscDefaultOn[n]
	}
	return o
}

// setOptions lists set -o names with their fields, in bash's order.
func (o *options) setOptions() []namedOpt {
	return []namedOpt{
		{"allexport", &o.allexport}, {"braceexpand", nil}, {"emacs", o.miscOpt("emacs")}, {"errexit", &o.errexit},
		{"errtrace", &o.errtrace}, {"functrace", &o.functrace}, {"hashall", &o.hashall},
		{"histexpand", o.miscOpt("histexpand")}, {"history", o.miscOpt("history")},
		{"ignoreeof", o.miscOpt("ignoreeof")}, {"interactive-comments", o.miscOpt("interactive-comments")},
		{"keyword", &o.keyword}, {"monitor", &o.monitor}, {"noclobber", &o.noclobber}, {"noexec", &o.noexec},
		{"noglob", &o.noglob}, {"nolog", o.miscOpt("nolog")}, {"notify", o.miscOpt("notify")}, {"nounset", &o.nounset},
		{"onecmd", o.miscOpt("onecmd")}, {"physical", &o.physical}, {"pipefail", &o.pipefail}, {"posix", &o.posix},
		{"privileged", o.miscOpt("privileged")}, {"verbose", &o.verbose}, {"vi", o.miscOpt("vi")}, {"xtrace", &o.xtrace},
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

// shoptOptions lists the shopt options in bash's order (its shopt_vars
// table: alphabetical, but autocd first).
func (o *options) shoptOptions() []namedOpt {
	fields := map[string]*bool{
		"shift_verbose": &o.shiftVerbose, "dotglob": &o.dotglob, "expand_aliases": &o.expandAliases,
		"extglob": &o.extglob, "failglob": &o.failglob, "globasciiranges": &o.globasciiranges,
		"globskipdots": &o.globskipdots, "globstar": &o.globstar, "inherit_errexit": &o.inheritErrexit,
		"lastpipe": &o.lastpipe, "nocaseglob": &o.nocaseglob, "nocasematch": &o.nocasematch,
		"nullglob": &o.nullglob, "patsub_replacement": &o.patsubReplacement, "sourcepath": &o.sourcepath,
		"xpg_echo": &o.xpgEcho, "extdebug": &o.extdebug, "varredir_close": &o.varredirClose,
		"restricted_shell": &o.restrictedShell,
	}
	var list []namedOpt
	for i := miscSetOptions; i < len(miscOptions); i++ {
		list = append(list, namedOpt{miscOptions[i], &o.misc[i]})
	}
	for n, p := range fields {
		list = append(list, namedOpt{n, p})
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i].name, list[j].name
		if a == "autocd" || b == "autocd" {
			return a == "autocd" && b != "autocd"
		}
		return a < b
	})
	return list
}

// optionFlags is $-.
func (r *Interp) optionFlags() string {
	var sb strings.Builder
	o := &r.opts
	for _, f := range []struct {
		c  byte
		on bool
	}{{'a', o.allexport}, {'b', *o.miscOpt("notify")}, {'e', o.errexit}, {'f', o.noglob},
		{'h', o.hashall}, {'k', o.keyword}, {'m', o.monitor}, {'n', o.noexec},
		{'p', *o.miscOpt("privileged")}, {'r', o.restricted}, {'u', o.nounset}, {'v', o.verbose},
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
	if *o.miscOpt("histexpand") {
		sb.WriteByte('H')
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
		if o.p != nil && *o.p || o.p == nil && o.name == "braceexpand" && !r.opts.noBrace {
			on = append(on, o.name)
		}
	}
	return strings.Join(on, ":")
}

// bashopts is $BASHOPTS.
func (r *Interp) bashopts() string {
	var on []string
	for _, o := range r.opts.shoptOptions() {
		if o.p != nil && *o.p {
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
	case 'b':
		*o.miscOpt("notify") = on
	case 'p':
		*o.miscOpt("privileged") = on
	case 'H':
		*o.miscOpt("histexpand") = on
	case 't':
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
			// one line-editing mode at a time
			if on && name == "vi" {
				*r.opts.miscOpt("emacs") = false
			} else if on && name == "emacs" {
				*r.opts.miscOpt("vi") = false
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
