package bashprintf

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// The expected values below were checked against bash 5.2.15 on glibc.
var formatTests = []struct {
	format string
	args   []string
	out    string
	errs   []string
	status int
}{
	{"%s-%s\n", []string{"a", "b", "c"}, "a-b\nc-\n", nil, 0},
	{"plain", []string{"x", "y"}, "plain", nil, 0},
	{"", []string{"x"}, "", nil, 0},
	{"%d|%i|%5d|%-5d|%05d|%+d|% d\n", []string{"42", "-7", "3", "3", "-3", "3", "3"}, "42|-7|    3|3    |-0003|+3| 3\n", nil, 0},
	{"%x %X %o %#x %#o %u\n", []string{"255", "255", "8", "255", "8", "-1"}, "ff FF 10 0xff 010 18446744073709551615\n", nil, 0},
	{"%d %d %d %d\n", []string{"0x1F", "010", "'A", "\"é"}, "31 8 65 195\n", nil, 0},
	{"%d\n", []string{"12abc"}, "12\n", []string{"printf: 12abc: invalid number"}, 1},
	{"%d %d\n", []string{"08", "0x"}, "0 0\n", []string{"printf: 08: invalid octal number", "printf: 0x: invalid hex number"}, 1},
	{"%d\n", []string{"99999999999999999999"}, "9223372036854775807\n",
		[]string{"printf: warning: 99999999999999999999: Numerical result out of range"}, 0},
	{"%d\n", []string{" 12"}, "12\n", nil, 0},
	{"%d\n", []string{"12 "}, "12\n", []string{"printf: 12 : invalid number"}, 1},
	{"%.2f %.3e %g %G %a\n", []string{"3.14159", "1234.5", "0.0001", "1e-5", "1"}, "3.14 1.234e+03 0.0001 1E-05 0x8p-3\n", nil, 0},
	{"%.20f\n", []string{"0.1"}, "0.10000000000000000000\n", nil, 0},
	{"%.0f %.0f %.0f\n", []string{"0.5", "1.5", "2.5"}, "0 2 2\n", nil, 0},
	{"%f %F %e\n", []string{"inf", "-inf", "nan"}, "inf -INF nan\n", nil, 0},
	{"%f\n", []string{"1e99999"}, "inf\n", []string{"printf: warning: 1e99999: Numerical result out of range"}, 0},
	{"[%5s][%-5s][%.2s][%c]\n", []string{"ab", "ab", "abc", "xyz"}, "[   ab][ab   ][ab][x]\n", nil, 0},
	{"%*d|%-*d|%.*f\n", []string{"4", "1", "3", "2", "2", "3.14159"}, "   1|2  |3.14\n", nil, 0},
	{"%*d|\n", []string{"-3", "1"}, "1  |\n", nil, 0},
	{"%b|\n", []string{`a\tb\0101\x41\u00e9`}, "a\tbAA\\u00E9|\n", nil, 0},
	{"%b%s\n", []string{`stop\chere`, "x"}, "stop", nil, 0},
	{`\x41\101\n\t\\\"\q`, nil, "AA\n\t\\\"\\q", nil, 0},
	{`\x`, nil, `\x`, []string{`printf: missing hex digit for \x`}, 0},
	{"%q %q %q %q\n", []string{"a b", "it's", "", "a\tb"}, `a\ b it\'s '' $'a\tb'` + "\n", nil, 0},
	{"%q\n", []string{"é"}, `$'\303\251'` + "\n", nil, 0},
	{"%.2Q|%.2q\n", []string{"a b", "a b"}, `a\ |a\` + "\n", nil, 0},
	{"%%|%5%", nil, "%|", []string{"printf: `%': invalid format character"}, 1},
	{"ab%", nil, "ab", []string{"printf: `%': missing format character"}, 1},
	{"ab%5l", nil, "ab", []string{"printf: `%5l': missing format character"}, 1},
	{"a%zy", nil, "a", []string{"printf: `y': invalid format character"}, 1},
	{"%.-3d|", []string{"5"}, "%.0-3ld|", nil, 0},
	{"%99999999999d|", []string{"5"}, "|", nil, 0},
	{"%(%Y-%m-%d %H:%M:%S %Z)T\n", []string{"1700000000"}, "2023-11-14 22:13:20 UTC\n", nil, 0},
	{"%(%Y)Z", []string{"1"}, "%(",
		[]string{"printf: warning: `Z': invalid time format specification", "printf: `Y': invalid format character"}, 1},
	{"%(%10z|%_5d|%^a)T", []string{"0"}, "         +0000000000|    1|THU", nil, 0},
}

func TestFormat(t *testing.T) {
	o := &Options{Location: time.UTC}
	for _, tt := range formatTests {
		out, errs, st := o.Format(tt.format, tt.args)
		if out != tt.out || !reflect.DeepEqual(errs, tt.errs) || st != tt.status {
			t.Errorf("Format(%q, %q)\n got  %q %q %d\n want %q %q %d",
				tt.format, tt.args, out, errs, st, tt.out, tt.errs, tt.status)
		}
	}
}

func TestUTF8(t *testing.T) {
	o := &Options{UTF8: true}
	for _, tt := range []struct{ format, arg, out string }{
		{"%d", "'é", "233"},
		{"%d", "'\xc3", "195"},
		{`\u00e9%b`, `\U1F600`, "é😀"},
		{"%q", "é b", `é\ b`},
		{"%q", "\xc3x", `$'\303x'`},
		{"%q", "\u200b\u2028", `$'` + "\u200b" + `\342\200\250'`},
	} {
		out, errs, st := o.Format(tt.format, []string{tt.arg})
		if out != tt.out || errs != nil || st != 0 {
			t.Errorf("Format(%q, %q) = %q %q %d, want %q", tt.format, tt.arg, out, errs, st, tt.out)
		}
	}
}

func TestTimeArguments(t *testing.T) {
	now := time.Date(2024, 2, 29, 13, 14, 15, 0, time.UTC)
	start := time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC)
	o := &Options{Now: func() time.Time { return now }, Start: start, Location: time.UTC}
	for _, tt := range []struct {
		args []string
		out  string
	}{
		{nil, "13:14:15"},
		{[]string{"-1"}, "13:14:15"},
		{[]string{"-2"}, "12:00:00"},
		{[]string{""}, "00:00:00"},
		{[]string{"3600"}, "01:00:00"},
	} {
		out, errs, st := o.Format("%()T", tt.args)
		if out != tt.out || errs != nil || st != 0 {
			t.Errorf("Format(%%()T, %q) = %q %q %d, want %q", tt.args, out, errs, st, tt.out)
		}
	}
	o.Start = time.Time{}
	if out, _, _ := o.Format("%(%s)T", []string{"-2"}); out != "1709212455" {
		t.Errorf("-2 without Start = %q, want the time Now returns", out)
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip(err)
	}
	o.Location = ny
	if out, _, _ := o.Format("%(%F %T %Z %z)T", []string{"1700000000"}); out != "2023-11-14 17:13:20 EST -0500" {
		t.Errorf("New York time = %q", out)
	}
}

func TestAssign(t *testing.T) {
	got := map[string]string{}
	o := &Options{Assign: func(name, value string) { got[name] = value }}
	out, errs, st := o.Format("%s%n%s%n|", []string{"abc", "v", "de", "w", "x", "v"})
	if out != "abcde|x|" || errs != nil || st != 0 {
		t.Fatalf("Format = %q %q %d", out, errs, st)
	}
	if want := map[string]string{"v": "1", "w": "5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("assigned %v, want %v", got, want)
	}
	_, errs, st = o.Format("%n", []string{"1v"})
	if st != 1 || len(errs) != 1 || errs[0] != "printf: `1v': not a valid identifier" {
		t.Errorf("bad name: %q %d", errs, st)
	}
}

func TestMaxOutput(t *testing.T) {
	o := &Options{MaxOutput: 100}
	for _, f := range []string{"%2000000000d", "%.2000000000d", "%2000000000s", "%.2000000000f", "%2000000000b", "%s%s"} {
		out, errs, st := o.Format(f, []string{strings.Repeat("x", 60), strings.Repeat("y", 60)})
		if st != 1 || len(errs) == 0 || !strings.Contains(errs[len(errs)-1], "exceeds 100 bytes") || len(out) > 100 {
			t.Errorf("Format(%q) = %d bytes, %q, %d; want the output limit error", f, len(out), errs, st)
		}
	}
	if out, errs, st := o.Format("%s", []string{strings.Repeat("x", 100)}); len(out) != 100 || errs != nil || st != 0 {
		t.Errorf("output at the limit: %d bytes, %q, %d", len(out), errs, st)
	}
}

func TestCommand(t *testing.T) {
	var o Options
	for _, tt := range []struct {
		argv    []string
		out     string
		errs    []string
		status  int
		varName string
	}{
		{nil, "", []string{usage}, 2, ""},
		{[]string{"-v"}, "", []string{"printf: -v: option requires an argument", usage}, 2, ""},
		{[]string{"-x", "a"}, "", []string{"printf: -x: invalid option", usage}, 2, ""},
		{[]string{"-5"}, "", []string{"printf: -5: invalid option", usage}, 2, ""},
		{[]string{"--"}, "", []string{usage}, 2, ""},
		{[]string{"-v", "x"}, "", []string{usage}, 2, ""},
		{[]string{"-v", "1a", "%s"}, "", []string{"printf: `1a': not a valid identifier"}, 2, ""},
		{[]string{"-v", "a[", "%s"}, "", []string{"printf: `a[': not a valid identifier"}, 2, ""},
		{[]string{"--", "-x"}, "-x", nil, 0, ""},
		{[]string{"-", "a"}, "-", nil, 0, ""},
		{[]string{"-v", "x", "%s!", "hi"}, "hi!", nil, 0, "x"},
		{[]string{"-vx", "-v", "arr[1]", "--", "%d", "z"}, "0", []string{"printf: z: invalid number"}, 1, "arr[1]"},
	} {
		out, errs, st, v := o.Command(tt.argv)
		if out != tt.out || !reflect.DeepEqual(errs, tt.errs) || st != tt.status || v != tt.varName {
			t.Errorf("Command(%q) = %q %q %d %q, want %q %q %d %q",
				tt.argv, out, errs, st, v, tt.out, tt.errs, tt.status, tt.varName)
		}
	}
	if out, _, st, _ := o.Command([]string{"--help"}); st != 2 || !strings.HasPrefix(out, "printf: printf [-v var]") {
		t.Errorf("--help = %q, %d", out, st)
	}
}

func BenchmarkFormat(b *testing.B) {
	var o Options
	for _, bc := range []struct {
		name, format string
		args         []string
	}{
		{"string", "%s=%s\n", []string{"key", "value"}},
		{"int", "%5d|%x|%o\n", []string{"12345", "255", "8"}},
		{"float", "%.2f %g\n", []string{"3.14159", "2.5e-3"}},
		{"quote", "%q\n", []string{"it's a $test"}},
		{"escape", `%b\t\n`, []string{`a\tb\x41`}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				o.Format(bc.format, bc.args)
			}
		})
	}
}

// FuzzFormat checks that no format or argument makes Format panic or
// exceed the output limit.
func FuzzFormat(f *testing.F) {
	for _, tt := range formatTests {
		a := ""
		if len(tt.args) > 0 {
			a = tt.args[0]
		}
		f.Add(tt.format, a)
	}
	f.Fuzz(func(t *testing.T, format, arg string) {
		for _, utf8 := range []bool{false, true} {
			o := &Options{MaxOutput: 1 << 16, UTF8: utf8, Location: time.UTC}
			out, _, st := o.Format(format, []string{arg, arg})
			if len(out) > 1<<16 {
				t.Fatalf("Format(%q, %q) wrote %d bytes", format, arg, len(out))
			}
			if st < 0 || st > 1 {
				t.Fatalf("Format(%q, %q) status %d", format, arg, st)
			}
		}
	})
}
