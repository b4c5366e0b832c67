// Package yes implements yes: print a line over and over until the output
// is closed.
package yes

import (
	"errors"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{Help: `Usage: yes [STRING]...
  or:  yes OPTION
Repeatedly output a line with all specified STRING(s), or 'y'.

      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs yes.
func Main(env *tool.Env) int {
	_, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	line := "y\n"
	if len(args) > 0 {
		line = strings.Join(args, " ") + "\n"
	}
	// Fill a buffer with whole lines so each write moves many of them.
	buf := []byte(line)
	for len(buf) < 16<<10 {
		buf = append(buf, buf...)
	}
	buf = buf[:len(buf)/len(line)*len(line)]
	// Unbuffered: each write is already large, and a failed write must be
	// reported once, as GNU does, without a second report at exit.
	for {
		if _, err := env.Stdout.Write(buf); err != nil {
			if errors.Is(err, syscall.EPIPE) {
				return tool.ExitPipe
			}
			env.Errorf("standard output: %s", tool.Strerror(err))
			return 1
		}
	}
}
