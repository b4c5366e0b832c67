package procps

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/id"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/proc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// column is one ps output field.
type column struct {
	header string
	width  int
	left   bool
	value  func(p *psProc) string
}

// psProc is a process with what ps derives from it.
type psProc struct {
	proc.Info
	now   time.Time
	total int64 // memory total, for %MEM
	self  bool
	main  bool
}

func (p *psProc) comm() string {
	if len(p.Args) == 0 {
		return "?"
	}
	c := p.Args[0]
	if !strings.HasPrefix(c, "[") {
		c = path.Base(c)
	}
	if len(c) > 15 {
		c = c[:15]
	}
	return c
}

func (p *psProc) args() string {
	if len(p.Args) == 0 {
		return "?"
	}
	return strings.Join(p.Args, " ")
}

func (p *psProc) stat() string {
	switch {
	case p.self:
		return "R"
	case p.main:
		return "Ss"
	}
	return "S"
}

// clock formats d as [DD-]HH:MM:SS.
func clock(d time.Duration) string {
	s := int64(d / time.Second)
	days := s / 86400
	s %= 86400
	t := fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
	if days > 0 {
		t = fmt.Sprintf("%d-%s", days, t)
	}
	return t
}

// elapsed formats d as ps's etime: [[DD-]hh:]mm:ss.
func elapsed(d time.Duration) string {
	s := int64(d / time.Second)
	days, h, m, sec := s/86400, s/3600%24, s/60%60, s%60
	switch {
	case days > 0:
		return fmt.Sprintf("%d-%02d:%02d:%02d", days, h, m, sec)
	case h > 0:
		return fmt.Sprintf("%02d:%02d:%02d", h, m, sec)
	}
	return fmt.Sprintf("%02d:%02d", m, sec)
}

func startTime(p *psProc) string {
	if p.now.Sub(p.Start) < 24*time.Hour && p.now.Day() == p.Start.Day() {
		return p.Start.Format("15:04")
	}
	if p.now.Year() == p.Start.Year() {
		return p.Start.Format("Jan02")
	}
	return p.Start.Format("2006")
}

func pct(n, d float64) string {
	if d <= 0 {
		return "0.0"
	}
	return strconv.FormatFloat(min(n/d*100, 999.9), 'f', 1, 64)
}

// columns are the fields ps -o knows, by name.
var columns = map[string]column{
	"pid":   {"PID", 5, false, func(p *psProc) string { return strconv.Itoa(p.Pid) }},
	"ppid":  {"PPID", 5, false, func(p *psProc) string { return strconv.Itoa(p.PPid) }},
	"pgid":  {"PGID", 5, false, func(p *psProc) string { return strconv.Itoa(p.Pid) }},
	"tty":   {"TT", 8, true, func(*psProc) string { return "?" }},
	"time":  {"TIME", 8, false, func(p *psProc) string { return clock(p.CPU) }},
	"etime": {"ELAPSED", 11, false, func(p *psProc) string { return elapsed(p.now.Sub(p.Start)) }},
	"etimes": {"ELAPSED", 7, false, func(p *psProc) string {
		return strconv.FormatInt(int64(p.now.Sub(p.Start)/time.Second), 10)
	}},
	"comm":  {"COMMAND", 15, true, (*psProc).comm},
	"args":  {"COMMAND", 27, true, (*psProc).args},
	"rss":   {"RSS", 5, false, func(p *psProc) string { return strconv.FormatInt(p.Mem/1024, 10) }},
	"vsz":   {"VSZ", 6, false, func(p *psProc) string { return strconv.FormatInt(p.Mem/1024, 10) }},
	"user":  {"USER", 8, true, func(*psProc) string { return id.Current.Name }},
	"uid":   {"UID", 5, false, func(*psProc) string { return strconv.Itoa(id.Current.UID) }},
	"gid":   {"GID", 5, false, func(*psProc) string { return strconv.Itoa(id.Current.GID) }},
	"group": {"GROUP", 8, true, func(*psProc) string { return id.Current.GroupName }},
	"stat":  {"STAT", 4, true, (*psProc).stat},
	"s":     {"S", 1, true, func(p *psProc) string { return p.stat()[:1] }},
	"c":     {"C", 2, false, func(*psProc) string { return "0" }},
	"ni":    {"NI", 3, false, func(*psProc) string { return "0" }},
	"pri":   {"PRI", 3, false, func(*psProc) string { return "19" }},
	"stime": {"STIME", 5, false, startTime},
	"lstart": {"STARTED", 24, false, func(p *psProc) string {
		return p.Start.Format("Mon Jan _2 15:04:05 2006")
	}},
	"%cpu": {"%CPU", 4, false, func(p *psProc) string {
		return pct(float64(p.CPU), float64(p.now.Sub(p.Start)))
	}},
	"%mem": {"%MEM", 4, false, func(p *psProc) string { return pct(float64(p.Mem), float64(p.total)) }},
	"bsdtime": {"TIME", 6, false, func(p *psProc) string {
		s := int64(p.CPU / time.Second)
		return fmt.Sprintf("%d:%02d", s/60, s%60)
	}},
}

// aliasesOf are other names of columns (and the header they show).
var columnAliases = map[string][2]string{
	"cmd": {"args", "CMD"}, "command": {"args", "COMMAND"}, "ucmd": {"comm", "CMD"},
	"ucomm": {"comm", "COMMAND"}, "fname": {"comm", "COMMAND"}, "tt": {"tty", "TT"},
	"tname": {"tty", "TTY"}, "cputime": {"time", "TIME"}, "rssize": {"rss", "RSS"},
	"rsz": {"rss", "RSZ"}, "vsize": {"vsz", "VSZ"}, "euser": {"user", "EUSER"},
	"uname": {"user", "USER"}, "euid": {"uid", "EUID"}, "state": {"s", "S"},
	"pcpu": {"%cpu", "%CPU"}, "pmem": {"%mem", "%MEM"}, "nice": {"ni", "NI"},
	"start_time": {"stime", "START"}, "start": {"stime", "STARTED"}, "sid": {"pgid", "SID"},
	"session": {"pgid", "SESS"}, "egid": {"gid", "EGID"}, "egroup": {"group", "EGROUP"},
	"lwp": {"pid", "LWP"}, "spid": {"pid", "SPID"}, "tid": {"pid", "TID"}, "nlwp": {"c", "NLWP"},
}

// lookupColumn finds a column by its -o name.
func lookupColumn(name string) (column, bool) {
	name = strings.ToLower(name)
	if c, ok := columns[name]; ok {
		return c, true
	}
	if a, ok := columnAliases[name]; ok {
		c := columns[a[0]]
		c.header = a[1]
		if name == "nlwp" {
			c.value = func(*psProc) string { return "1" }
		}
		return c, true
	}
	return column{}, false
}

const psHelp = `
Usage:
 ps [options]

 Try 'ps --help <simple|list|output|threads|misc|all>'
  or 'ps --help <s|l|o|t|m|a>'
 for additional help text.

For more details see ps(1).
`

// Ps runs ps. It accepts the common UNIX, BSD and GNU forms: -e/-A/ax,
// -f, -F, -l (as -f), u/aux, -o/o/--format, -p/p/--pid, --ppid, -C,
// -u/-U/--user, -q, --no-headers, --sort and -q.
func Ps(env *tool.Env) int {
	args := env.Args[1:]
	var (
		all, full, bsdUser, noHeaders bool
		format                        []string
		pids, ppids                   map[int]bool
		names                         map[string]bool
		users                         []string
		sortKeys                      []string
	)
	errorf := func(msg string) int {
		fmt.Fprintf(env.Stderr, "error: %s\n%s", msg, psHelp)
		return 1
	}
	list := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	}
	intList := func(s, what string) (map[int]bool, bool) {
		m := map[int]bool{}
		for _, f := range list(s) {
			n, err := strconv.Atoi(f)
			if err != nil || n <= 0 {
				return nil, false
			}
			m[n] = true
		}
		return m, len(m) > 0
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() (string, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		if v, ok := strings.CutPrefix(a, "--"); ok {
			key, val, hasVal := strings.Cut(v, "=")
			switch key {
			case "help":
				env.Out().WriteString(psHelp)
				return 0
			case "version":
				return env.PrintVersion()
			case "no-headers", "no-heading":
				noHeaders = true
				continue
			case "format", "pid", "ppid", "user", "User", "sort", "quick-pid":
			default:
				return errorf("unknown gnu long option")
			}
			if !hasVal {
				var ok bool
				if val, ok = next(); !ok {
					return errorf("list of process IDs must follow --" + key)
				}
			}
			switch key {
			case "format":
				format = append(format, list(val)...)
			case "pid", "quick-pid":
				m, ok := intList(val, key)
				if !ok {
					return errorf("process ID list syntax error")
				}
				pids = merge(pids, m)
			case "ppid":
				m, ok := intList(val, key)
				if !ok {
					return errorf("process ID list syntax error")
				}
				ppids = merge(ppids, m)
			case "user", "User":
				users = append(users, list(val)...)
			case "sort":
				sortKeys = append(sortKeys, list(val)...)
			}
			continue
		}
		unix := strings.HasPrefix(a, "-")
		body := strings.TrimPrefix(a, "-")
		for j := 0; j < len(body); j++ {
			c := body[j]
			arg := func() (string, bool) {
				if j+1 < len(body) {
					v := body[j+1:]
					j = len(body)
					return v, true
				}
				return next()
			}
			switch {
			case c == 'e' && unix, c == 'A' && unix, c == 'a', c == 'x':
				all = all || c != 'a' || !unix
			case c == 'f' && unix, c == 'F' && unix, c == 'l' && unix:
				full = true
			case c == 'u' && !unix:
				bsdUser = true
			case c == 'w', c == 'H', c == 'h' && !unix, c == 'j' && unix, c == 'T' && unix, c == 'r', c == 'c' && !unix:
				if c == 'h' {
					noHeaders = true
				}
			case c == 'o' || c == 'O':
				v, ok := arg()
				if !ok {
					return errorf("format specification must follow -o")
				}
				format = append(format, list(v)...)
			case c == 'p' || c == 'q':
				v, ok := arg()
				if !ok {
					return errorf("list of process IDs must follow -p")
				}
				m, ok := intList(v, "p")
				if !ok {
					return errorf("process ID list syntax error")
				}
				pids = merge(pids, m)
			case c == 'C' && unix:
				v, ok := arg()
				if !ok {
					return errorf("list of command names must follow -C")
				}
				if names == nil {
					names = map[string]bool{}
				}
				for _, n := range list(v) {
					names[n] = true
				}
			case (c == 'u' || c == 'U') && unix:
				v, ok := arg()
				if !ok {
					return errorf("list of users must follow -u")
				}
				users = append(users, list(v)...)
			default:
				if unix {
					return errorf("unsupported SysV option")
				}
				return errorf("unsupported option (BSD syntax)")
			}
		}
	}
	if len(pids) > 0 || len(names) > 0 || len(users) > 0 || len(ppids) > 0 {
		all = false
	}
	infos, err := proc.List()
	if err != nil {
		env.Errorf("cannot read the process table: %s", tool.Strerror(err))
		return 1
	}
	sys, _ := proc.System()
	now := sys.Now
	if now.IsZero() {
		now = time.Now()
	}
	self := proc.Self()
	var procs []*psProc
	for i, in := range infos {
		p := &psProc{Info: in, now: now, total: sys.MemTotal, self: in.Pid == self, main: i == 0 && in.PPid == 0}
		if !selected(p, pids, ppids, names, users) {
			continue
		}
		procs = append(procs, p)
	}
	_ = all // every process of the sandbox is in its one session
	// The columns.
	var cols []column
	if len(format) > 0 {
		for _, f := range format {
			name, header, renamed := strings.Cut(f, "=")
			c, ok := lookupColumn(name)
			if !ok {
				return errorf("unknown user-defined format specifier \"" + name + "\"")
			}
			if renamed {
				c.header = header
			}
			cols = append(cols, c)
		}
	} else {
		var names []string
		switch {
		case bsdUser:
			names = []string{"user", "pid", "%cpu", "%mem", "vsz", "rss", "tname", "stat", "start_time", "bsdtime", "command"}
		case full:
			names = []string{"uid=UID", "pid", "ppid", "c", "stime", "tty=TTY", "time", "cmd"}
		default:
			names = []string{"pid", "tty=TTY", "time", "ucmd"}
		}
		for _, n := range names {
			name, header, renamed := strings.Cut(n, "=")
			c, _ := lookupColumn(name)
			if renamed {
				c.header = header
			}
			if full && name == "uid" {
				c = column{"UID", 8, true, func(*psProc) string { return id.Current.Name }}
			}
			cols = append(cols, c)
		}
	}
	if len(sortKeys) > 0 {
		sortProcs(procs, sortKeys)
	}
	w := env.Out()
	header := false
	for _, c := range cols {
		header = header || c.header != ""
	}
	if header && !noHeaders {
		row := make([]string, len(cols))
		for i, c := range cols {
			row[i] = c.header
		}
		writeRow(w, cols, row)
	}
	for _, p := range procs {
		row := make([]string, len(cols))
		for i, c := range cols {
			row[i] = c.value(p)
		}
		writeRow(w, cols, row)
	}
	if len(procs) == 0 {
		return 1
	}
	return 0
}

func merge(a, b map[int]bool) map[int]bool {
	if a == nil {
		return b
	}
	for k := range b {
		a[k] = true
	}
	return a
}

func selected(p *psProc, pids, ppids map[int]bool, names map[string]bool, users []string) bool {
	if len(pids) == 0 && len(ppids) == 0 && len(names) == 0 && len(users) == 0 {
		return true
	}
	if pids[p.Pid] || ppids[p.PPid] || names[p.comm()] {
		return true
	}
	for _, u := range users {
		if u == id.Current.Name || u == strconv.Itoa(id.Current.UID) {
			return true
		}
	}
	return false
}

// writeRow writes one line: right-aligned columns are padded on the
// left, left-aligned ones on the right except the last.
func writeRow(w interface{ WriteString(string) (int, error) }, cols []column, row []string) {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(' ')
		}
		v := row[i]
		pad := c.width - len(v)
		switch {
		case !c.left:
			if pad > 0 {
				b.WriteString(strings.Repeat(" ", pad))
			}
			b.WriteString(v)
		case i == len(cols)-1:
			b.WriteString(v)
		default:
			b.WriteString(v)
			if pad > 0 {
				b.WriteString(strings.Repeat(" ", pad))
			}
		}
	}
	w.WriteString(strings.TrimRight(b.String(), " ") + "\n")
}

// sortProcs orders procs by --sort keys ([+-]name,...).
func sortProcs(procs []*psProc, keys []string) {
	sort.SliceStable(procs, func(i, j int) bool {
		for _, k := range keys {
			desc := strings.HasPrefix(k, "-")
			k = strings.TrimLeft(k, "+-")
			a, b := procs[i], procs[j]
			var less, more bool
			switch k {
			case "pid":
				less, more = a.Pid < b.Pid, a.Pid > b.Pid
			case "ppid":
				less, more = a.PPid < b.PPid, a.PPid > b.PPid
			case "rss", "vsz", "%mem", "pmem":
				less, more = a.Mem < b.Mem, a.Mem > b.Mem
			case "time", "cputime", "%cpu", "pcpu":
				less, more = a.CPU < b.CPU, a.CPU > b.CPU
			case "start_time", "etime", "stime":
				less, more = a.Start.Before(b.Start), a.Start.After(b.Start)
				if k == "etime" {
					less, more = more, less
				}
			case "comm", "cmd", "args", "command":
				less, more = a.comm() < b.comm(), a.comm() > b.comm()
			default:
				continue
			}
			if desc {
				less, more = more, less
			}
			if less || more {
				return less
			}
		}
		return false
	})
}
