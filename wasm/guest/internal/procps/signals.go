// Package procps implements the procps-ng commands over the sandbox's
// process table (see package proc): ps, kill, pgrep, pkill, pidof, free
// and uptime. Every process runs as the sandbox's one user and none has a
// terminal; the main shell is a session leader.
package procps

import (
	"strconv"
	"strings"
	"syscall"
)

// signalNames are Linux's signal names by number, 1 to 31.
var signalNames = []string{"", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL",
	"USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP",
	"TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "POLL", "PWR", "SYS"}

// aliases are other names procps accepts.
var aliases = map[string]int{"IOT": 6, "IO": 29, "CLD": 17, "POLL": 29}

// parseSignal reads a signal by name (with or without SIG, any case) or
// number.
func parseSignal(s string) (syscall.Signal, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		if n >= 0 && n < len(signalNames) {
			return syscall.Signal(n), true
		}
		return 0, false
	}
	u := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	for i, name := range signalNames {
		if i > 0 && name == u {
			return syscall.Signal(i), true
		}
	}
	if n, ok := aliases[u]; ok {
		return syscall.Signal(n), true
	}
	return 0, false
}
