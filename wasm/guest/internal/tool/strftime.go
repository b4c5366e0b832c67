package tool

import (
	"strconv"
	"strings"
	"time"
)

// Strftime formats t as C's strftime does for the common conversions
// (%Y %m %d %H %M %S %s %F %T %D %R %b %B %a %A %e %j %y %Z %z %p %n %t
// %N %u %w %%); unknown conversions are copied as written.
func Strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		two := func(v int) { b.WriteString(pad(v, 2, '0')) }
		switch format[i] {
		case 'Y':
			b.WriteString(strconv.Itoa(t.Year()))
		case 'C':
			two(t.Year() / 100)
		case 'y':
			two(t.Year() % 100)
		case 'm':
			two(int(t.Month()))
		case 'd':
			two(t.Day())
		case 'e':
			b.WriteString(pad(t.Day(), 2, ' '))
		case 'H':
			two(t.Hour())
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			two(h)
		case 'M':
			two(t.Minute())
		case 'S':
			two(t.Second())
		case 'N':
			b.WriteString(pad(t.Nanosecond(), 9, '0'))
		case 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case 'F':
			b.WriteString(t.Format("2006-01-02"))
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case 'D':
			b.WriteString(t.Format("01/02/06"))
		case 'R':
			b.WriteString(t.Format("15:04"))
		case 'b', 'h':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'j':
			b.WriteString(pad(t.YearDay(), 3, '0'))
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			b.WriteString(strconv.Itoa(wd))
		case 'w':
			b.WriteString(strconv.Itoa(int(t.Weekday())))
		case 'p':
			b.WriteString(t.Format("PM"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case 'c':
			b.WriteString(t.Format("Mon Jan _2 15:04:05 2006"))
		case 'x':
			b.WriteString(t.Format("01/02/06"))
		case 'X':
			b.WriteString(t.Format("15:04:05"))
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}

func pad(v, width int, fill byte) string {
	s := strconv.Itoa(v)
	for len(s) < width {
		s = string(fill) + s
	}
	return s
}
