// Package sleep implements sleep: pause for the sum of the given intervals.
package sleep

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{Help: `Usage: sleep NUMBER[SUFFIX]...
  or:  sleep OPTION
Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),
'm' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an
integer.  Given two or more arguments, pause for the amount of time
specified by the sum of their values.

      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs sleep.
func Main(env *tool.Env) int {
	_, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	if len(args) == 0 {
		return env.Usage(1, "missing operand")
	}
	total := 0.0
	bad := false
	for _, a := range args {
		s, ok := ParseInterval(a)
		if !ok {
			env.Errorf("invalid time interval %s", tool.Quote(a))
			bad = true
			continue
		}
		total += s
	}
	if bad {
		return env.Usage(1, "")
	}
	d := time.Duration(math.MaxInt64)
	if total < d.Seconds() {
		d = time.Duration(total * float64(time.Second))
	}
	time.Sleep(d)
	return 0
}

// ParseInterval parses NUMBER[smhd] into seconds.
func ParseInterval(s string) (float64, bool) {
	mult := 1.0
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 's':
			s = s[:n-1]
		case 'm':
			mult, s = 60, s[:n-1]
		case 'h':
			mult, s = 3600, s[:n-1]
		case 'd':
			mult, s = 86400, s[:n-1]
		}
	}
	if s == "" || strings.ContainsAny(s, "_") || s[0] == '+' && len(s) > 1 && s[1] == '-' {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRange(err) || v < 0 || math.IsNaN(v) {
		return 0, false
	}
	return v * mult, true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
