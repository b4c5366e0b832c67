package date

import (
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var weekdays = map[string]time.Weekday{
	"sun": time.Sunday, "sunday": time.Sunday, "mon": time.Monday, "monday": time.Monday,
	"tue": time.Tuesday, "tues": time.Tuesday, "tuesday": time.Tuesday,
	"wed": time.Wednesday, "wednes": time.Wednesday, "wednesday": time.Wednesday,
	"thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "thursday": time.Thursday,
	"fri": time.Friday, "friday": time.Friday, "sat": time.Saturday, "saturday": time.Saturday,
}

// Parse reads a GNU date string: what tool.ParseDate accepts ("@EPOCH",
// ISO 8601 forms, "yesterday", "2 days ago", "next week"...), plus a
// leading TZ="Zone", weekday names ("monday", "next friday", "last sun")
// and "midnight"/"noon".
func Parse(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "TZ=\"") {
		if end := strings.IndexByte(s[4:], '"'); end >= 0 {
			if l, err := time.LoadLocation(s[4 : 4+end]); err == nil {
				loc = l
				s = strings.TrimSpace(s[5+end:])
			} else {
				return time.Time{}, false
			}
		}
	}
	if s == "" {
		y, m, d := now.In(loc).Date()
		return time.Date(y, m, d, 0, 0, 0, 0, loc), true
	}
	s = joinSigns(s)
	words := strings.Fields(strings.ToLower(s))
	// Pull out weekday names and "midnight"/"noon"; the rest goes to
	// tool.ParseDate.
	var rest []string
	wday, wdayShift, haveWday := time.Sunday, 0, false
	hour := -1
	for i := 0; i < len(words); i++ {
		w := strings.TrimSuffix(words[i], ",")
		if d, ok := weekdays[w]; ok {
			wday, haveWday = d, true
			if n := len(rest); n > 0 && (rest[n-1] == "next" || rest[n-1] == "last" || rest[n-1] == "this") {
				switch rest[n-1] {
				case "next":
					wdayShift = 1
				case "last":
					wdayShift = -1
				}
				rest = rest[:n-1]
			}
			continue
		}
		switch w {
		case "midnight":
			hour = 0
			continue
		case "noon":
			hour = 12
			continue
		}
		rest = append(rest, words[i])
	}
	var t time.Time
	if len(rest) == 0 {
		t = now.In(loc)
	} else {
		var ok bool
		t, ok = tool.ParseDate(restore(s, rest), now, loc)
		if !ok {
			return time.Time{}, false
		}
	}
	if haveWday || hour >= 0 {
		y, m, d := t.Date()
		h := 0
		if hour >= 0 {
			h = hour
		}
		t = time.Date(y, m, d, h, 0, 0, 0, t.Location())
		if haveWday {
			diff := (int(wday) - int(t.Weekday()) + 7) % 7
			switch {
			case wdayShift > 0 && diff == 0:
				diff = 7
			case wdayShift < 0:
				diff -= 7
			}
			t = t.AddDate(0, 0, diff)
		}
	}
	return t, true
}

// joinSigns joins a lone "+" or "-" to the number after it ("+ 1 day").
func joinSigns(s string) string {
	f := strings.Fields(s)
	out := f[:0:0]
	for i := 0; i < len(f); i++ {
		if (f[i] == "+" || f[i] == "-") && i+1 < len(f) && f[i+1] != "" && f[i+1][0] >= '0' && f[i+1][0] <= '9' {
			out = append(out, f[i]+f[i+1])
			i++
			continue
		}
		out = append(out, f[i])
	}
	return strings.Join(out, " ")
}

// restore rebuilds the words of rest with the original letter case of s
// where they occur in it (month names, zones), for tool.ParseDate.
func restore(s string, rest []string) string {
	orig := strings.Fields(s)
	if len(orig) == len(rest) {
		return s
	}
	lower := strings.Fields(strings.ToLower(s))
	var out []string
	j := 0
	for i, w := range lower {
		if j < len(rest) && w == rest[j] {
			out = append(out, orig[i])
			j++
		}
	}
	return strings.Join(out, " ")
}
