// Package cal implements cal as Debian's ncal package has it (BSD cal):
// a month, three months or a year, weeks from Sunday, in the proleptic
// Gregorian calendar (BSD cal switches to the Julian calendar before
// September 1752; this one does not). The current date is the sandbox
// clock's; no day is highlighted, as standard output is never a
// terminal.
package cal

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const usage = `Usage: cal [general options] [-jy] [[month] year]
       cal [general options] [-j] [-m month] [year]
       ncal -C [general options] [-jy] [[month] year]
       ncal -C [general options] [-j] [-m month] [year]
       ncal [general options] [-bhJjpwySM] [-H yyyy-mm-dd] [-s country_code] [-W number of days] [[month] year]
       ncal [general options] [-Jeo] [year]
General options: [-31] [-A months] [-B months] [-d yyyy-mm]
`

// month is one month of one year.
type month struct {
	year int
	mon  time.Month
}

func (m month) add(n int) month {
	t := time.Date(m.year, m.mon, 1, 0, 0, 0, 0, time.UTC).AddDate(0, n, 0)
	return month{t.Year(), t.Month()}
}

// lines renders a month as 8 lines of 20 columns: the title, the weekday
// names and six weeks.
func (m month) lines(withYear bool) []string {
	title := m.mon.String()
	if withYear {
		title += " " + strconv.Itoa(m.year)
	}
	out := []string{center(title, 20), "Su Mo Tu We Th Fr Sa"}
	first := time.Date(m.year, m.mon, 1, 0, 0, 0, 0, time.UTC)
	days := first.AddDate(0, 1, -1).Day()
	cells := make([]string, 42)
	for i := range cells {
		cells[i] = "  "
	}
	for d := 1; d <= days; d++ {
		cells[int(first.Weekday())+d-1] = fmt.Sprintf("%2d", d)
	}
	for w := 0; w < 6; w++ {
		out = append(out, strings.Join(cells[w*7:w*7+7], " "))
	}
	return out
}

func center(s string, width int) string {
	left := (width - len(s)) / 2
	if left < 0 {
		left = 0
	}
	s = strings.Repeat(" ", left) + s
	return s + strings.Repeat(" ", max(width-len(s), 0))
}

var monthNames = []string{"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"}

func parseMonth(s string) (time.Month, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		if n >= 1 && n <= 12 {
			return time.Month(n), true
		}
		return 0, false
	}
	l := strings.ToLower(s)
	for i, name := range monthNames {
		if len(l) >= 3 && strings.HasPrefix(name, l) {
			return time.Month(i + 1), true
		}
	}
	return 0, false
}

// Main runs cal.
func Main(env *tool.Env) int {
	args := env.Args[1:]
	var operands []string
	yearView := false
	before, after := 0, 0
	monthOpt := ""
	var date string
	fail := func(format string, a ...any) int {
		if format != "" {
			fmt.Fprintf(env.Stderr, "%s: %s\n", env.Name(), fmt.Sprintf(format, a...))
		}
		fmt.Fprint(env.Stderr, usage)
		return 64
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			arg := func() (string, bool) {
				if j+1 < len(a) {
					v := a[j+1:]
					j = len(a)
					return v, true
				}
				if i+1 < len(args) {
					i++
					j = len(a)
					return args[i], true
				}
				return "", false
			}
			switch c {
			case '1':
				before, after = 0, 0
			case '3':
				before, after = 1, 1
			case 'y':
				yearView = true
			case 'A', 'B':
				v, ok := arg()
				n, err := strconv.Atoi(v)
				if !ok {
					return fail("option requires an argument -- '%c'", c)
				}
				if err != nil || n < 0 {
					return fail("invalid number of months: %s", v)
				}
				if c == 'A' {
					after = n
				} else {
					before = n
				}
			case 'm':
				v, ok := arg()
				if !ok {
					return fail("option requires an argument -- 'm'")
				}
				monthOpt = v
			case 'd':
				v, ok := arg()
				if !ok {
					return fail("option requires an argument -- 'd'")
				}
				date = v
			case 'h':
				return env.Help(usage)
			default:
				return fail("invalid option -- '%c'", c)
			}
		}
	}
	now := time.Now()
	cur := month{now.Year(), now.Month()}
	if date != "" {
		t, err := time.Parse("2006-01", date)
		if err != nil {
			return fail("bad date format: %s", date)
		}
		cur = month{t.Year(), t.Month()}
	}
	year := func(s string) (int, bool) {
		n, err := strconv.Atoi(s)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: not a valid year %s\n", env.Name(), s)
			return 0, false
		}
		if n < 1 || n > 9999 {
			fmt.Fprintf(env.Stderr, "%s: year `%d' not in range 1..9999\n", env.Name(), n)
			return 0, false
		}
		return n, true
	}
	monthArg := func(s string) (time.Month, bool) {
		m, ok := parseMonth(s)
		if !ok {
			fmt.Fprintf(env.Stderr, "%s: %s is neither a month number (1..12) nor a name\n", env.Name(), s)
		}
		return m, ok
	}
	switch len(operands) {
	case 0:
		if monthOpt != "" {
			m, ok := monthArg(monthOpt)
			if !ok {
				return 64
			}
			cur.mon = m
		}
	case 1:
		y, ok := year(operands[0])
		if !ok {
			return 64
		}
		cur.year = y
		if monthOpt != "" {
			m, ok := monthArg(monthOpt)
			if !ok {
				return 64
			}
			cur.mon = m
		} else if before == 0 && after == 0 {
			yearView = true
		}
	case 2:
		m, ok := monthArg(operands[0])
		if !ok {
			return 64
		}
		y, ok := year(operands[1])
		if !ok {
			return 64
		}
		cur = month{y, m}
	default:
		return fail("") // too many operands: the usage
	}
	w := env.Out()
	if yearView {
		fmt.Fprintf(w, "%s%d\n", strings.Repeat(" ", (60-len(strconv.Itoa(cur.year)))/2), cur.year)
		var months []month
		for m := 1; m <= 12; m++ {
			months = append(months, month{cur.year, time.Month(m)})
		}
		grid(w, months, false)
		return 0
	}
	var months []month
	for k := -before; k <= after; k++ {
		months = append(months, cur.add(k))
	}
	grid(w, months, true)
	return 0
}

// grid writes months three to a row, rows apart by an empty line.
func grid(w interface{ WriteString(string) (int, error) }, months []month, withYear bool) {
	for r := 0; r < len(months); r += 3 {
		if r > 0 {
			w.WriteString("\n")
		}
		row := months[r:min(r+3, len(months))]
		blocks := make([][]string, len(row))
		for i, m := range row {
			blocks[i] = m.lines(withYear)
		}
		for l := 0; l < 8; l++ {
			var b strings.Builder
			for i := range blocks {
				b.WriteString(blocks[i][l])
				b.WriteString("  ")
			}
			w.WriteString(b.String() + "\n")
		}
	}
}
