package bashprintf

import (
	"time"
)

// tmBufSize is the size of bash's strftime buffer: longer results print
// nothing.
const tmBufSize = 128

// Epoch seconds outside which glibc's localtime fails (the year does not
// fit in an int), padded by two days for time zone offsets.
const (
	secsMax = 67768036191676799 + 2*86400
	secsMin = -67768040609740800 - 2*86400
)

// tm is the broken-down time glibc's strftime works on.
type tm struct {
	year, mon, mday, hour, min, sec, wday, yday int
	gmtoff                                      int
	zone                                        string
	secs                                        int64
}

func (p *printer) clock() time.Time {
	if !p.haveNow {
		if p.opts.Now != nil {
			p.now = p.opts.Now()
		} else {
			p.now = time.Now()
		}
		p.haveNow = true
	}
	return p.now
}

// strftime formats the epoch time secs (-1 now, -2 shell start) as bash's
// %(fmt)T does.
func (p *printer) strftime(format string, secs int64) string {
	var t time.Time
	switch secs {
	case -1:
		t = p.clock()
	case -2:
		t = p.opts.Start
		if t.IsZero() {
			t = p.clock()
		}
	default:
		if secs > secsMax || secs < secsMin {
			secs = 0
		}
		t = time.Unix(secs, 0)
	}
	loc := p.opts.Location
	if loc == nil {
		loc = time.Local
	}
	t = t.In(loc)
	if y := int64(t.Year()) - 1900; y > maxInt32 || y < -maxInt32-1 {
		t = time.Unix(0, 0).In(loc)
	}
	var x tm
	x.year = t.Year()
	x.mon = int(t.Month()) - 1
	x.mday = t.Day()
	x.hour, x.min, x.sec = t.Clock()
	x.wday = int(t.Weekday())
	x.yday = t.YearDay() - 1
	x.zone, x.gmtoff = t.Zone()
	x.secs = t.Unix()
	out, ok := x.format(make([]byte, 0, 64), format)
	if !ok || len(out) >= tmBufSize {
		return ""
	}
	return string(out)
}

var (
	weekdays   = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	monthNames = [12]string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
)

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// isoWeekDays is glibc's iso_week_days: the number of days from the first
// day of the first ISO week of the year to yday.
func isoWeekDays(yday, wday int) int {
	const big = (366/7 + 2) * 7
	return yday - (yday-wday+4+big)%7 + 4 - 1
}

// tmFlags are the flags of one strftime conversion.
type tmFlags struct {
	pad   byte // 0, '_', '-', '0' or '+'
	width int
	upper bool
	lower bool
}

// put appends s padded to the width, converting case, like glibc's cpy.
func (f *tmFlags) put(b []byte, s string) ([]byte, bool) {
	if d := f.width - len(s); d > 0 {
		if len(b)+d >= tmBufSize {
			return b, false
		}
		c := byte(' ')
		if f.pad == '0' {
			c = '0'
		}
		for ; d > 0; d-- {
			b = append(b, c)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case f.lower && 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case !f.lower && f.upper && 'a' <= c && c <= 'z':
			c -= 'a' - 'A'
		}
		b = append(b, c)
	}
	return b, len(b) < tmBufSize
}

// number appends v with at least digits digits, or the width if larger, as
// glibc's DO_NUMBER does.
func (f *tmFlags) number(b []byte, digits int, v int64) ([]byte, bool) {
	if f.width > digits {
		digits = f.width
	}
	return f.signed(b, digits, v)
}

// signed is glibc's do_number_sign_and_padding.
func (f *tmFlags) signed(b []byte, digits int, v int64) ([]byte, bool) {
	neg := v < 0
	u := uint64(v)
	if neg {
		u = -u
	}
	var nb [24]byte
	s := itoaBuf(nb[:], u)
	if f.pad != '-' {
		padding := digits - len(s)
		if neg {
			padding--
		}
		if padding > 0 {
			if len(b)+digits >= tmBufSize {
				return b, false
			}
			if f.pad == '_' {
				for k := 0; k < padding; k++ {
					b = append(b, ' ')
				}
			} else {
				if neg {
					// The sign goes before the zeros and uses up
					// width too.
					b = append(b, '-')
					neg = false
					f.width--
				}
				for k := 0; k < padding; k++ {
					b = append(b, '0')
				}
			}
			if f.width > padding {
				f.width -= padding
			} else {
				f.width = 0
			}
		}
	}
	if neg {
		s = "-" + s
	}
	return f.put(b, s)
}

func itoaBuf(buf []byte, u uint64) string {
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	return string(buf[i:])
}

// format appends the expansion of the strftime format f like glibc 2.36
// in the C locale; ok is false when the result does not fit bash's buffer.
func (x *tm) format(b []byte, f string) (out []byte, ok bool) {
	for i := 0; i < len(f); i++ {
		if len(b) >= tmBufSize {
			return b, false
		}
		if f[i] != '%' {
			b = append(b, f[i])
			continue
		}
		start := i
		var fl tmFlags
		changeCase := false
		i++
	flags:
		for ; i < len(f); i++ {
			switch f[i] {
			case '_', '-', '0':
				fl.pad = f[i]
			case '^':
				fl.upper = true
			case '#':
				changeCase = true
			default:
				break flags
			}
		}
		for ; i < len(f) && isDigit(f[i]); i++ {
			if fl.width > (maxInt32-int(f[i]-'0'))/10 {
				fl.width = maxInt32
			} else {
				fl.width = fl.width*10 + int(f[i]-'0')
			}
		}
		if fl.width >= tmBufSize {
			return b, false
		}
		var mod byte
		if i < len(f) && (f[i] == 'E' || f[i] == 'O') {
			mod = f[i]
			i++
		}
		var fc byte
		if i < len(f) {
			fc = f[i]
		}
		bad := false
		sub := ""
		switch fc {
		case '%':
			b, ok = fl.put(b, "%")
		case 'a', 'A':
			if mod != 0 {
				bad = true
				break
			}
			if changeCase {
				fl.upper, fl.lower = true, false
			}
			name := weekdays[x.wday]
			if fc == 'a' {
				name = name[:3]
			}
			b, ok = fl.put(b, name)
		case 'b', 'h', 'B':
			if changeCase {
				fl.upper, fl.lower = true, false
			}
			if mod == 'E' {
				bad = true
				break
			}
			name := monthNames[x.mon]
			if fc != 'B' {
				name = name[:3]
			}
			b, ok = fl.put(b, name)
		case 'c':
			if mod == 'O' {
				bad = true
				break
			}
			sub = "%a %b %e %H:%M:%S %Y"
		case 'D':
			if mod != 0 {
				bad = true
				break
			}
			sub = "%m/%d/%y"
		case 'F':
			if mod != 0 {
				bad = true
				break
			}
			sub = "%Y-%m-%d"
		case 'x':
			if mod == 'O' {
				bad = true
				break
			}
			sub = "%m/%d/%y"
		case 'X':
			if mod == 'O' {
				bad = true
				break
			}
			sub = "%H:%M:%S"
		case 'r':
			sub = "%I:%M:%S %p"
		case 'R':
			sub = "%H:%M"
		case 'T':
			sub = "%H:%M:%S"
		case 'C':
			c := x.year / 100
			if x.year%100 < 0 {
				c--
			}
			b, ok = fl.number(b, 1, int64(c))
		case 'd', 'e', 'H', 'I', 'k', 'l', 'j', 'M', 'm', 'S', 'U', 'W', 'w', 'u', 'V', 'g', 'G':
			if mod == 'E' && fc != 'u' {
				bad = true
				break
			}
			digits, v := 2, 0
			switch fc {
			case 'd':
				v = x.mday
			case 'e':
				v = x.mday
				fl.spacePad()
			case 'H':
				v = x.hour
			case 'k':
				v = x.hour
				fl.spacePad()
			case 'I', 'l':
				v = x.hour % 12
				if v == 0 {
					v = 12
				}
				if fc == 'l' {
					fl.spacePad()
				}
			case 'j':
				digits, v = 3, x.yday+1
			case 'M':
				v = x.min
			case 'm':
				v = x.mon + 1
			case 'S':
				v = x.sec
			case 'U':
				v = (x.yday - x.wday + 7) / 7
			case 'W':
				v = (x.yday - (x.wday-1+7)%7 + 7) / 7
			case 'w':
				digits, v = 1, x.wday
			case 'u':
				digits, v = 1, (x.wday-1+7)%7+1
			default:
				year := x.year
				days := isoWeekDays(x.yday, x.wday)
				if days < 0 {
					year--
					n := 365
					if isLeap(year) {
						n++
					}
					days = isoWeekDays(x.yday+n, x.wday)
				} else {
					n := 365
					if isLeap(year) {
						n++
					}
					if d := isoWeekDays(x.yday-n, x.wday); d >= 0 {
						year++
						days = d
					}
				}
				switch fc {
				case 'g':
					v = (year%100 + 100) % 100
				case 'G':
					digits, v = 1, year
				default:
					v = days/7 + 1
				}
			}
			b, ok = fl.number(b, digits, int64(v))
		case 'n':
			b, ok = fl.put(b, "\n")
		case 't':
			b, ok = fl.put(b, "\t")
		case 'p', 'P':
			if fc == 'P' || changeCase {
				fl.lower = true
			}
			s := "AM"
			if x.hour > 11 {
				s = "PM"
			}
			b, ok = fl.put(b, s)
		case 's':
			b, ok = fl.signed(b, 1, x.secs)
		case 'y':
			b, ok = fl.number(b, 2, int64((x.year%100+100)%100))
		case 'Y':
			if mod == 'O' {
				bad = true
				break
			}
			b, ok = fl.number(b, 1, int64(x.year))
		case 'Z':
			if changeCase {
				fl.upper, fl.lower = false, true
			}
			b, ok = fl.put(b, x.zone)
		case 'z':
			diff := x.gmtoff
			sign := "+"
			if diff < 0 {
				sign = "-"
				diff = -diff
			}
			if b, ok = fl.put(b, sign); ok {
				diff /= 60
				b, ok = fl.number(b, 4, int64(diff/60*100+diff%60))
			}
		default:
			bad = true
		}
		if bad {
			if fc == 0 {
				i--
			}
			b, ok = fl.put(b, f[start:i+1])
		} else if sub != "" {
			s, fits := x.format(make([]byte, 0, 32), sub)
			if !fits {
				return b, false
			}
			fl.lower = false
			b, ok = fl.put(b, string(s))
		}
		if !ok {
			return b, false
		}
	}
	return b, len(b) < tmBufSize
}

// spacePad is glibc's do_number_spacepad: pad with spaces unless the 0 or
// - flag says otherwise.
func (f *tmFlags) spacePad() {
	if f.pad == 0 {
		f.pad = '_'
	}
}
