package procps

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/proc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const freeHelp = `
Usage:
 free [options]

Options:
 -b, --bytes         show output in bytes
     --kilo          show output in kilobytes
     --mega          show output in megabytes
     --giga          show output in gigabytes
     --tera          show output in terabytes
     --peta          show output in petabytes
 -k, --kibi          show output in kibibytes
 -m, --mebi          show output in mebibytes
 -g, --gibi          show output in gibibytes
     --tebi          show output in tebibytes
     --pebi          show output in pebibytes
 -h, --human         show human-readable output
     --si            use powers of 1000 not 1024
 -l, --lohi          show detailed low and high memory statistics
 -t, --total         show total for RAM + swap
 -v, --committed     show committed memory and commit limit
 -s N, --seconds N   repeat printing every N seconds
 -c N, --count N     repeat printing N times, then exit
 -w, --wide          wide output

     --help     display this help and exit
 -V, --version  output version information and exit
`

var freeSpec = tool.Spec{
	Options: []tool.Option{
		{Short: 'b', Long: "bytes"}, {Long: "kilo"}, {Long: "mega"}, {Long: "giga"}, {Long: "tera"}, {Long: "peta"},
		{Short: 'k', Long: "kibi"}, {Short: 'm', Long: "mebi"}, {Short: 'g', Long: "gibi"}, {Long: "tebi"}, {Long: "pebi"},
		{Short: 'h', Long: "human"}, {Long: "si"}, {Short: 'l', Long: "lohi"}, {Short: 't', Long: "total"},
		{Short: 'v', Long: "committed"}, {Short: 's', Long: "seconds", Arg: tool.RequiredArg},
		{Short: 'c', Long: "count", Arg: tool.RequiredArg}, {Short: 'w', Long: "wide"},
		{Long: "help"}, {Short: 'V', Long: "version"},
	},
	Help: freeHelp,
}

// Free runs free. In the sandbox, total is the memory one process may
// use (the sandbox's memory limit), used is what the live processes'
// linear memories hold, free the rest; nothing is shared, cached or
// swapped (the file system has its own limit; see df).
func Free(env *tool.Env) int {
	flags, args, code, done := freeSpec.Parse(env)
	if done {
		return code
	}
	if len(args) > 0 {
		return env.Usage(1, "extra operand %s", tool.Quote(args[0]))
	}
	unit, human, si, total, wide, lohi := int64(1024), false, false, false, false, false
	count, delay := 1, time.Duration(0)
	for _, f := range flags {
		switch f.Name {
		case "b":
			unit = 1
		case "kilo":
			unit, si = 1000, true
		case "mega":
			unit, si = 1000*1000, true
		case "giga":
			unit, si = 1000*1000*1000, true
		case "tera":
			unit, si = 1e12, true
		case "peta":
			unit, si = 1e15, true
		case "k":
			unit = 1024
		case "m":
			unit = 1 << 20
		case "g":
			unit = 1 << 30
		case "tebi":
			unit = 1 << 40
		case "pebi":
			unit = 1 << 50
		case "h":
			human = true
		case "si":
			si = true
		case "t":
			total = true
		case "w":
			wide = true
		case "l":
			lohi = true
		case "s":
			v, err := strconv.ParseFloat(f.Arg, 64)
			if err != nil || v < 0 {
				env.Errorf("seconds argument '%s' is not positive number", f.Arg)
				return 1
			}
			delay = time.Duration(v * float64(time.Second))
			if count == 1 {
				count = -1
			}
		case "c":
			n, err := strconv.Atoi(f.Arg)
			if err != nil || n < 1 {
				env.Errorf("failed to parse count argument: '%s'", f.Arg)
				return 1
			}
			count = n
		case "V":
			return env.PrintVersion()
		}
	}
	w := env.Out()
	for i := 0; count < 0 || i < count; i++ {
		if i > 0 {
			w.WriteString("\n")
			w.Flush()
			time.Sleep(delay)
		}
		sys, err := proc.System()
		if err != nil {
			env.Errorf("cannot read the sandbox's memory state: %s", tool.Strerror(err))
			return 1
		}
		memTotal, used := sys.MemTotal, min(sys.MemUsed, sys.MemTotal)
		free := memTotal - used
		show := func(v int64) string {
			if human {
				return humanSize(v, si)
			}
			return strconv.FormatInt(v/unit, 10)
		}
		if wide {
			fmt.Fprintf(w, "%-9s%11s %11s %11s %11s %11s %11s %11s\n", "", "total", "used", "free", "shared", "buffers", "cache", "available")
			fmt.Fprintf(w, "%-9s%11s %11s %11s %11s %11s %11s %11s\n", "Mem:", show(memTotal), show(used), show(free), show(0), show(0), show(0), show(free))
		} else {
			fmt.Fprintf(w, "%-9s%11s %11s %11s %11s %11s %11s\n", "", "total", "used", "free", "shared", "buff/cache", "available")
			fmt.Fprintf(w, "%-9s%11s %11s %11s %11s %11s %11s\n", "Mem:", show(memTotal), show(used), show(free), show(0), show(0), show(free))
		}
		if lohi {
			fmt.Fprintf(w, "%-9s%11s %11s %11s\n", "Low:", show(memTotal), show(used), show(free))
			fmt.Fprintf(w, "%-9s%11s %11s %11s\n", "High:", show(0), show(0), show(0))
		}
		fmt.Fprintf(w, "%-9s%11s %11s %11s\n", "Swap:", show(0), show(0), show(0))
		if total {
			fmt.Fprintf(w, "%-9s%11s %11s %11s\n", "Total:", show(memTotal), show(used), show(free))
		}
	}
	return 0
}

// humanSize writes n bytes as free -h does: three significant places at
// most, with the unit's short name (B, Ki, Mi, ... or B, K, M, ... with
// --si).
func humanSize(n int64, si bool) string {
	base := 1024.0
	units := []string{"B", "Ki", "Mi", "Gi", "Ti", "Pi"}
	if si {
		base = 1000
		units = []string{"B", "K", "M", "G", "T", "P"}
	}
	if float64(n) < base {
		return strconv.FormatInt(n, 10) + "B"
	}
	v := float64(n)
	i := 0
	for v >= base && i < len(units)-1 {
		v /= base
		i++
	}
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + units[i]
	}
	return strconv.FormatInt(int64(v), 10) + units[i]
}

const uptimeHelp = `
Usage:
 uptime [options]

Options:
 -p, --pretty   show uptime in pretty format
 -h, --help     display this help and exit
 -s, --since    system up since
 -V, --version  output version information and exit
`

var uptimeSpec = tool.Spec{
	Options: []tool.Option{{Short: 'p', Long: "pretty"}, {Short: 'h', Long: "help"}, {Short: 's', Long: "since"}, {Short: 'V', Long: "version"}},
	Help:    uptimeHelp,
}

// Uptime runs uptime: the sandbox's clock and how long ago the sandbox
// started; its one user, and no load (guests run when called on).
func Uptime(env *tool.Env) int {
	flags, args, code, done := uptimeSpec.Parse(env)
	if done {
		return code
	}
	if len(args) > 0 {
		fmt.Fprint(env.Stderr, uptimeHelp)
		return 1
	}
	pretty, since := false, false
	for _, f := range flags {
		switch f.Name {
		case "p":
			pretty = true
		case "s":
			since = true
		case "h":
			return env.Help(uptimeHelp)
		case "V":
			return env.PrintVersion()
		}
	}
	sys, err := proc.System()
	if err != nil {
		env.Errorf("cannot read the sandbox's clock: %s", tool.Strerror(err))
		return 1
	}
	w := env.Out()
	up := sys.Now.Sub(sys.Boot)
	if up < 0 {
		up = 0
	}
	if since {
		w.WriteString(sys.Boot.Local().Format("2006-01-02 15:04:05") + "\n")
		return 0
	}
	mins := int64(up / time.Minute)
	days, hours, minutes := mins/1440, mins/60%24, mins%60
	if pretty {
		var parts []string
		plural := func(n int64, unit string) string {
			if n == 1 {
				return fmt.Sprintf("%d %s", n, unit)
			}
			return fmt.Sprintf("%d %ss", n, unit)
		}
		if weeks := days / 7; weeks > 0 {
			parts = append(parts, plural(weeks, "week"))
		}
		if days%7 > 0 {
			parts = append(parts, plural(days%7, "day"))
		}
		if hours > 0 {
			parts = append(parts, plural(hours, "hour"))
		}
		if minutes > 0 || len(parts) == 0 {
			parts = append(parts, plural(minutes, "minute"))
		}
		w.WriteString("up " + strings.Join(parts, ", ") + "\n")
		return 0
	}
	now := sys.Now.Local()
	fmt.Fprintf(w, " %02d:%02d:%02d up ", now.Hour(), now.Minute(), now.Second())
	if days > 0 {
		if days == 1 {
			fmt.Fprintf(w, "%d day, ", days)
		} else {
			fmt.Fprintf(w, "%d days, ", days)
		}
	}
	if hours > 0 {
		fmt.Fprintf(w, "%2d:%02d, ", hours, minutes)
	} else {
		fmt.Fprintf(w, "%d min, ", minutes)
	}
	fmt.Fprintf(w, " 1 user,  load average: 0.00, 0.00, 0.00\n")
	return 0
}
