// Package touch implements touch: change file timestamps, creating files
// that do not exist.
package touch

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a'},
		{Short: 'c', Long: "no-create"},
		{Short: 'd', Long: "date", Arg: tool.RequiredArg},
		{Short: 'f'},
		{Short: 'h', Long: "no-dereference"},
		{Short: 'm'},
		{Short: 'r', Long: "reference", Arg: tool.RequiredArg},
		{Short: 't', Arg: tool.RequiredArg},
		{Long: "time", Arg: tool.RequiredArg},
	},
	Help: `Usage: touch [OPTION]... FILE...
Update the access and modification times of each FILE to the current time.

A FILE argument that does not exist is created empty, unless -c or -h
is supplied.

A FILE argument string of - is handled specially and causes touch to
change the times of the file associated with standard output.

  -a                     change only the access time
  -c, --no-create        do not create any files
  -d, --date=STRING      parse STRING and use it instead of current time
  -f                     (ignored)
  -h, --no-dereference   affect each symbolic link instead of any referenced
                         file
  -m                     change only the modification time
  -r, --reference=FILE   use this file's times instead of current time
  -t STAMP               use [[CC]YY]MMDDhhmm[.ss] instead of current time
      --time=WORD        change the specified time:
                           WORD is access, atime, or use: equivalent to -a
                           WORD is modify or mtime: equivalent to -m
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs touch.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	now := time.Now()
	atime, mtime := now, now
	onlyA, onlyM, noCreate := false, false, false
	var ref string
	var dateArg, stampArg string
	for _, f := range flags {
		switch f.Name {
		case "a":
			onlyA = true
		case "m":
			onlyM = true
		case "c", "h":
			noCreate = true
		case "d":
			dateArg = f.Arg
		case "r":
			ref = f.Arg
		case "t":
			stampArg = f.Arg
		case "time":
			switch f.Arg {
			case "access", "atime", "use":
				onlyA = true
			case "modify", "mtime":
				onlyM = true
			default:
				env.Errorf("invalid argument %s for '--time'", tool.Quote(f.Arg))
				return env.Usage(1, "")
			}
		}
	}
	if ref != "" {
		fi, err := os.Stat(ref)
		if err != nil {
			env.Errorf("failed to get attributes of %s: %s", tool.Quote(ref), tool.Strerror(err))
			return 1
		}
		mtime = fi.ModTime()
		atime = accessTime(fi)
	}
	if stampArg != "" {
		t, ok := parseStamp(stampArg, now)
		if !ok {
			env.Errorf("invalid date format %s", tool.Quote(stampArg))
			return 1
		}
		atime, mtime = t, t
	}
	if dateArg != "" {
		base := now
		if ref != "" {
			base = mtime
		}
		t, ok := tool.ParseDate(dateArg, base, time.Local)
		if !ok {
			env.Errorf("invalid date format %s", tool.Quote(dateArg))
			return 1
		}
		atime, mtime = t, t
	}
	if len(files) == 0 {
		return env.Usage(1, "missing file operand")
	}
	status := 0
	for _, name := range files {
		if name == "-" {
			continue
		}
		fi, err := os.Stat(name)
		if err != nil {
			if noCreate {
				continue
			}
			f, cerr := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o666)
			if cerr != nil {
				env.Errorf("cannot touch %s: %s", tool.Quote(name), tool.Strerror(cerr))
				status = 1
				continue
			}
			f.Close()
			if dateArg == "" && stampArg == "" && ref == "" {
				continue // a new file already has the current time
			}
			fi, err = os.Stat(name)
			if err != nil {
				env.Errorf("cannot touch %s: %s", tool.Quote(name), tool.Strerror(err))
				status = 1
				continue
			}
		}
		a, m := atime, mtime
		if onlyM && !onlyA {
			a = accessTime(fi)
		}
		if onlyA && !onlyM {
			m = fi.ModTime()
		}
		if err := os.Chtimes(name, a, m); err != nil {
			env.Errorf("setting times of %s: %s", tool.Quote(name), tool.Strerror(err))
			status = 1
		}
	}
	return status
}

// parseStamp parses [[CC]YY]MMDDhhmm[.ss].
func parseStamp(s string, now time.Time) (time.Time, bool) {
	sec := 0
	if i := len(s) - 3; i >= 0 && s[i] == '.' {
		v, err := strconv.Atoi(s[i+1:])
		if err != nil || v > 61 {
			return time.Time{}, false
		}
		sec = v
		s = s[:i]
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return time.Time{}, false
		}
	}
	year := now.Year()
	switch len(s) {
	case 8:
	case 10:
		yy, _ := strconv.Atoi(s[:2])
		if yy < 69 {
			year = 2000 + yy
		} else {
			year = 1900 + yy
		}
		s = s[2:]
	case 12:
		year, _ = strconv.Atoi(s[:4])
		s = s[4:]
	default:
		return time.Time{}, false
	}
	num := func(i int) int { v, _ := strconv.Atoi(s[i : i+2]); return v }
	mon, day, hour, min := num(0), num(2), num(4), num(6)
	if mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(mon), day, hour, min, sec, 0, time.Local)
	if t.Day() != day {
		return time.Time{}, false
	}
	return t, true
}

var errNoAtime = errors.New("no access time")

func accessTime(fi fs.FileInfo) time.Time {
	if t, err := atimeOf(fi); err == nil {
		return t
	}
	return fi.ModTime()
}
