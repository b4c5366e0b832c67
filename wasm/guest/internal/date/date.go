// Package date implements date: print the date and time (from the
// sandbox's clock, which may be injected) in a given format, or a date
// given with -d or -r. Setting the clock is refused.
package date

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"time"
	_ "time/tzdata" // TZ=Region/City works without a zoneinfo directory

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'd', Long: "date", Arg: tool.RequiredArg},
		{Long: "debug"},
		{Short: 'f', Long: "file", Arg: tool.RequiredArg},
		{Short: 'I', Long: "iso-8601", Arg: tool.OptionalArg},
		{Long: "resolution"},
		{Short: 'R', Long: "rfc-email"},
		{Long: "rfc-822"},
		{Long: "rfc-2822"},
		{Long: "rfc-3339", Arg: tool.RequiredArg},
		{Short: 'r', Long: "reference", Arg: tool.RequiredArg},
		{Short: 's', Long: "set", Arg: tool.RequiredArg},
		{Short: 'u', Long: "utc"},
		{Long: "universal"},
	},
	Help: `Usage: date [OPTION]... [+FORMAT]
Display date and time in the given FORMAT.

  -d, --date=STRING          display time described by STRING, not 'now'
  -f, --file=DATEFILE        like --date; once for each line of DATEFILE
  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format.
                               FMT='date' for date only (the default),
                               'hours', 'minutes', 'seconds', or 'ns'
                               for date and time to the indicated precision.
                               Example: 2006-08-14T02:34:56-06:00
      --resolution           output the available resolution of timestamps
  -R, --rfc-email            output date and time in RFC 5322 format.
                               Example: Mon, 14 Aug 2006 02:34:56 -0600
      --rfc-3339=FMT         output date/time in RFC 3339 format.
                               FMT='date', 'seconds', or 'ns'
  -r, --reference=FILE       display the last modification time of FILE
  -s, --set=STRING           set time described by STRING (refused)
  -u, --utc, --universal     print or set Coordinated Universal Time (UTC)
      --help        display this help and exit
      --version     output version information and exit

FORMAT controls the output.  Interpreted sequences are the strftime ones
(%a %A %b %B %c %C %d %D %e %F %g %G %h %H %I %j %k %l %m %M %n %N %p %P
%q %r %R %s %S %t %T %u %U %V %w %W %x %X %y %Y %z %:z %::z %:::z %Z %%),
with the flags - (no padding), _ (spaces), 0 (zeros), ^ (upper case) and
# (opposite case), and an optional field width.
`}

var isoFormats = map[string]string{
	"date":    "%Y-%m-%d",
	"hours":   "%Y-%m-%dT%H%:z",
	"minutes": "%Y-%m-%dT%H:%M%:z",
	"seconds": "%Y-%m-%dT%H:%M:%S%:z",
	"ns":      "%Y-%m-%dT%H:%M:%S,%N%:z",
}

var rfc3339Formats = map[string]string{
	"date":    "%Y-%m-%d",
	"seconds": "%Y-%m-%d %H:%M:%S%:z",
	"ns":      "%Y-%m-%d %H:%M:%S.%N%:z",
}

// Main runs date.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	var dateArg, fileArg, refArg, format string
	haveDate, utc, resolution := false, false, false
	nformats := 0
	for _, f := range flags {
		switch f.Name {
		case "d":
			dateArg, haveDate = f.Arg, true
		case "f":
			fileArg = f.Arg
		case "I":
			arg := f.Arg
			if !f.HasArg {
				arg = "date"
			}
			fm, ok := isoFormats[expandWord(arg, isoFormats)]
			if !ok {
				return badArg(env, arg, "--iso-8601", "hours", "minutes", "date", "seconds", "ns")
			}
			format = fm
			nformats++
		case "R", "rfc-822", "rfc-2822":
			format = "%a, %d %b %Y %H:%M:%S %z"
			nformats++
		case "rfc-3339":
			fm, ok := rfc3339Formats[expandWord(f.Arg, rfc3339Formats)]
			if !ok {
				return badArg(env, f.Arg, "--rfc-3339", "date", "seconds", "ns")
			}
			format = fm
			nformats++
		case "r":
			refArg = f.Arg
		case "resolution":
			resolution = true
		case "s":
			env.Errorf("cannot set date: Operation not permitted")
			return 1
		case "u", "universal":
			utc = true
		}
	}
	loc := Location(env)
	if utc {
		loc = time.UTC
	}
	if len(args) > 1 {
		return env.Usage(1, "extra operand %s", tool.Quote(args[1]))
	}
	for _, a := range args {
		if strings.HasPrefix(a, "+") {
			if nformats > 0 || format != "" {
				env.Errorf("multiple output formats specified")
				return 1
			}
			format = a[1:]
			nformats++
			continue
		}
		// Setting the date from an operand is refused like -s.
		env.Errorf("cannot set date: Operation not permitted")
		return 1
	}
	if nformats > 1 {
		env.Errorf("multiple output formats specified")
		return 1
	}
	if haveDate && fileArg != "" || haveDate && refArg != "" || fileArg != "" && refArg != "" {
		env.Errorf("the options to specify dates for printing are mutually exclusive")
		return env.Usage(1, "")
	}
	if format == "" {
		format = "%a %b %e %H:%M:%S %Z %Y"
	}
	w := env.Out()
	now := time.Now()
	if resolution {
		w.WriteString("0.000000001\n")
		return 0
	}
	show := func(t time.Time) {
		w.WriteString(Format(format, t.In(loc)))
		w.WriteByte('\n')
	}
	switch {
	case fileArg != "":
		r, err := env.Open(fileArg)
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(fileArg), tool.Strerror(err))
			return 1
		}
		defer r.Close()
		status := 0
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			t, ok := Parse(sc.Text(), now, loc)
			if !ok {
				env.Errorf("invalid date %s", tool.Quote(sc.Text()))
				status = 1
				continue
			}
			show(t)
		}
		return status
	case refArg != "":
		fi, err := os.Stat(refArg)
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(refArg), tool.Strerror(err))
			return 1
		}
		show(fi.ModTime())
	case haveDate:
		t, ok := Parse(dateArg, now, loc)
		if !ok {
			env.Errorf("invalid date %s", tool.Quote(dateArg))
			return 1
		}
		show(t)
	default:
		show(now)
	}
	return 0
}

// badArg reports an invalid option argument and the valid ones, as
// getopt's argmatch does.
func badArg(env *tool.Env, arg, option string, valid ...string) int {
	env.Errorf("invalid argument %s for '%s'", tool.Quote(arg), option)
	fmt.Fprintln(env.Stderr, "Valid arguments are:")
	for _, v := range valid {
		fmt.Fprintf(env.Stderr, "  - '%s'\n", v)
	}
	return env.Usage(1, "")
}

// expandWord completes an abbreviated argument ("sec" for "seconds").
func expandWord(arg string, choices map[string]string) string {
	if _, ok := choices[arg]; ok || arg == "" {
		return arg
	}
	found := ""
	for k := range choices {
		if strings.HasPrefix(k, arg) {
			if found != "" {
				return arg
			}
			found = k
		}
	}
	if found == "" {
		return arg
	}
	return found
}

// Location is the time zone from $TZ: UTC when unset or unknown.
func Location(env *tool.Env) *time.Location {
	tz := env.Env("TZ")
	tz = strings.TrimPrefix(tz, ":")
	if tz == "" || tz == "UTC" || tz == "UTC0" {
		return time.UTC
	}
	if l, err := time.LoadLocation(tz); err == nil {
		return l
	}
	return time.UTC
}
