package tool

import (
	"strconv"
	"strings"
	"time"
)

var dateLayouts = []string{
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05.999999999 -0700",
	"2006-01-02 15:04:05.999999999 Z07:00",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999 MST",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02 15:04 -0700",
	"2006-01-02 15:04 MST",
	"2006-01-02 15:04",
	"2006-01-02",
	"2006/01/02 15:04:05",
	"2006/01/02 15:04",
	"2006/01/02",
	"01/02/2006 15:04:05",
	"01/02/2006",
	"20060102T150405",
	"20060102 15:04:05",
	"20060102 15:04",
	"20060102",
	time.UnixDate,
	time.ANSIC,
	time.RFC1123Z,
	time.RFC1123,
	time.RFC822Z,
	time.RFC822,
	time.RFC850,
	"Mon Jan _2 15:04:05 2006 -0700",
	"Mon, _2 Jan 2006 15:04:05",
	"Jan _2 2006 15:04:05",
	"Jan _2 2006 15:04",
	"Jan _2 2006",
	"Jan _2, 2006",
	"_2 Jan 2006 15:04:05",
	"_2 Jan 2006 15:04",
	"_2 Jan 2006",
	"January _2 2006",
	"January _2, 2006",
	"_2 January 2006",
	"15:04:05.999999999",
	"15:04:05",
	"15:04",
}

var units = map[string]time.Duration{
	"sec": time.Second, "second": time.Second, "secs": time.Second, "seconds": time.Second,
	"min": time.Minute, "minute": time.Minute, "mins": time.Minute, "minutes": time.Minute,
	"hour": time.Hour, "hours": time.Hour,
	"day": 24 * time.Hour, "days": 24 * time.Hour,
	"week": 7 * 24 * time.Hour, "weeks": 7 * 24 * time.Hour,
	"fortnight": 14 * 24 * time.Hour, "fortnights": 14 * 24 * time.Hour,
}

// ParseDate parses the date strings people give GNU tools' -d options: ISO
// 8601 dates and times, "@SECONDS", the formats date(1) prints, "now",
// "today", "yesterday", "tomorrow", and relative items such as "2 days
// ago", "+3 hours", "next week" after an optional base date. Times
// without a zone are in loc.
func ParseDate(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "@") {
		f, err := strconv.ParseFloat(s[1:], 64)
		if err != nil {
			return time.Time{}, false
		}
		sec := int64(f)
		return time.Unix(sec, int64((f-float64(sec))*1e9)).In(loc), true
	}
	words := strings.Fields(s)
	base := now.In(loc)
	// Find the longest leading run of words that parses as an absolute date.
	used := 0
	for n := len(words); n > 0; n-- {
		text := strings.Join(words[:n], " ")
		if t, ok := absolute(text, base, loc); ok {
			base, used = t, n
			break
		}
	}
	rest := words[used:]
	t := base
	for i := 0; i < len(rest); i++ {
		w := strings.ToLower(rest[i])
		switch w {
		case "now":
			continue
		case "today":
			continue
		case "yesterday":
			t = t.AddDate(0, 0, -1)
			continue
		case "tomorrow":
			t = t.AddDate(0, 0, 1)
			continue
		case "ago":
			continue
		}
		n := 1
		if w == "next" {
			n = 1
		} else if w == "last" {
			n = -1
		} else if v, err := strconv.Atoi(w); err == nil {
			n = v
		} else if _, ok := units[w]; ok || isCalendarUnit(w) {
			i-- // a bare unit: one of it
		} else {
			return time.Time{}, false
		}
		i++
		if i >= len(rest) {
			return time.Time{}, false
		}
		u := strings.ToLower(rest[i])
		if i+1 < len(rest) && strings.EqualFold(rest[i+1], "ago") {
			n = -n
			i++
		}
		switch strings.TrimSuffix(u, "s") {
		case "month":
			t = t.AddDate(0, n, 0)
		case "year":
			t = t.AddDate(n, 0, 0)
		default:
			d, ok := units[u]
			if !ok {
				return time.Time{}, false
			}
			if d >= 24*time.Hour {
				t = t.AddDate(0, 0, n*int(d/(24*time.Hour)))
			} else {
				t = t.Add(time.Duration(n) * d)
			}
		}
	}
	return t, true
}

func isCalendarUnit(w string) bool {
	w = strings.TrimSuffix(w, "s")
	return w == "month" || w == "year"
}

func absolute(text string, now time.Time, loc *time.Location) (time.Time, bool) {
	switch strings.ToLower(text) {
	case "now":
		return now, true
	case "today":
		return now, true
	}
	text = strings.TrimSuffix(strings.TrimSuffix(text, " UTC"), " GMT")
	utc := false
	if t := strings.TrimSuffix(text, "Z"); t != text && !strings.Contains(text, "T") {
		text, utc = t, true
	}
	for _, layout := range dateLayouts {
		var t time.Time
		var err error
		if utc {
			t, err = time.ParseInLocation(layout, text, time.UTC)
		} else {
			t, err = time.ParseInLocation(layout, text, loc)
		}
		if err != nil {
			continue
		}
		if !strings.Contains(layout, "2006") {
			// A time of day alone: today at that time.
			y, m, d := now.Date()
			t = time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
		}
		return t, true
	}
	return time.Time{}, false
}
