// Package ts implements moreutils' ts: put a timestamp in front of each
// line of input. The format is strftime's, plus %.S, %.s and %.T for
// seconds with microseconds; -i and -s stamp the time since the previous
// line or since the start; -r turns timestamps already in the input into
// relative ones ("5m3s ago").
package ts

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const usage = "usage: ts [-r] [-i | -s] [-m] [format]\n"

// Main runs ts. Options are Perl getopts' "irsm": an unknown one is an
// error (status 255); remaining arguments after the format are files.
func Main(env *tool.Env) int {
	incremental, sinceStart, relative := false, false, false
	args := env.Args[1:]
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'i':
				incremental = true
			case 's':
				sinceStart = true
			case 'r':
				relative = true
			case 'm':
			default:
				fmt.Fprintf(env.Stderr, "Unknown option: %c\n%s", c, usage)
				return 255
			}
		}
	}
	if incremental && sinceStart {
		fmt.Fprint(env.Stderr, usage)
		return 255
	}
	format := "%b %d %H:%M:%S"
	if incremental || sinceStart {
		format = "%H:%M:%S"
	}
	if len(args) > 0 {
		format = args[0]
		args = args[1:]
	}
	var in io.Reader = env.Stdin
	if len(args) > 0 {
		var readers []io.Reader
		for _, name := range args {
			f, err := os.Open(name)
			if err != nil {
				fmt.Fprintf(env.Stderr, "Can't open %s: %s at /usr/bin/ts line 113.\n", name, tool.Strerror(err))
				continue
			}
			defer f.Close()
			readers = append(readers, f)
		}
		in = io.MultiReader(readers...)
	}
	r := bufio.NewReaderSize(in, 64<<10)
	w := env.Out()
	start := time.Now()
	last := start
	for {
		line, err := r.ReadString('\n')
		if line != "" {
			now := time.Now()
			switch {
			case relative:
				w.WriteString(relativize(line, now))
			case incremental:
				w.WriteString(stamp(format, time.Unix(0, 0).UTC().Add(now.Sub(last))) + " " + line)
				last = now
			case sinceStart:
				w.WriteString(stamp(format, time.Unix(0, 0).UTC().Add(now.Sub(start))) + " " + line)
			default:
				w.WriteString(stamp(format, now) + " " + line)
			}
			// Each line goes out as it comes: ts watches live output.
			if r.Buffered() == 0 {
				w.Flush()
			}
		}
		if err != nil {
			break
		}
	}
	return 0
}

// stamp formats t, with %.S, %.s and %.T carrying microseconds.
func stamp(format string, t time.Time) string {
	if strings.Contains(format, "%.") {
		micro := fmt.Sprintf(".%06d", t.Nanosecond()/1000)
		format = strings.ReplaceAll(format, "%.S", "%S"+micro)
		format = strings.ReplaceAll(format, "%.s", "%s"+micro)
		format = strings.ReplaceAll(format, "%.T", "%T"+micro)
	}
	return tool.Strftime(format, t)
}

// stampPattern finds the timestamps -r rewrites: syslog's "Mon dd
// hh:mm:ss", the format ts writes by default.
var stampPattern = regexp.MustCompile(`\b[A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d`)

func relativize(line string, now time.Time) string {
	return stampPattern.ReplaceAllStringFunc(line, func(s string) string {
		t, err := time.ParseInLocation("Jan _2 15:04:05", s, time.Local)
		t = t.AddDate(now.Year(), 0, 0)
		if err != nil {
			return s
		}
		return ago(now.Sub(t))
	})
}

// ago words d as ts -r does: the two largest units, "ago".
func ago(d time.Duration) string {
	s := int64(d / time.Second)
	if s < 0 {
		s = -s
	}
	units := []struct {
		n    int64
		name string
	}{{86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}}
	var parts []string
	for _, u := range units {
		if s >= u.n && len(parts) < 2 {
			parts = append(parts, strconv.FormatInt(s/u.n, 10)+u.name)
			s %= u.n
		}
	}
	if len(parts) == 0 {
		parts = []string{"0s"}
	}
	return strings.Join(parts, "") + " ago"
}
