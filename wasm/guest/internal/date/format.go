package date

import (
	"strconv"
	"strings"
	"time"
)

// Format formats t as GNU date's +FORMAT does, in the C locale: every
// conversion of strftime plus GNU's flags (- _ 0 ^ #), field widths, %N
// precision and the %:z family.
func Format(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		var padc byte // 0: the conversion's default
		upper, swap := false, false
		for ; i < len(format); i++ {
			switch format[i] {
			case '-', '_', '0':
				padc = format[i]
				continue
			case '^':
				upper = true
				continue
			case '#':
				swap = true
				continue
			}
			break
		}
		width := -1
		for i < len(format) && format[i] >= '0' && format[i] <= '9' {
			if width < 0 {
				width = 0
			}
			width = width*10 + int(format[i]-'0')
			i++
		}
		colons := 0
		for i < len(format) && format[i] == ':' {
			colons++
			i++
		}
		if i < len(format) && (format[i] == 'E' || format[i] == 'O') {
			i++
		}
		if i >= len(format) {
			b.WriteString(format[start:])
			break
		}
		conv := format[i]
		if colons > 0 && conv != 'z' {
			b.WriteString(format[start : i+1])
			continue
		}
		s, numeric, defWidth, defPad := convert(conv, colons, width, t)
		if s == "\x00" {
			b.WriteString(format[start : i+1])
			continue
		}
		if upper {
			s = strings.ToUpper(s)
		} else if swap {
			s = swapCase(conv, s)
		}
		w := defWidth
		if width >= 0 && conv != 'N' {
			w = width
		}
		p := defPad
		switch padc {
		case '_':
			p = ' '
		case '0':
			p = '0'
		case '-':
			w = 0
		}
		neg := numeric && strings.HasPrefix(s, "-")
		if neg {
			s = s[1:]
			w--
		}
		for n := len(s); n < w; n++ {
			b.WriteByte(p)
		}
		if neg {
			b.WriteByte('-')
		}
		b.WriteString(s)
	}
	return b.String()
}

// swapCase is the # flag: upper case for names, lower case for %Z and %p.
func swapCase(conv byte, s string) string {
	switch conv {
	case 'Z', 'p':
		return strings.ToLower(s)
	}
	return strings.ToUpper(s)
}

// convert returns the text of one conversion, whether it is numeric, and
// its default width and pad byte. An unknown conversion gives "\x00".
func convert(c byte, colons, width int, t time.Time) (s string, numeric bool, defWidth int, defPad byte) {
	num := func(v, w int) (string, bool, int, byte) { return strconv.Itoa(v), true, w, '0' }
	spaced := func(v, w int) (string, bool, int, byte) { return strconv.Itoa(v), true, w, ' ' }
	str := func(s string) (string, bool, int, byte) { return s, false, 0, ' ' }
	switch c {
	case 'a':
		return str(t.Format("Mon"))
	case 'A':
		return str(t.Format("Monday"))
	case 'b', 'h':
		return str(t.Format("Jan"))
	case 'B':
		return str(t.Format("January"))
	case 'c':
		return str(Format("%a %b %e %H:%M:%S %Y", t))
	case 'C':
		return num(floorDiv(t.Year(), 100), 2)
	case 'd':
		return num(t.Day(), 2)
	case 'D':
		return str(Format("%m/%d/%y", t))
	case 'e':
		return spaced(t.Day(), 2)
	case 'F':
		return str(Format("%Y-%m-%d", t))
	case 'g':
		y, _ := t.ISOWeek()
		return num(((y%100)+100)%100, 2)
	case 'G':
		y, _ := t.ISOWeek()
		return num(y, 1)
	case 'H':
		return num(t.Hour(), 2)
	case 'I':
		return num(hour12(t), 2)
	case 'j':
		return num(t.YearDay(), 3)
	case 'k':
		return spaced(t.Hour(), 2)
	case 'l':
		return spaced(hour12(t), 2)
	case 'm':
		return num(int(t.Month()), 2)
	case 'M':
		return num(t.Minute(), 2)
	case 'n':
		return str("\n")
	case 'N':
		digits := 9
		if width > 0 {
			digits = width
		}
		ns := pad(t.Nanosecond(), 9, '0')
		for len(ns) < digits {
			ns += "0"
		}
		return ns[:digits], false, 0, '0'
	case 'p':
		return str(t.Format("PM"))
	case 'P':
		return str(strings.ToLower(t.Format("PM")))
	case 'q':
		return num((int(t.Month())+2)/3, 1)
	case 'r':
		return str(Format("%I:%M:%S %p", t))
	case 'R':
		return str(Format("%H:%M", t))
	case 's':
		return num64(t.Unix())
	case 'S':
		return num(t.Second(), 2)
	case 't':
		return str("\t")
	case 'T':
		return str(Format("%H:%M:%S", t))
	case 'u':
		wd := int(t.Weekday())
		if wd == 0 {
			wd = 7
		}
		return num(wd, 1)
	case 'U':
		return num((t.YearDay()+6-int(t.Weekday()))/7, 2)
	case 'V':
		_, w := t.ISOWeek()
		return num(w, 2)
	case 'w':
		return num(int(t.Weekday()), 1)
	case 'W':
		return num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2)
	case 'x':
		return str(Format("%m/%d/%y", t))
	case 'X':
		return str(Format("%H:%M:%S", t))
	case 'y':
		return num(((t.Year()%100)+100)%100, 2)
	case 'Y':
		return num(t.Year(), 1)
	case 'z':
		return str(zone(t, colons))
	case 'Z':
		return str(t.Format("MST"))
	case '%':
		return str("%")
	}
	return "\x00", false, 0, ' '
}

func num64(v int64) (string, bool, int, byte) {
	return strconv.FormatInt(v, 10), true, 1, '0'
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func hour12(t time.Time) int {
	h := t.Hour() % 12
	if h == 0 {
		h = 12
	}
	return h
}

func zone(t time.Time, colons int) string {
	_, off := t.Zone()
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	h, m, s := off/3600, off/60%60, off%60
	switch colons {
	case 0:
		return string(sign) + pad(h, 2, '0') + pad(m, 2, '0')
	case 1:
		return string(sign) + pad(h, 2, '0') + ":" + pad(m, 2, '0')
	case 2:
		return string(sign) + pad(h, 2, '0') + ":" + pad(m, 2, '0') + ":" + pad(s, 2, '0')
	}
	out := string(sign) + pad(h, 2, '0')
	if m != 0 || s != 0 {
		out += ":" + pad(m, 2, '0')
	}
	if s != 0 {
		out += ":" + pad(s, 2, '0')
	}
	return out
}

func pad(v, width int, fill byte) string {
	neg := v < 0
	if neg {
		v = -v
	}
	s := strconv.Itoa(v)
	for len(s) < width {
		s = string(fill) + s
	}
	if neg {
		s = "-" + s
	}
	return s
}
