package date

import (
	"testing"
	"time"
)

func TestFormat(t *testing.T) {
	tm := time.Date(2024, 3, 5, 7, 8, 9, 123456789, time.UTC)
	tests := []struct{ f, want string }{
		{"%Y-%m-%d %H:%M:%S", "2024-03-05 07:08:09"},
		{"%-d|%_m|%e|%k|%l|%I %p %P", "5| 3| 5| 7| 7|07 AM am"},
		{"%3N %N", "123 123456789"},
		{"%^a %#b %10A", "TUE MAR    Tuesday"},
		{"%z %:z %::z %:::z %Z", "+0000 +00:00 +00:00:00 +00 UTC"},
		{"%j %U %W %V %G %u %w %q", "065 09 10 10 2024 2 2 1"},
		{"%s %%", "1709622489 %"},
		{"%Q", "%Q"},
	}
	for _, tc := range tests {
		if got := Format(tc.f, tm); got != tc.want {
			t.Errorf("Format(%q) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

func TestParse(t *testing.T) {
	now := time.Date(2024, 3, 6, 12, 0, 0, 0, time.UTC) // a Wednesday
	tests := []struct{ in, want string }{
		{"@0", "1970-01-01 00:00:00"},
		{"yesterday", "2024-03-05 12:00:00"},
		{"2 days ago", "2024-03-04 12:00:00"},
		{"2024-01-02 03:04:05", "2024-01-02 03:04:05"},
		{"next friday", "2024-03-08 00:00:00"},
		{"last monday", "2024-03-04 00:00:00"},
		{"tomorrow noon", "2024-03-07 12:00:00"},
		{"2024-03-05 + 1 day", "2024-03-06 00:00:00"},
	}
	for _, tc := range tests {
		got, ok := Parse(tc.in, now, time.UTC)
		if !ok || got.UTC().Format("2006-01-02 15:04:05") != tc.want {
			t.Errorf("Parse(%q) = %v, %v; want %s", tc.in, got, ok, tc.want)
		}
	}
	if _, ok := Parse("nonsense", now, time.UTC); ok {
		t.Error("Parse(nonsense) succeeded")
	}
}
