package procps

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/id"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/posixre"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/proc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const pgrepOptions = `
Options:
 -d, --delimiter <string>  specify output delimiter
 -l, --list-name           list PID and process name
 -a, --list-full           list PID and full command line
 -v, --inverse             negates the matching
 -c, --count               count of matching processes
 -f, --full                use full process name to match
 -i, --ignore-case         match case insensitively
 -n, --newest              select most recently started
 -o, --oldest              select least recently started
 -P, --parent <PPID,...>   match only child processes of the given parent
 -u, --euid <ID,...>       match by effective IDs
 -U, --uid <ID,...>        match by real IDs
 -x, --exact               match exactly with the command name
 -F, --pidfile <file>      read PIDs from file

 -h, --help     display this help and exit
 -V, --version  output version information and exit
`

func pgrepSpec(kill bool) tool.Spec {
	opts := []tool.Option{
		{Short: 'd', Long: "delimiter", Arg: tool.RequiredArg},
		{Short: 'l', Long: "list-name"},
		{Short: 'a', Long: "list-full"},
		{Short: 'v', Long: "inverse"},
		{Short: 'c', Long: "count"},
		{Short: 'f', Long: "full"},
		{Short: 'i', Long: "ignore-case"},
		{Short: 'n', Long: "newest"},
		{Short: 'o', Long: "oldest"},
		{Short: 'P', Long: "parent", Arg: tool.RequiredArg},
		{Short: 'u', Long: "euid", Arg: tool.RequiredArg},
		{Short: 'U', Long: "uid", Arg: tool.RequiredArg},
		{Short: 'x', Long: "exact"},
		{Short: 'F', Long: "pidfile", Arg: tool.RequiredArg},
		{Short: 'h', Long: "help"},
		{Short: 'V', Long: "version"},
	}
	name := "pgrep"
	extra := ""
	if kill {
		name = "pkill"
		opts = append(opts, tool.Option{Long: "signal", Arg: tool.RequiredArg}, tool.Option{Short: 'e', Long: "echo"})
		extra = " -<sig>, --signal <sig>    signal to send (either number or name)\n -e, --echo                display what is killed\n"
	}
	return tool.Spec{
		Options:   opts,
		Help:      "\nUsage:\n " + name + " [options] <pattern>\n" + strings.Replace(pgrepOptions, "Options:\n", "Options:\n"+extra, 1),
		UsageExit: 2,
	}
}

// Pgrep runs pgrep.
func Pgrep(env *tool.Env) int { return pgrep(env, false) }

// Pkill runs pkill.
func Pkill(env *tool.Env) int { return pgrep(env, true) }

func pgrep(env *tool.Env, kill bool) int {
	sig := syscall.SIGTERM
	// pkill -SIGNAL comes first, as procps reads it.
	if kill && len(env.Args) > 1 && strings.HasPrefix(env.Args[1], "-") && len(env.Args[1]) > 1 {
		if s, ok := parseSignal(env.Args[1][1:]); ok {
			sig = s
			env.Args = append([]string{env.Args[0]}, env.Args[2:]...)
		}
	}
	spec := pgrepSpec(kill)
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	var (
		delim                              = "\n"
		listName, listFull, inverse, count bool
		full, icase, newest, oldest, exact bool
		echo                               bool
		parents                            map[int]bool
		users                              []string
		pidfile                            string
		criteria                           bool
	)
	for _, f := range flags {
		switch f.Name {
		case "d":
			delim = f.Arg
		case "l":
			listName = true
		case "a":
			listFull = true
		case "v":
			inverse = true
		case "c":
			count = true
		case "f":
			full = true
		case "i":
			icase = true
		case "n":
			newest, criteria = true, true
		case "o":
			oldest, criteria = true, true
		case "x":
			exact = true
		case "e":
			echo = true
		case "P":
			parents = map[int]bool{}
			for _, s := range strings.Split(f.Arg, ",") {
				n, err := strconv.Atoi(s)
				if err != nil {
					env.Errorf("invalid process ID list")
					return 2
				}
				parents[n] = true
			}
			criteria = true
		case "u", "U":
			users = append(users, strings.Split(f.Arg, ",")...)
			for _, u := range users {
				if _, ok := id.Lookup(u); !ok {
					env.Errorf("invalid user name: %s", u)
					return 2
				}
			}
			criteria = true
		case "F":
			pidfile, criteria = f.Arg, true
		case "signal":
			s, ok := parseSignal(f.Arg)
			if !ok {
				env.Errorf("Unknown signal \"%s\".", f.Arg)
				return 2
			}
			sig = s
		case "h":
			return env.Help(spec.Help)
		case "V":
			return env.PrintVersion()
		}
	}
	if newest && oldest {
		// procps answers with its usage.
		fmt.Fprint(env.Stderr, spec.Help)
		return 2
	}
	if len(args) > 1 {
		env.Errorf("only one pattern can be provided")
		return 2
	}
	if len(args) == 0 && !criteria {
		fmt.Fprintf(env.Stderr, "%s: no matching criteria specified\nTry `%s --help' for more information.\n", env.Name(), env.Name())
		return 2
	}
	var re *posixre.Regexp
	if len(args) == 1 {
		var err error
		re, err = posixre.Compile([]string{args[0]}, posixre.Options{Extended: true, IgnoreCase: icase, Line: exact})
		if err != nil {
			env.Errorf("%s", err)
			return 2
		}
	}
	var only map[int]bool
	if pidfile != "" {
		data, err := os.ReadFile(pidfile)
		if err != nil {
			env.Errorf("pidfile not valid\nTry `%s --help' for more information.", env.Name())
			return 2
		}
		n, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0]))
		if err != nil {
			env.Errorf("pidfile not valid\nTry `%s --help' for more information.", env.Name())
			return 2
		}
		only = map[int]bool{n: true}
	}
	infos, err := proc.List()
	if err != nil {
		env.Errorf("cannot read the process table: %s", tool.Strerror(err))
		return 3
	}
	self := proc.Self()
	var match []proc.Info
	for _, in := range infos {
		if in.Pid == self {
			continue
		}
		p := psProc{Info: in}
		ok := true
		if re != nil {
			subject := p.comm()
			if full {
				subject = p.args()
			}
			m, err := re.Match([]byte(subject))
			ok = err == nil && m
		}
		if parents != nil && !parents[in.PPid] {
			ok = false
		}
		if only != nil && !only[in.Pid] {
			ok = false
		}
		for _, u := range users {
			a, _ := id.Lookup(u)
			if a.UID != id.Current.UID {
				ok = false
			}
		}
		if ok != inverse {
			match = append(match, in)
		}
	}
	if (newest || oldest) && len(match) > 0 {
		sort.SliceStable(match, func(i, j int) bool { return match[i].Start.Before(match[j].Start) })
		if newest {
			match = match[len(match)-1:]
		} else {
			match = match[:1]
		}
	}
	w := env.Out()
	if kill {
		for _, m := range match {
			if err := proc.Signal(m.Pid, sig); err != nil {
				env.Errorf("killing pid %d failed: %s", m.Pid, signalError(err))
				continue
			}
			if echo {
				fmt.Fprintf(w, "%s killed (pid %d)\n", (&psProc{Info: m}).comm(), m.Pid)
			}
		}
		if count {
			fmt.Fprintf(w, "%d\n", len(match))
		}
	} else if count {
		fmt.Fprintf(w, "%d\n", len(match))
	} else {
		for i, m := range match {
			if i > 0 {
				w.WriteString(delim)
			}
			w.WriteString(strconv.Itoa(m.Pid))
			p := &psProc{Info: m}
			switch {
			case listFull:
				w.WriteString(" " + p.args())
			case listName:
				w.WriteString(" " + p.comm())
			}
		}
		if len(match) > 0 {
			w.WriteString("\n")
		}
	}
	if len(match) == 0 {
		return 1
	}
	return 0
}

const pidofHelp = `
Usage:
 pidof [options] [program [...]]

Options:
 -s, --single-shot         return one PID only
 -c, --check-root          omit processes with different root
 -q,                       quiet mode, only set the exit code
 -w, --with-workers        show kernel workers too
 -x                        also find shells running the named scripts
 -o, --omit-pid <PID,...>  omit processes with PID
 -t, --lightweight         list threads too
 -S, --separator SEP       use SEP as separator put between PIDs
 -h, --help     display this help and exit
 -V, --version  output version information and exit
`

var pidofSpec = tool.Spec{
	Options: []tool.Option{
		{Short: 's', Long: "single-shot"}, {Short: 'c', Long: "check-root"}, {Short: 'q'},
		{Short: 'w', Long: "with-workers"}, {Short: 'x'}, {Short: 'o', Long: "omit-pid", Arg: tool.RequiredArg},
		{Short: 't', Long: "lightweight"}, {Short: 'S', Long: "separator", Arg: tool.RequiredArg},
		{Short: 'h', Long: "help"}, {Short: 'V', Long: "version"},
	},
	Help: pidofHelp,
}

// Pidof runs pidof: the pids of processes running the named programs,
// newest first.
func Pidof(env *tool.Env) int {
	flags, names, code, done := pidofSpec.Parse(env)
	if done {
		return code
	}
	single, quiet, scripts := false, false, false
	sep := " "
	omit := map[int]bool{}
	self := proc.Self()
	for _, f := range flags {
		switch f.Name {
		case "s":
			single = true
		case "q":
			quiet = true
		case "x":
			scripts = true
		case "S":
			sep = f.Arg
		case "o":
			for _, s := range strings.Split(f.Arg, ",") {
				if s == "%PPID" {
					continue
				}
				n, err := strconv.Atoi(s)
				if err != nil {
					env.Errorf("illegal omit pid value (%s)!", s)
					return 1
				}
				omit[n] = true
			}
		case "h":
			return env.Help(pidofHelp)
		case "V":
			return env.PrintVersion()
		}
	}
	infos, err := proc.List()
	if err != nil {
		env.Errorf("cannot read the process table: %s", tool.Strerror(err))
		return 1
	}
	var found []int
	for _, name := range names {
		for i := len(infos) - 1; i >= 0; i-- {
			in := infos[i]
			if in.Pid == self || omit[in.Pid] || len(in.Args) == 0 {
				continue
			}
			p := &psProc{Info: in}
			ok := in.Args[0] == name || p.comm() == name || baseName(in.Args[0]) == name
			if !ok && scripts && len(in.Args) > 1 && (p.comm() == "bash" || p.comm() == "sh") {
				ok = in.Args[1] == name || baseName(in.Args[1]) == name
			}
			if ok {
				found = append(found, in.Pid)
				if single {
					break
				}
			}
		}
	}
	if len(found) == 0 {
		return 1
	}
	if !quiet {
		w := env.Out()
		for i, pid := range found {
			if i > 0 {
				w.WriteString(sep)
			}
			w.WriteString(strconv.Itoa(pid))
		}
		w.WriteString("\n")
	}
	return 0
}

func baseName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}
