package shell

import (
	"fmt"
	"strconv"
	"strings"
)

// A resource is one of ulimit's limits, as bash lists them on Linux.
type resource struct {
	opt   byte
	desc  string
	units string // "" for a plain count
	scale uint64 // bytes (or units) per unit shown
	// fixed limits cannot be changed (the pipe size).
	fixed bool
}

// resources is ulimit -a's order.
var resources = [...]resource{
	{opt: 'R', desc: "real-time non-blocking time", units: "microseconds", scale: 1},
	{opt: 'c', desc: "core file size", units: "blocks", scale: 512},
	{opt: 'd', desc: "data seg size", units: "kbytes", scale: 1024},
	{opt: 'e', desc: "scheduling priority", scale: 1},
	{opt: 'f', desc: "file size", units: "blocks", scale: 512},
	{opt: 'i', desc: "pending signals", scale: 1},
	{opt: 'l', desc: "max locked memory", units: "kbytes", scale: 1024},
	{opt: 'm', desc: "max memory size", units: "kbytes", scale: 1024},
	{opt: 'n', desc: "open files", scale: 1},
	{opt: 'p', desc: "pipe size", units: "512 bytes", scale: 512, fixed: true},
	{opt: 'q', desc: "POSIX message queues", units: "bytes", scale: 1},
	{opt: 'r', desc: "real-time priority", scale: 1},
	{opt: 's', desc: "stack size", units: "kbytes", scale: 1024},
	{opt: 't', desc: "cpu time", units: "seconds", scale: 1},
	{opt: 'u', desc: "max user processes", scale: 1},
	{opt: 'v', desc: "virtual memory", units: "kbytes", scale: 1024},
	{opt: 'x', desc: "file locks", scale: 1},
}

// unlimited is RLIM_INFINITY.
const unlimited = ^uint64(0)

// rlimit is a soft and a hard limit, in bytes or counts (unscaled).
type rlimit struct{ soft, hard uint64 }

// rlimits is a shell's limits, indexed like resources. It is an array, so
// a subshell's copy of the Interp has its own: a limit set in ( ... )
// does not reach the parent, as with setrlimit in a forked bash.
type rlimits [len(resources)]rlimit

// ProcessLimits are the limits the sandbox holds every program to, which
// `ulimit` shows as hard limits: virtual memory (-v) and user processes
// (-u). Zero fields are unlimited.
type ProcessLimits struct {
	MemoryBytes int64
	Processes   int
}

// defaultRlimits are a fresh shell's limits: the sandbox's own where it
// has them, otherwise those of a common Linux login (no core files, an
// 8 MiB stack, 1024 open files).
func defaultRlimits(p ProcessLimits) rlimits {
	var l rlimits
	for i, res := range resources {
		l[i] = rlimit{unlimited, unlimited}
		switch res.opt {
		case 'c':
			l[i].soft = 0
		case 'e', 'r':
			l[i] = rlimit{0, 0}
		case 'l':
			l[i] = rlimit{8 << 20, 8 << 20}
		case 'n':
			l[i] = rlimit{maxFd + 1, maxFd + 1}
		case 'p':
			l[i] = rlimit{4096, 4096}
		case 'q':
			l[i] = rlimit{819200, 819200}
		case 's':
			l[i].soft = 8 << 20
		case 'i', 'u':
			if p.Processes > 0 {
				l[i] = rlimit{uint64(p.Processes), uint64(p.Processes)}
			}
		case 'v':
			if p.MemoryBytes > 0 {
				l[i] = rlimit{uint64(p.MemoryBytes), uint64(p.MemoryBytes)}
			}
		}
	}
	return l
}

// fdLimit is the lowest file descriptor number the shell may not use:
// the soft limit on open files.
func (r *Interp) fdLimit() int {
	n := r.limits[resourceIndex('n')].soft
	if n > maxFd+1 {
		return maxFd + 1
	}
	return int(n)
}

func resourceIndex(opt byte) int {
	for i, res := range resources {
		if res.opt == opt {
			return i
		}
	}
	return -1
}

const ulimitUsage = "ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]\n"

// builtinUlimit is bash's ulimit: -S and -H choose the soft or hard limit
// (setting without either sets both, printing shows the soft one), -a
// prints every limit, and each resource option prints or, followed by a
// number, unlimited, hard or soft, sets its limit. The sandbox holds
// programs to its own limits whatever ulimit says; open files (-n) also
// bound the descriptors the shell's redirections may use.
func builtinUlimit(r *Interp, args []string) int {
	type op struct {
		res int
		arg *string
	}
	soft, hard, all := false, false, false
	var ops []op
	args = args[1:]
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		args = args[1:]
		for k := 1; k < len(a); k++ {
			switch c := a[k]; c {
			case 'S':
				soft = true
			case 'H':
				hard = true
			case 'a':
				all = true
			default:
				i := resourceIndex(c)
				if i < 0 {
					r.builtinErr("ulimit", "-%c: invalid option", c)
					r.writeErr(ulimitUsage)
					return 2
				}
				o := op{res: i}
				// A value may follow the option that is last in its word.
				if k == len(a)-1 && len(args) > 0 && !strings.HasPrefix(args[0], "-") {
					o.arg = &args[0]
					args = args[1:]
				}
				ops = append(ops, o)
			}
		}
	}
	if all {
		out := ""
		for i := range resources {
			out += r.ulimitLine(i, hard, true)
		}
		return r.writeOut("ulimit", out)
	}
	if len(ops) == 0 {
		o := op{res: resourceIndex('f')}
		if len(args) > 0 {
			o.arg = &args[0]
		}
		ops = append(ops, o)
	} else if last := &ops[len(ops)-1]; last.arg == nil && len(args) > 0 {
		last.arg = &args[0]
	}
	status := 0
	for _, o := range ops {
		if o.arg == nil {
			if w := r.writeOut("ulimit", r.ulimitLine(o.res, hard, len(ops) > 1)); w != 0 {
				return w
			}
			continue
		}
		if !r.setUlimit(o.res, *o.arg, soft, hard) {
			status = 1
		}
	}
	return status
}

// ulimitLine formats one limit as bash prints it, with its description
// when labelled.
func (r *Interp) ulimitLine(i int, hard, labelled bool) string {
	res := resources[i]
	v := r.limits[i].soft
	if hard {
		v = r.limits[i].hard
	}
	val := "unlimited"
	if v != unlimited {
		val = strconv.FormatUint(v/res.scale, 10)
	}
	if !labelled {
		return val + "\n"
	}
	unit := fmt.Sprintf("(-%c) ", res.opt)
	if res.units != "" {
		unit = fmt.Sprintf("(%s, -%c) ", res.units, res.opt)
	}
	return fmt.Sprintf("%-20s %20s%s\n", res.desc, unit, val)
}

// setUlimit sets limit i from word, as setrlimit would: no soft limit
// above the hard one, no hard limit raised.
func (r *Interp) setUlimit(i int, word string, soft, hard bool) bool {
	res := resources[i]
	cur := r.limits[i]
	var v uint64
	switch word {
	case "unlimited":
		v = unlimited
	case "hard":
		v = cur.hard
	case "soft":
		v = cur.soft
	default:
		n, ok := ulimitNumber(r, word)
		if !ok {
			return false
		}
		if n > unlimited/res.scale {
			v = unlimited
		} else {
			v = n * res.scale
		}
	}
	if !soft && !hard {
		soft, hard = true, true
	}
	next := cur
	if hard {
		next.hard = v
	}
	if soft {
		next.soft = v
	}
	switch {
	case res.fixed:
		r.builtinErr("ulimit", "%s: cannot modify limit: Invalid argument", res.desc)
		return false
	case next.soft > next.hard:
		r.builtinErr("ulimit", "%s: cannot modify limit: Invalid argument", res.desc)
		return false
	case next.hard > cur.hard:
		r.builtinErr("ulimit", "%s: cannot modify limit: Operation not permitted", res.desc)
		return false
	}
	r.limits[i] = next
	return true
}

// ulimitNumber reads a limit's number as bash does: decimal digits only
// (010 is ten), with its own complaint for a 0x prefix.
func ulimitNumber(r *Interp, word string) (uint64, bool) {
	if len(word) > 1 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X') {
		r.builtinErr("ulimit", "%s: invalid hex number", word)
		return 0, false
	}
	n, err := strconv.ParseUint(word, 10, 64)
	if err != nil || strings.ContainsAny(word, "+-") {
		r.builtinErr("ulimit", "%s: invalid number", word)
		return 0, false
	}
	return n, true
}
