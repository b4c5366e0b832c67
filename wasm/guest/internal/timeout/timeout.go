// Package timeout implements timeout: run a command with a time limit,
// ending it when the limit passes (exit status 124).
package timeout

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	envcmd "github.com/wasmsand/wasmsand/wasm/guest/internal/env"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Long: "foreground"},
		{Short: 'k', Long: "kill-after", Arg: tool.RequiredArg},
		{Long: "preserve-status"},
		{Short: 's', Long: "signal", Arg: tool.RequiredArg},
		{Short: 'v', Long: "verbose"},
	},
	UsageExit:     125,
	StopAtOperand: true,
	Help: `Usage: timeout [OPTION] DURATION COMMAND [ARG]...
  or:  timeout [OPTION]
Start COMMAND, and kill it if still running after DURATION.

      --preserve-status
                 exit with the same status as COMMAND, even when the
                   command times out
      --foreground
                 when not running timeout directly from a shell prompt,
                   allow COMMAND to read from the TTY and get TTY signals
  -k, --kill-after=DURATION
                 also send a KILL signal if COMMAND is still running
                   this long after the initial signal was sent
  -s, --signal=SIGNAL
                 specify the signal to be sent on timeout;
                   SIGNAL may be a name like 'HUP' or a number;
                   see 'kill -l' for a list of signals
  -v, --verbose  diagnose to stderr any signal sent upon timeout
      --help        display this help and exit
      --version     output version information and exit

DURATION is a floating point number with an optional suffix:
's' for seconds (the default), 'm' for minutes, 'h' for hours or 'd' for days.
A duration of 0 disables the associated timeout.

Upon timeout, send the TERM signal to COMMAND, if no other SIGNAL specified.
If the command times out, and --preserve-status is not set, then exit with
status 124.  Otherwise, exit with the status of COMMAND.
`}

// Signals are the signal names timeout accepts, by number.
var Signals = map[string]int{
	"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "BUS": 7, "FPE": 8,
	"KILL": 9, "USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15,
	"CHLD": 17, "CONT": 18, "STOP": 19, "TSTP": 20, "TTIN": 21, "TTOU": 22,
}

// ParseSignal reads a signal name ("TERM", "SIGTERM", "term") or number.
func ParseSignal(s string) (name string, num int, ok bool) {
	if n, err := strconv.Atoi(s); err == nil {
		for k, v := range Signals {
			if v == n {
				return k, n, true
			}
		}
		if n >= 0 && n <= 64 {
			return s, n, true
		}
		return "", 0, false
	}
	u := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	n, ok := Signals[u]
	return u, n, ok
}

// ParseDuration reads a GNU timeout duration: a non-negative decimal
// number with an optional s, m, h or d suffix.
func ParseDuration(s string) (time.Duration, bool) {
	mult := 1.0
	if s != "" {
		switch s[len(s)-1] {
		case 's':
			s = s[:len(s)-1]
		case 'm':
			mult, s = 60, s[:len(s)-1]
		case 'h':
			mult, s = 3600, s[:len(s)-1]
		case 'd':
			mult, s = 86400, s[:len(s)-1]
		}
	}
	if s == "" || strings.ContainsAny(s, "+-eExXpPnN_ ") {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || math.IsNaN(v) {
		return 0, false
	}
	sec := v * mult
	if sec > float64(math.MaxInt64/int64(time.Second)) {
		return math.MaxInt64, true
	}
	return time.Duration(sec * float64(time.Second)), true
}

// Main runs timeout.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	sigName, sigNum := "TERM", 15
	var killAfter time.Duration
	preserve, verbose := false, false
	for _, f := range flags {
		switch f.Name {
		case "k":
			d, ok := ParseDuration(f.Arg)
			if !ok {
				env.Errorf("invalid time interval %s", tool.Quote(f.Arg))
				return env.Usage(125, "")
			}
			killAfter = d
		case "s":
			n, num, ok := ParseSignal(f.Arg)
			if !ok {
				env.Errorf("%s: invalid signal", tool.Quote(f.Arg))
				return env.Usage(125, "")
			}
			sigName, sigNum = n, num
		case "preserve-status":
			preserve = true
		case "v":
			verbose = true
		}
	}
	if len(args) < 2 {
		return env.Usage(125, "")
	}
	limit, ok := ParseDuration(args[0])
	if !ok {
		env.Errorf("invalid time interval %s", tool.Quote(args[0]))
		return env.Usage(125, "")
	}
	argv := args[1:]
	p, finish, err := envcmd.Start(env, argv, os.Environ(), "")
	if err != nil {
		return envcmd.ReportStartError(env, "failed to run command ", argv[0], err)
	}
	type result struct {
		status int
		err    error
	}
	exited := make(chan result, 1)
	go func() {
		s, err := p.Wait()
		exited <- result{s, err}
	}()
	var expire <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		expire = t.C
	}
	timedOut := false
	var r result
	select {
	case r = <-exited:
	case <-expire:
		timedOut = true
		if verbose {
			fmt.Fprintf(env.Stderr, "%s: sending signal %s to command %s\n", env.Name(), sigName, tool.Quote(argv[0]))
		}
		p.Kill()
		if killAfter > 0 {
			t := time.NewTimer(killAfter)
			select {
			case r = <-exited:
			case <-t.C:
				if verbose {
					fmt.Fprintf(env.Stderr, "%s: sending signal KILL to command %s\n", env.Name(), tool.Quote(argv[0]))
				}
				p.Kill()
				r = <-exited
				sigNum = 9
			}
			t.Stop()
		} else {
			r = <-exited
		}
	}
	finish()
	if r.err != nil {
		env.Errorf("error waiting for command: %s", tool.Strerror(r.err))
		return 125
	}
	if timedOut {
		// A command ended by KILL reports it even without
		// --preserve-status, as GNU timeout does.
		if preserve || sigNum == 9 {
			return 128 + sigNum
		}
		return 124
	}
	return r.status
}
