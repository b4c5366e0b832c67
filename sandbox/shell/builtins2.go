package shell

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

func builtinSet(r *Interp, args []string) int {
	args = args[1:]
	if len(args) == 0 {
		var sb strings.Builder
		for _, n := range r.vars.names() {
			v := r.vars.get(n)
			if v == nil || !v.Set && !v.IsArray() {
				continue
			}
			if v.IsArray() {
				line := r.declareLine(n, v)
				_, rest, _ := strings.Cut(line, " "+n+"=")
				sb.WriteString(n + "=" + rest + "\n")
				continue
			}
			sb.WriteString(n + "=" + shellQuoteValue(v.Str, r.opts.posix) + "\n")
		}
		for _, n := range sortedFuncNames(r) {
			sb.WriteString(r.funcText(r.funcs[n]))
		}
		return r.writeOut("set", sb.String())
	}
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			r.params = append([]string(nil), args[1:]...)
			return 0
		}
		if a == "-" {
			r.opts.xtrace, r.opts.verbose = false, false
			r.params = append([]string(nil), args[1:]...)
			return 0
		}
		if len(a) < 2 || a[0] != '-' && a[0] != '+' {
			break
		}
		on := a[0] == '-'
		args = args[1:]
		for _, c := range a[1:] {
			if c == 'o' {
				if len(args) == 0 {
					r.printSetO(on)
					continue
				}
				name := args[0]
				args = args[1:]
				if !r.setLongOption(name, on) {
					r.builtinErr("set", "%s: invalid option name", name)
					return 2
				}
				continue
			}
			if !r.setFlag(byte(c), on) {
				r.builtinErr("set", "%c%c: invalid option", a[0], c)
				r.writeErr("set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\n")
				if c == 'r' {
					return 1 // a known flag that cannot change: set +r
				}
				return 2
			}
		}
	}
	if len(args) > 0 {
		r.params = append([]string(nil), args...)
	}
	return 0
}

func sortedFuncNames(r *Interp) []string {
	names := make([]string, 0, len(r.funcs))
	for k := range r.funcs {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func (r *Interp) printSetO(human bool) {
	var sb strings.Builder
	for _, o := range r.opts.setOptions() {
		on := o.p != nil && *o.p || o.p == nil && o.name == "braceexpand" && !r.opts.noBrace
		if human {
			state := "off"
			if on {
				state = "on"
			}
			fmt.Fprintf(&sb, "%-15s\t%s\n", o.name, state)
		} else {
			flag := "+o"
			if on {
				flag = "-o"
			}
			fmt.Fprintf(&sb, "set %s %s\n", flag, o.name)
		}
	}
	r.writeOut("set", sb.String())
}

func builtinShopt(r *Interp, args []string) int {
	set, unset, quiet, print, useSetO := false, false, false, false, false
	args = args[1:]
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		for _, c := range args[0][1:] {
			switch c {
			case 's':
				set = true
			case 'u':
				unset = true
			case 'q':
				quiet = true
			case 'p':
				print = true
			case 'o':
				useSetO = true
			default:
				r.builtinErr("shopt", "-%c: invalid option", c)
				r.writeErr("shopt: usage: shopt [-pqsu] [-o] [optname ...]\n")
				return 2
			}
		}
		args = args[1:]
	}
	list := r.opts.shoptOptions()
	if useSetO {
		list = r.opts.setOptions()
	}
	find := func(name string) (namedOpt, bool) {
		for _, o := range list {
			if o.name == name {
				return o, true
			}
		}
		return namedOpt{}, false
	}
	isOn := func(o namedOpt) bool {
		if o.p != nil {
			return *o.p
		}
		return o.name == "braceexpand" && !r.opts.noBrace
	}
	line := func(o namedOpt) string {
		on := isOn(o)
		if print {
			flag := "-u"
			if on {
				flag = "-s"
			}
			if useSetO {
				flag = map[bool]string{true: "-o", false: "+o"}[on]
				return "set " + flag + " " + o.name + "\n"
			}
			return "shopt " + flag + " " + o.name + "\n"
		}
		return fmt.Sprintf("%-15s\t%s\n", o.name, map[bool]string{true: "on", false: "off"}[on])
	}
	if len(args) == 0 {
		var sb strings.Builder
		for _, o := range list {
			if set && !isOn(o) || unset && isOn(o) {
				continue
			}
			sb.WriteString(line(o))
		}
		if !quiet {
			r.writeOut("shopt", sb.String())
		}
		return 0
	}
	status := 0
	for _, name := range args {
		o, ok := find(name)
		if !ok {
			if useSetO {
				r.builtinErr("shopt", "%s: invalid option name", name)
				if set || unset {
					// bash's set_shopt_o_options counts only status 1
					// as failure; set_minus_o_option said 2
					continue
				}
			} else {
				r.builtinErr("shopt", "%s: invalid shell option name", name)
			}
			status = 1
			continue
		}
		switch {
		case set || unset:
			if useSetO {
				r.setLongOption(name, set)
			} else if name == "restricted_shell" {
				r.fixRestrictedShell()
			} else if o.p != nil {
				*o.p = set
			}
		default:
			if !isOn(o) {
				status = 1
			}
			if !quiet {
				r.writeOut("shopt", line(o))
			}
		}
	}
	return status
}

// --- traps, signals, jobs --------------------------------------------

const (
	sigHUP   = 1
	sigINT   = 2
	sigQUIT  = 3
	sigKILL  = 9
	sigUSR1  = 10
	sigUSR2  = 12
	sigPIPE  = 13
	sigALRM  = 14
	sigTERM  = 15
	sigCHLD  = 17
	sigCONT  = 18
	sigSTOP  = 19
	sigTSTP  = 20
	sigURG   = 23
	sigWINCH = 28
)

var signalNames = []string{"", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1",
	"SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU",
	"URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"}

// killListName is the name kill -l gives signal n: EXIT for 0, the
// real-time signals as RTMIN+k and RTMAX-k.
func killListName(n int) (string, bool) {
	switch {
	case n == 0:
		return "EXIT", true
	case n > 0 && n < len(signalNames):
		return signalNames[n], true
	case n == 34:
		return "RTMIN", true
	case n > 34 && n < 50:
		return "RTMIN+" + strconv.Itoa(n-34), true
	case n >= 50 && n < 64:
		return "RTMAX-" + strconv.Itoa(64-n), true
	case n == 64:
		return "RTMAX", true
	}
	return "", false
}

func signalName(n int) string {
	if n > 0 && n < len(signalNames) {
		return signalNames[n]
	}
	return strconv.Itoa(n)
}

// parseSignal reads a signal given as a number or a name (with or
// without SIG); EXIT, ERR, DEBUG and RETURN are traps, not signals.
func parseSignal(s string, forTrap bool) (string, int, bool) {
	u := strings.ToUpper(s)
	if forTrap {
		switch u {
		case "EXIT", "0":
			return "EXIT", 0, true
		case "ERR", "DEBUG", "RETURN":
			return u, -1, true
		}
	}
	if n, err := strconv.Atoi(s); err == nil {
		if n == 0 {
			return "EXIT", 0, true
		}
		if n > 0 && n < len(signalNames) {
			return signalNames[n], n, true
		}
		return "", 0, false
	}
	u = strings.TrimPrefix(u, "SIG")
	for i, name := range signalNames {
		if i > 0 && name == u {
			return name, i, true
		}
	}
	return "", 0, false
}

func builtinTrap(r *Interp, args []string) int {
	args = args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 || args[0] == "-p" {
		names := args
		if len(names) > 0 {
			names = names[1:]
		}
		var sb strings.Builder
		traps := r.listedTraps()
		keys := make([]string, 0, len(traps))
		for k := range traps {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return trapOrder(keys[i]) < trapOrder(keys[j]) })
		for _, k := range keys {
			if len(names) > 0 {
				found := false
				for _, n := range names {
					if s, _, ok := parseSignal(n, true); ok && s == k {
						found = true
					}
				}
				if !found {
					continue
				}
			}
			disp := k
			if _, n, ok := parseSignal(k, false); ok && n > 0 {
				disp = "SIG" + k
			}
			sb.WriteString("trap -- " + shellQuote(traps[k]) + " " + disp + "\n")
		}
		return r.writeOut("trap", sb.String())
	}
	if args[0] == "-l" {
		var sb strings.Builder
		for i := 1; i < len(signalNames); i++ {
			fmt.Fprintf(&sb, "%2d) SIG%s", i, signalNames[i])
			if i%5 == 0 {
				sb.WriteString("\n")
			} else {
				sb.WriteString("\t")
			}
		}
		return r.writeOut("trap", strings.TrimRight(sb.String(), "\t")+"\n")
	}
	action := args[0]
	sigs := args[1:]
	reset := false
	if _, _, ok := parseSignal(action, true); ok && len(sigs) == 0 {
		reset, sigs = true, []string{action}
	} else if action == "-" {
		reset = true
	}
	status := 0
	for _, s := range sigs {
		name, _, ok := parseSignal(s, true)
		if !ok {
			r.builtinErr("trap", "%s: invalid signal specification", s)
			status = 1
			continue
		}
		if r.hardIgnored[name] {
			continue // ignored when the shell started: it stays so, silently
		}
		if reset {
			delete(r.traps, name)
			delete(r.shownTraps, name)
		} else {
			r.traps[name] = action
		}
	}
	r.syncTraps()
	return status
}

func trapOrder(k string) int {
	switch k {
	case "EXIT":
		return -4
	}
	if _, n, ok := parseSignal(k, false); ok && n > 0 {
		return n
	}
	return 100 + len(k)
}

func builtinKill(r *Interp, args []string) int {
	args = args[1:]
	sig := sigTERM
	if len(args) == 0 {
		r.writeErr("kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n")
		return 2
	}
	switch {
	case args[0] == "-l" || args[0] == "-L":
		if len(args) > 1 {
			status := 0
			for _, a := range args[1:] {
				if n, err := strconv.Atoi(a); err == nil {
					if n > 128 {
						n -= 128 // an exit status: the signal that ended it
					}
					switch name, ok := killListName(n); {
					case ok:
						r.writeOut("kill", name+"\n")
					case n != 32 && n != 33: // glibc's own: bash prints nothing
						r.builtinErr("kill", "%s: invalid signal specification", a)
						status = 1
					}
				} else if _, n, ok := parseSignal(a, false); ok {
					r.writeOut("kill", strconv.Itoa(n)+"\n")
				} else {
					r.builtinErr("kill", "%s: invalid signal specification", a)
					status = 1
				}
			}
			return status
		}
		return builtinTrap(r, []string{"trap", "-l"})
	case args[0] == "-s" || args[0] == "-n":
		if len(args) < 2 {
			r.builtinErr("kill", "%s: option requires an argument", args[0])
			return 2
		}
		_, n, ok := parseSignal(args[1], false)
		if !ok {
			r.builtinErr("kill", "%s: invalid signal specification", args[1])
			return 1
		}
		sig, args = n, args[2:]
	case strings.HasPrefix(args[0], "-") && len(args[0]) > 1 && args[0] != "--":
		_, n, ok := parseSignal(args[0][1:], false)
		if !ok {
			r.builtinErr("kill", "%s: invalid signal specification", args[0][1:])
			return 1
		}
		sig, args = n, args[1:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	status := 0
	for _, a := range args {
		if j := r.findJob(a); j != nil {
			r.signalJob(j, sig)
			continue
		}
		pid, err := strconv.Atoi(a)
		if err != nil {
			if strings.HasPrefix(a, "%") {
				r.builtinErr("kill", "%s: no such job", a)
			} else {
				r.builtinErr("kill", "%s: arguments must be process or job IDs", a)
			}
			status = 1
			continue
		}
		if j := r.jobs.disowned(pid); j != nil {
			r.signalJob(j, sig)
			continue
		}
		if pid == r.pid || pid == r.bashpid {
			if sig != 0 {
				if pid == r.bashpid {
					r.pending.add(sig)
				} else {
					r.sh.top.add(sig) // $$ from a subshell: the main shell
				}
			}
			continue
		}
		r.builtinErr("kill", "(%d) - No such process", pid)
		status = 1
	}
	return status
}

func builtinWait(r *Interp, args []string) int {
	args = args[1:]
	any := false
	varName := ""
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-n":
			any = true
		case "-f":
		case "-p":
			if len(args) > 1 {
				varName = args[1]
				args = args[1:]
			}
		default:
			r.builtinErr("wait", "%s: invalid option", args[0])
			return 2
		}
		args = args[1:]
	}
	if any {
		jobs := slices.DeleteFunc(r.jobs.all(), func(j *job) bool { return j.inherited })
		if len(args) > 0 {
			jobs = nil
			for _, a := range args {
				if j := r.findJob(a); j != nil {
					jobs = append(jobs, j)
				}
			}
		}
		if len(jobs) == 0 {
			return 127
		}
		done := make(chan *job, len(jobs))
		for _, j := range jobs {
			go func(j *job) { <-j.done; done <- j }(j)
		}
		var j *job
		for j == nil {
			select {
			case j = <-done:
			case <-r.pending.wake:
				if sig, ok := r.pending.interrupting(); ok {
					return 128 + sig
				}
			case <-r.ctx.Done():
				panic(&exitError{status: 124, fatal: true})
			}
		}
		if varName != "" {
			r.assignQuiet(varName, strconv.Itoa(j.pid))
		}
		status, _ := r.waitJob(j)
		return status
	}
	if len(args) == 0 {
		for _, j := range r.jobs.all() {
			if j.inherited {
				continue
			}
			if status, interrupted := r.waitJob(j); interrupted {
				return status
			}
			r.tick()
		}
		return 0
	}
	status := 0
	for _, a := range args {
		j := r.findJob(a)
		if j != nil && j.inherited {
			r.builtinErr("wait", "pid %d is not a child of this shell", j.pid)
			status = 127
			continue
		}
		if j == nil {
			if strings.HasPrefix(a, "%") {
				r.builtinErr("wait", "%s: no such job", a)
			} else if _, err := strconv.Atoi(a); err != nil {
				r.builtinErr("wait", "`%s': not a pid or valid job spec", a)
				status = 2
				continue
			} else {
				r.builtinErr("wait", "pid %s is not a child of this shell", a)
			}
			status = 127
			continue
		}
		var interrupted bool
		if status, interrupted = r.waitJob(j); interrupted {
			return status
		}
	}
	return status
}

func builtinJobs(r *Interp, args []string) int {
	pidsOnly, long, running, stopped := false, false, false, false
	args = args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'p':
				pidsOnly = true
			case 'l':
				long = true
			case 'r':
				running = true
			case 's':
				stopped = true
			case 'n':
			case 'x':
				return r.jobsExec(args[1:])
			default:
				r.builtinErr("jobs", "-%c: invalid option", c)
				r.writeErr("jobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]\n")
				return 2
			}
		}
		args = args[1:]
	}
	all := r.jobs.all()
	jobs := all
	status := 0
	if len(args) > 0 {
		jobs = nil
		for _, a := range args {
			j := r.findJob(a)
			if j == nil {
				r.builtinErr("jobs", "%s: no such job", a)
				status = 1
				continue
			}
			jobs = append(jobs, j)
		}
	}
	var sb strings.Builder
	for _, j := range jobs {
		state := "Running"
		select {
		case <-j.done:
			state = "Done"
			if j.status != 0 {
				state = fmt.Sprintf("Exit %d", j.status)
			}
		default:
		}
		if stopped || running && state != "Running" {
			continue // jobs never stop in the sandbox
		}
		mark := " "
		if len(all) > 0 && j == all[len(all)-1] {
			mark = "+"
		} else if len(all) > 1 && j == all[len(all)-2] {
			mark = "-"
		}
		switch {
		case pidsOnly:
			fmt.Fprintf(&sb, "%d\n", j.pid)
		case long:
			fmt.Fprintf(&sb, "[%d]%s %d %-24s%s &\n", j.id, mark, j.pid, state, j.cmd)
		default:
			fmt.Fprintf(&sb, "[%d]%s  %-24s%s &\n", j.id, mark, state, j.cmd)
		}
	}
	if st := r.writeOut("jobs", sb.String()); st != 0 {
		return st
	}
	return status
}

// jobsExec runs `jobs -x command args`: each job spec among args becomes
// the job's process id, then command runs.
func (r *Interp) jobsExec(args []string) int {
	if len(args) == 0 {
		r.builtinErr("jobs", "-x: option requires an argument")
		return 2
	}
	argv := make([]string, len(args))
	for i, a := range args {
		argv[i] = a
		if strings.HasPrefix(a, "%") {
			j := r.findJob(a)
			if j == nil {
				r.builtinErr("jobs", "%s: no such job", a)
				return 1
			}
			argv[i] = strconv.Itoa(j.pid)
		}
	}
	r.run(argv)
	return r.status
}

// builtinDisown removes jobs from the table (they run on, and kill still
// reaches them by pid) or, with -h, only marks them.
func builtinDisown(r *Interp, args []string) int {
	all, runningOnly, markOnly := false, false, false
	args = args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'a':
				all = true
			case 'r':
				runningOnly = true
			case 'h':
				markOnly = true
			default:
				r.builtinErr("disown", "-%c: invalid option", c)
				r.writeErr("disown: usage: disown [-h] [-ar] [jobspec ... | pid ...]\n")
				return 2
			}
		}
		args = args[1:]
	}
	var jobs []*job
	status := 0
	switch {
	case len(args) > 0:
		for _, a := range args {
			j := r.findJob(a)
			if j == nil {
				r.builtinErr("disown", "%s: no such job", a)
				status = 1
				continue
			}
			jobs = append(jobs, j)
		}
	case all || runningOnly:
		jobs = r.jobs.all()
	default:
		cur := r.findJob("%+")
		if cur == nil {
			r.builtinErr("disown", "current: no such job")
			return 1
		}
		jobs = []*job{cur}
	}
	for _, j := range jobs {
		if runningOnly {
			select {
			case <-j.done:
				continue
			default:
			}
		}
		if markOnly {
			j.nohup = true
			continue
		}
		r.jobs.disown(j)
	}
	return status
}

// --- getopts ---------------------------------------------------------

func builtinGetopts(r *Interp, args []string) (status int) {
	if len(args) > 1 && args[1] == "--" {
		args = append(args[:1:1], args[2:]...)
	} else if len(args) > 1 && len(args[1]) > 1 && args[1][0] == '-' {
		r.builtinErr("getopts", "%s: invalid option", args[1][:2])
		r.writeErr("getopts: usage: getopts optstring name [arg ...]\n")
		return 2
	}
	if len(args) < 3 {
		r.writeErr("getopts: usage: getopts optstring name [arg ...]\n")
		return 2
	}
	optstring, name := args[1], args[2]
	// bash reads the option first and fails when it binds the name.
	validVar := validName(name)
	if !validVar {
		defer func() {
			r.builtinErr("getopts", "`%s': not a valid identifier", name)
			status = 1
		}()
	}
	setName := func(v string) {
		if validVar {
			r.assignQuiet(name, v)
		}
	}
	// bash unbinds OPTARG at the end of the options and for an error
	// it reports itself, readonly or not.
	unbindOptarg := func() {
		if _, sc := r.vars.lookup("OPTARG"); sc != nil {
			delete(sc.vars, "OPTARG")
		}
	}
	setOptarg := func(v string) {
		if err := r.assign("OPTARG", v, false); err != nil {
			r.errorf("%s", err.Error())
		}
	}
	params := r.params
	if len(args) > 3 {
		params = args[3:]
	}
	silent := strings.HasPrefix(optstring, ":")
	if silent {
		optstring = optstring[1:]
	}
	if opterr, ok := r.getScalar("OPTERR"); ok && opterr == "0" {
		silent = true
	}
	optind := 1
	if s, ok := r.getScalar("OPTIND"); ok {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			optind = n
		}
	}
	if optind != r.getoptsInd {
		r.getoptsSub = 0
		r.getoptsInd = optind
	}
	setInd := func(n int) {
		r.getoptsInd = n
		r.getoptsSetting = true
		r.assignQuiet("OPTIND", strconv.Itoa(n))
		r.getoptsSetting = false
	}
	if optind > len(params) {
		setName("?")
		unbindOptarg()
		setInd(optind)
		return 1
	}
	arg := params[optind-1]
	if r.getoptsSub == 0 {
		if len(arg) < 2 || arg[0] != '-' {
			setName("?")
			unbindOptarg()
			return 1
		}
		if arg == "--" {
			setInd(optind + 1)
			setName("?")
			unbindOptarg()
			return 1
		}
		r.getoptsSub = 1
	}
	c := arg[r.getoptsSub]
	r.getoptsSub++
	advance := func() {
		if r.getoptsSub >= len(arg) {
			r.getoptsSub = 0
			setInd(optind + 1)
		} else {
			setInd(optind)
		}
	}
	i := strings.IndexByte(optstring, c)
	if i < 0 || c == ':' {
		if silent {
			setOptarg(string(c))
		} else {
			unbindOptarg()
			// bash prints these as "$0: MSG", without a line number.
			r.writeErr(fmt.Sprintf("%s: illegal option -- %c\n", r.arg0, c))
		}
		setName("?")
		advance()
		return 0
	}
	if i+1 < len(optstring) && optstring[i+1] == ':' {
		if r.getoptsSub < len(arg) {
			setOptarg(arg[r.getoptsSub:])
			r.getoptsSub = 0
			setInd(optind + 1)
		} else if optind < len(params) {
			setOptarg(params[optind])
			r.getoptsSub = 0
			setInd(optind + 2)
		} else {
			r.getoptsSub = 0
			setInd(optind + 1)
			if silent {
				setName(":")
				setOptarg(string(c))
			} else {
				setName("?")
				unbindOptarg()
				r.writeErr(fmt.Sprintf("%s: option requires an argument -- %c\n", r.arg0, c))
			}
			return 0
		}
		setName(string(c))
		return 0
	}
	unbindOptarg()
	setName(string(c))
	advance()
	return 0
}

// --- completion ------------------------------------------------------

func builtinCompgen(r *Interp, args []string) int {
	args = args[1:]
	var cands []string
	word := ""
	prefix, suffix := "", ""
	prefixFilter := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "-P", "-S":
			if i+1 < len(args) {
				i++
				if a == "-P" {
					prefix = args[i]
				} else {
					suffix = args[i]
				}
			}
		case "-W":
			if i+1 < len(args) {
				i++
				cands = append(cands, strings.Fields(args[i])...)
			}
		case "-A":
			if i+1 < len(args) {
				i++
				cands = append(cands, r.completions(args[i])...)
			}
		case "-v":
			cands = append(cands, r.completions("variable")...)
		case "-f":
			cands = append(cands, r.completions("file")...)
		case "-d":
			cands = append(cands, r.completions("directory")...)
		case "-c":
			cands = append(cands, r.completions("command")...)
		case "-b":
			cands = append(cands, r.completions("builtin")...)
		case "-a":
			cands = append(cands, r.completions("alias")...)
		case "-k":
			cands = append(cands, r.completions("keyword")...)
		case "-e":
			cands = append(cands, r.completions("export")...)
		case "-u":
			cands = append(cands, "user")
		default:
			if !strings.HasPrefix(a, "-") {
				word = a
			}
		}
	}
	var sb strings.Builder
	n := 0
	for _, c := range cands {
		if prefixFilter && !strings.HasPrefix(c, word) {
			continue
		}
		sb.WriteString(prefix + c + suffix + "\n")
		n++
	}
	r.writeOut("compgen", sb.String())
	if n == 0 {
		return 1
	}
	return 0
}

// completions lists candidates of a compgen action.
func (r *Interp) completions(action string) []string {
	var out []string
	switch action {
	case "variable":
		out = r.vars.names()
	case "export":
		for _, n := range r.vars.names() {
			if v := r.vars.get(n); v != nil && v.Attr&AttrExport != 0 {
				out = append(out, n)
			}
		}
	case "function":
		out = sortedFuncNames(r)
	case "builtin":
		out = sortedBuiltinNames()
	case "alias":
		for k := range r.aliases {
			out = append(out, k)
		}
		sort.Strings(out)
	case "keyword":
		out = []string{"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc"}
	case "command":
		out = append(out, r.completions("alias")...)
		out = append(out, sortedBuiltinNames()...)
		out = append(out, sortedFuncNames(r)...)
		out = append(out, r.completions("keyword")...)
		pathVar, _ := r.getScalar("PATH")
		for _, d := range strings.Split(pathVar, ":") {
			ents, err := r.fs().ReadDir(vfs.RootIno, r.absPath(d))
			if err != nil {
				continue
			}
			for _, e := range ents {
				out = append(out, e.Name)
			}
		}
	case "file", "directory":
		ents, err := r.fs().ReadDir(vfs.RootIno, r.dir)
		if err == nil {
			for _, e := range ents {
				if action == "directory" && e.Type != vfs.TypeDir {
					continue
				}
				out = append(out, e.Name)
			}
		}
	}
	return out
}

func builtinComplete(r *Interp, args []string) int {
	if len(args) > 2 && args[1] == "-p" {
		// complete -p NAME...: those, in the order given
		status := 0
		for _, n := range args[2:] {
			spec, ok := r.completeSpecs[n]
			if !ok {
				r.builtinErr("complete", "%s: no completion specification", n)
				status = 1
				continue
			}
			r.writeOut("complete", "complete "+spec+" "+n+"\n")
		}
		return status
	}
	if len(args) == 1 || args[1] == "-p" {
		var sb strings.Builder
		names := make([]string, 0, len(r.completeSpecs))
		for k := range r.completeSpecs {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, n := range names {
			sb.WriteString("complete " + r.completeSpecs[n] + " " + n + "\n")
		}
		return r.writeOut("complete", sb.String())
	}
	if r.completeSpecs == nil {
		r.completeSpecs = map[string]string{}
	}
	var opts []string
	var names []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			opts = append(opts, a)
			if strings.ContainsAny(a[1:], "AWFCGoXPS") && i+1 < len(args) && len(a) == 2 {
				i++
				opts = append(opts, shellQuote(args[i])) // complete -p quotes always
			}
			continue
		}
		names = append(names, a)
	}
	for _, n := range names {
		if len(opts) > 0 && opts[0] == "-r" {
			delete(r.completeSpecs, n)
			continue
		}
		r.completeSpecs[n] = strings.Join(opts, " ")
	}
	return 0
}

// Complete lists completions of the word under the cursor for a REPL:
// commands for the first word, files otherwise.
func (r *Interp) Complete(line string) []string {
	fields := strings.Fields(line)
	word := ""
	if len(fields) > 0 && !strings.HasSuffix(line, " ") {
		word = fields[len(fields)-1]
	}
	var cands []string
	if len(fields) == 0 || len(fields) == 1 && word != "" {
		cands = r.completions("command")
	} else {
		dir, base := ".", word
		if i := strings.LastIndexByte(word, '/'); i >= 0 {
			dir, base = word[:i+1], word[i+1:]
		}
		ents, err := r.fs().ReadDir(vfs.RootIno, r.absPath(dir))
		if err == nil {
			for _, e := range ents {
				if strings.HasPrefix(e.Name, base) {
					name := e.Name
					if e.Type == vfs.TypeDir {
						name += "/"
					}
					if dir != "." {
						name = dir + name
					}
					cands = append(cands, name)
				}
			}
		}
		return cands
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range cands {
		if strings.HasPrefix(c, word) && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// promptExpand expands the backslash escapes of PS1-PS4 and ${x@P}.
func (r *Interp) promptExpand(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'u':
			u, _ := r.getScalar("USER")
			sb.WriteString(u)
		case 'h', 'H':
			h, _ := r.getScalar("HOSTNAME")
			if s[i] == 'h' {
				h, _, _ = strings.Cut(h, ".")
			}
			sb.WriteString(h)
		case 'w', 'W':
			d := r.dir
			home, _ := r.getScalar("HOME")
			if s[i] == 'W' {
				if d != "/" && d != home {
					d = d[strings.LastIndexByte(d, '/')+1:]
				} else if d == home {
					d = "~"
				}
			} else if home != "" && (d == home || strings.HasPrefix(d, home+"/")) {
				d = "~" + d[len(home):]
			}
			sb.WriteString(d)
		case '$':
			sb.WriteByte('$')
		case 's':
			sb.WriteString("bash")
		case 'v':
			sb.WriteString("5.2")
		case 'V':
			sb.WriteString("5.2.15")
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 'a':
			sb.WriteByte(7)
		case 'e':
			sb.WriteByte(27)
		case '\\':
			sb.WriteByte('\\')
		case '[', ']':
		case 't':
			sb.WriteString(r.now().Format("15:04:05"))
		case 'T':
			sb.WriteString(r.now().Format("03:04:05"))
		case '@':
			sb.WriteString(r.now().Format("03:04 PM"))
		case 'A':
			sb.WriteString(r.now().Format("15:04"))
		case 'd':
			sb.WriteString(r.now().Format("Mon Jan 02"))
		case 'j':
			sb.WriteString(strconv.Itoa(len(r.jobs.all())))
		case '#', '!':
			sb.WriteString("1")
		case 'l':
			sb.WriteString("pts")
		default:
			sb.WriteByte('\\')
			sb.WriteByte(s[i])
		}
	}
	return sb.String()
}

// Prompt renders $PS1 for a REPL.
func (r *Interp) Prompt() string {
	ps1, ok := r.getScalar("PS1")
	if !ok {
		ps1 = `\s-\v\$ ` // what an interactive bash sets
	}
	return r.promptExpand(ps1)
}

var _ = time.Second
