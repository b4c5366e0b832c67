// Package timecmd implements GNU time (/usr/bin/time): run a command and
// report the time and memory it used. In the sandbox the user time is the
// time the command's WebAssembly code ran, the system time is zero (host
// calls are not told apart), the maximum resident set size is the largest
// linear memory among it and the children it waited for, and page faults,
// swaps and I/O counts are zero: the sandbox has no paging or block I/O.
package timecmd

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	envcmd "github.com/wasmsand/wasmsand/wasm/guest/internal/env"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/proc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: %s [OPTIONS] COMMAND [ARG]...
Run COMMAND, then print system resource usage.

  -a, --append              with -o FILE, append instead of overwriting
  -f, --format=FORMAT       use the specified FORMAT instead of the default
  -o, --output=FILE         write to FILE instead of STDERR
  -p, --portability         print POSIX standard 1003.2 conformant string:
                              real %%e
                              user %%U
                              sys %%S
  -q, --quiet               do not print information about abnormal program
                            termination (non-zero exit codes or signals)
  -v, --verbose             print all resource usage information instead of
                            the default format
  -h,  --help               display this help and exit
  -V,  --version            output version information and exit

Commonly usaged format sequences for -f/--format:
(see documentation for full list)
  %%%%   a literal '%%'
  %%C   command line and arguments
  %%c   involuntary context switches
  %%E   elapsed real time (wall clock) in [hour:]min:sec
  %%e   elapsed real time (wall clock) in seconds
  %%F   major page faults
  %%M   maximum resident set size in KB
  %%P   percent of CPU this job got
  %%R   minor page faults
  %%S   system (kernel) time in seconds
  %%U   user time in seconds
  %%w   voluntary context switches
  %%x   exit status of command

Default output format:
%%Uuser %%Ssystem %%Eelapsed %%PCPU (%%Xavgtext+%%Davgdata %%Mmaxresident)k
%%Iinputs+%%Ooutputs (%%Fmajor+%%Rminor)pagefaults %%Wswaps

NOTE: your shell may have its own version of time, which usually supersedes
the version described here.  Please refer to your shell's documentation
for details about the options it supports.
`

const (
	defaultFormat = "%Uuser %Ssystem %Eelapsed %PCPU (%Xavgtext+%Davgdata %Mmaxresident)k\n%Iinputs+%Ooutputs (%Fmajor+%Rminor)pagefaults %Wswaps"
	posixFormat   = "real %e\nuser %U\nsys %S"
	verboseFormat = "\tCommand being timed: \"%C\"\n\tUser time (seconds): %U\n\tSystem time (seconds): %S\n" +
		"\tPercent of CPU this job got: %P\n\tElapsed (wall clock) time (h:mm:ss or m:ss): %E\n" +
		"\tAverage shared text size (kbytes): %X\n\tAverage unshared data size (kbytes): %D\n" +
		"\tAverage stack size (kbytes): %p\n\tAverage total size (kbytes): %K\n" +
		"\tMaximum resident set size (kbytes): %M\n\tAverage resident set size (kbytes): %t\n" +
		"\tMajor (requiring I/O) page faults: %F\n\tMinor (reclaiming a frame) page faults: %R\n" +
		"\tVoluntary context switches: %w\n\tInvoluntary context switches: %c\n\tSwaps: %W\n" +
		"\tFile system inputs: %I\n\tFile system outputs: %O\n\tSocket messages sent: %s\n" +
		"\tSocket messages received: %r\n\tSignals delivered: %k\n\tPage size (bytes): %Z\n\tExit status: %x"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Long: "append"},
		{Short: 'f', Long: "format", Arg: tool.RequiredArg},
		{Short: 'o', Long: "output", Arg: tool.RequiredArg},
		{Short: 'p', Long: "portability"},
		{Short: 'q', Long: "quiet"},
		{Short: 'v', Long: "verbose"},
		{Short: 'h', Long: "help"},
		{Short: 'V', Long: "version"},
	},
	StopAtOperand: true,
	UsageExit:     125,
}

// result is what the timed command did.
type result struct {
	argv    []string
	status  int
	signal  int
	elapsed time.Duration
	ru      proc.Rusage
}

// Main runs time.
func Main(env *tool.Env) int {
	prog := "time"
	if len(env.Args) > 0 {
		prog = env.Args[0]
	}
	s := spec
	s.Help = fmt.Sprintf(help, prog)
	flags, argv, code, done := s.Parse(env)
	if done {
		return code
	}
	format := env.Env("TIME")
	if format == "" {
		format = defaultFormat
	}
	out, appendOut, quiet, posix := "", false, false, false
	for _, f := range flags {
		switch f.Name {
		case "a":
			appendOut = true
		case "f":
			format = f.Arg
		case "o":
			out = f.Arg
		case "p":
			format, posix = posixFormat, true
		case "q":
			quiet = true
		case "v":
			format = verboseFormat
		case "h":
			return env.Help(s.Help)
		case "V":
			return env.PrintVersion()
		}
	}
	if len(argv) == 0 {
		fmt.Fprintf(env.Stderr, "%s: missing program to run\nTry '%s --help' for more information.\n", prog, prog)
		return 125
	}
	var report io.Writer = env.Stderr
	if out != "" {
		flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if appendOut {
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := os.OpenFile(out, flag, 0o666)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: couldn't open output file '%s'\n", prog, out)
			return 125
		}
		defer f.Close()
		report = f
	}
	r := result{argv: argv}
	start := time.Now()
	p, finish, err := envcmd.Start(env, argv, os.Environ(), "")
	if err != nil {
		fmt.Fprintf(env.Stderr, "%s: cannot run %s: %s\n", prog, argv[0], startError(err))
		r.status = 127
		if !os.IsNotExist(err) && err != proc.ErrNotFound {
			r.status = 126
		}
	} else {
		r.status, r.ru, err = p.WaitRusage()
		finish()
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: error waiting for child process: %s\n", prog, tool.Strerror(err))
			return 1
		}
	}
	r.elapsed = time.Since(start)
	if r.status > 128 && r.status < 128+65 {
		r.signal = r.status - 128
	}
	var b strings.Builder
	if !quiet && !posix {
		switch {
		case r.signal != 0:
			fmt.Fprintf(&b, "Command terminated by signal %d\n", r.signal)
		case r.status != 0:
			fmt.Fprintf(&b, "Command exited with non-zero status %d\n", r.status)
		}
	}
	b.WriteString(expand(format, &r))
	b.WriteByte('\n')
	io.WriteString(report, b.String())
	return r.status
}

func startError(err error) string {
	if err == proc.ErrNotFound {
		return "No such file or directory"
	}
	if err == proc.ErrPermission {
		return "Permission denied"
	}
	return tool.Strerror(err)
}

func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 2, 64)
}

// expand fills in format's % directives and backslash escapes.
func expand(format string, r *result) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '\\' && i+1 < len(format) {
			i++
			switch format[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '\\':
				b.WriteByte('\\')
			default:
				b.WriteString("?\\" + string(format[i]))
			}
			continue
		}
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(format) {
			b.WriteString("?")
			break
		}
		i++
		switch format[i] {
		case '%':
			b.WriteByte('%')
		case 'C':
			b.WriteString(strings.Join(r.argv, " "))
		case 'e':
			b.WriteString(seconds(r.elapsed))
		case 'E':
			cs := int64(r.elapsed / (10 * time.Millisecond))
			h, m, s, hs := cs/360000, cs/6000%60, cs/100%60, cs%100
			if h > 0 {
				fmt.Fprintf(&b, "%d:%02d:%02d", h, m, s)
			} else {
				fmt.Fprintf(&b, "%d:%02d.%02d", m, s, hs)
			}
		case 'U':
			b.WriteString(seconds(r.ru.User))
		case 'S':
			b.WriteString(seconds(r.ru.Sys))
		case 'P':
			cpu := r.ru.User + r.ru.Sys
			if r.elapsed <= 0 {
				b.WriteString("?%")
			} else {
				fmt.Fprintf(&b, "%d%%", int64(float64(cpu)/float64(r.elapsed)*100))
			}
		case 'M':
			b.WriteString(strconv.FormatInt(r.ru.MaxMem/1024, 10))
		case 'x':
			if r.signal != 0 {
				b.WriteString(strconv.Itoa(r.signal + 128))
			} else {
				b.WriteString(strconv.Itoa(r.status))
			}
		case 'Z':
			b.WriteString("4096")
		case 'X', 'D', 'p', 'K', 't', 'F', 'R', 'W', 'c', 'w', 'I', 'O', 'r', 's', 'k':
			b.WriteByte('0')
		default:
			b.WriteString("?" + string(format[i]))
		}
	}
	return b.String()
}
