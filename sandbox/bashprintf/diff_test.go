package bashprintf

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// diffCase is one printf invocation: the format is args[0].
type diffCase []string

// bashResult is what the real bash printed for one case.
type bashResult struct {
	out    string
	errs   string // stderr without the "script: line N: " prefixes
	status int
}

// requireBash skips the test unless bash 5.2 is installed.
func requireBash(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed; the differential test needs bash 5.2")
	}
	v, err := exec.Command(path, "-c", "echo ${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}").Output()
	if err != nil || strings.TrimSpace(string(v)) != "5.2" {
		t.Skipf("bash is %q, the differential test needs bash 5.2", strings.TrimSpace(string(v)))
	}
	return path
}

// stripLinePrefixes removes the "NAME: line N: " that bash puts before
// each diagnostic of a script.
func stripLinePrefixes(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		k := strings.Index(s, ": line ")
		nl := strings.IndexByte(s, '\n')
		if k < 0 || nl >= 0 && nl < k {
			if nl < 0 {
				b.WriteString(s)
				break
			}
			b.WriteString(s[:nl+1])
			s = s[nl+1:]
			continue
		}
		rest := s[k+len(": line "):]
		j := 0
		for j < len(rest) && isDigit(rest[j]) {
			j++
		}
		s = strings.TrimPrefix(rest[j:], ": ")
		nl = strings.IndexByte(s, '\n')
		if nl < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:nl+1])
		s = s[nl+1:]
	}
	return b.String()
}

func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// runBash runs every case through the real printf builtin in one bash
// process with the given environment.
func runBash(t *testing.T, bash string, env []string, cases []diffCase) []bashResult {
	t.Helper()
	dir := t.TempDir()
	var script strings.Builder
	script.WriteString("cd " + shQuote(dir) + " || exit 1\n")
	for i, c := range cases {
		script.WriteString("printf")
		for _, a := range c {
			script.WriteString(" " + shQuote(a))
		}
		fmt.Fprintf(&script, " >o%d 2>e%d; echo $? >s%d\n", i, i, i)
	}
	sp := filepath.Join(dir, "cases.sh")
	if err := os.WriteFile(sp, []byte(script.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, "--norc", "--noprofile", sp)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bash: %v: %s", err, out)
	}
	res := make([]bashResult, len(cases))
	for i := range cases {
		read := func(name string) string {
			b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%s%d", name, i)))
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		res[i].out = read("o")
		st, err := strconv.Atoi(strings.TrimSpace(read("s")))
		if err != nil {
			t.Fatal(err)
		}
		res[i].status = st
		res[i].errs = stripLinePrefixes(read("e"))
	}
	return res
}

var diffFormats = []string{
	"%s", "%d", "%i", "[%5s][%-5s][%.2s][%5.1s]", "%c|%c|%5c|%-3c|", "%s %s\n", "%d-%d\n",
	"%x %X %o %u", "%#x %#X %#o %#.0o %#.3o %#5x|%-#8X|", "%+d % d %+5d %-+5d|% 05d|%05d|%-05d|",
	"%.3d|%8.3d|%-8.3d|%08.3d|%.0d|%5.0d|", "%+u % u %+x", "%'d %'f", "%hd %ld %lld %jd %zd %td %Lf %hhx",
	"%f %e %g", "%.0f %.1f %.2f %.10f %.20f %.30f", "%#.0f %#.0e %#g %#.3g %#x", "%10.3f|%-10.3e|%010.2f|%+.3g|% g",
	"%E %G %F", "%g %g %g %g %g %g", "%.0g %.1g %.2g %.15g %.17g %.18g %.19g %.20g", "%a %A %.0a %.1a %.3A %#a %#.0a %10a|%-12a|%012a",
	"%b", "[%b]", "[%5b][%-5b][%.2b]", "%q", "[%q][%10q][%-10q][%.3q]", "%Q|%.2Q|%.Q|%5.2Q|", "%%", "100%%\n",
	"%", "abc%", "%5", "%-", "%.", "%l", "%z", "%y", "%k%d", "%5%", "%!", "%ll",
	"\\n\\t\\\\\\a\\b\\f\\r\\v\\\"\\'\\?\\e\\E", "\\101\\0101\\01\\7\\8\\x41\\x4g\\xg\\x", "\\u00e9\\u41\\U1F600\\U110000\\ug\\u",
	"\\c%s", "abc\\", "\\q\\%", "%s\\n",
	"%*d|", "%-*d|", "%.*f|", "%*.*f|", "%*s|%*s|", "%.*s|", "%*b|", "%.*q|", "%*c|",
	"%.-3d|", "%.-3s|", "%5.-3x|", "%-+#08.-2f|", "%.-q|", "%.-b|", "% .-1e|", "%'.-1d",
	"%99999999999d|", "%.99999999999d|", "%.99999999999f|", "x%4294967297sx",
	"%(%Y-%m-%d %H:%M:%S)T", "%(%s)T", "%()T", "%10(%H)T|", "%-10(%H:%M)T|", "%.3(%A)T|",
	"%(%a %A %b %B %h %p %P %Z %z)T", "%(%c|%x|%X|%D|%F|%T|%R|%r)T", "%(%C %y %Y %G %g %V %U %W %j %u %w)T",
	"%(%e %k %l %I %n%t%%)T", "%(%_5d|%-d|%05Y|%^a|%#b|%^B|%#Z|%#p|%^p|%^P|%#P|%10z|%_10z|%-10z|%3z)T",
	"%(%Ec %EC %Ex %EX %Ey %EY %Od %Oe %OH %OI %Om %OM %OS %Ou %OU %OV %Ow %OW %Oy)T",
	"%(%Ea|%Oa|%Eb|%Ob|%OB|%Oc|%OC|%ED|%EF|%Ox|%OX|%OY|%Ez|%Eq|%5q|%^10q|%)T", "%(%:z %+ %E)T", "%(%s %10s %_10s %-10s %010s)T",
	"%(%^c|%^10c|%010x|%#c)T", "%(%Y)Z", "%(abc", "%(%H)", "%((%H))T", "%(x(y)z)T",
	"%(%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y)T", "%(%100Y)T", "%(%126Y)T", "%(%127Y)T",
	"%n", "%s%n%s", "%d%b", "%s%b%s",
}

var diffArgs = [][]string{
	nil, {""}, {"0"}, {"1"}, {"-1"}, {"42", "abc", "x"}, {"abc"}, {"12abc"}, {" 12"}, {"12 "}, {" "},
	{"0x1F", "0X1f", "010", "08", "0x", "0xg", "-0x10", "+5", "-", "+"},
	{"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809"},
	{"18446744073709551615", "18446744073709551616", "99999999999999999999999"},
	{"'A", "\"B", "'", "'é", "'\xff", "\"€"},
	{"3.14159", "-2.5", "1e10", "1e-10", "0.5", "1.5", "2.5", "-0", "-0.0", "0.1", "123456789.987654321"},
	{"1e4932", "1.2e4932", "1e4933", "1e-4940", "1e-4950", "1e-5000", "0x1p-16400", "0x1p-16445", "0x1p16383", "0x1p16384"},
	{"inf", "-inf", "nan", "-nan", "INF", "infinity", "-Infinity", "nan(123)", "nan(", "INFx", "in"},
	{"0x1.8p3", "0xA.Bp-2", "0x.8", "0x1p", "0x1.", ".5", ".", "1.", "1e", "1e+", "1e+2x", "  1.5", "1.5 "},
	{"1e400", "1e-400", "0.000001", "0.0001", "0.00001", "999999.5", "9999995", "1e100", "1.7976931348623157e308"},
	{"hello world", "a\tb", "a\nb", "$HOME", "it's", "a\"b", "~user", "a~b", "x=~", "a:~", "#c", "c#", "!*?[]"},
	{"é", "\xc3", "a\x01b", "\x7f", "\x1b[0m", "a b€", "\u200b", "\u00a0", "\U0001F600", "\xe2\x80"},
	{"\\n\\t", "\\0101\\101\\1011", "\\x41\\xg", "\\c", "a\\cb", "\\u00e9\\U1F600", "\\'\\\"\\?", "\\e\\E\\q", "\\", "a\\"},
	{"%d", "%s", "%%", "100%"},
	{"5", "abc"}, {"-5", "abc"}, {"3", "2", "3.14159"}, {"abc", "5"},
	{"0", "1", "86399", "1700000000", "-1", "-5", "951782400", "1230768000", "1262304000", "1293753600"},
	{"-60000000000", "-62200000000", "-99999999999", "253402300800", "67767976233316800", "67767976233316799"},
	{"-67768040609740800", "99999999999999999", "1e3", "abc", ""},
	{"v", "1v", "_ok", "a-b"},
}

// diffSeed seeds the random cases: 1 unless BASHPRINTF_SEED is set, to
// explore more cases by hand.
func diffSeed() uint64 {
	if s, err := strconv.ParseUint(os.Getenv("BASHPRINTF_SEED"), 10, 64); err == nil {
		return s
	}
	return 1
}

// moreDiffCases generates random combinations of flags, widths,
// precisions, conversions and arguments.
func moreDiffCases(n int) []diffCase {
	r := rand.New(rand.NewPCG(diffSeed(), 2))
	convs := "diouxXcsbqQeEfFgGaA"
	flagSet := "#'-+ 0"
	argPool := []string{"0", "1", "-1", "7", "255", "-255", "65535", "3.5", "-0.25", "1e-5", "123.456",
		"6.02e23", "0x10", "010", "'a", "abc", "", " 3", "a b", "\\n", "2.5", "0.5", "1e300", "-1e-300",
		"99.995", "0.045", "1.0005", "9.9999999", "0x1.fffffffffffffffep0", "4.9406564584124654e-324"}
	var cases []diffCase
	for range n {
		var f strings.Builder
		var args []string
		for range 1 + r.IntN(3) {
			if r.IntN(3) == 0 {
				f.WriteString("<")
			}
			f.WriteByte('%')
			for range r.IntN(3) {
				f.WriteByte(flagSet[r.IntN(len(flagSet))])
			}
			switch r.IntN(4) {
			case 0:
				f.WriteString(strconv.Itoa(r.IntN(30)))
			case 1:
				f.WriteByte('*')
				args = append(args, strconv.Itoa(r.IntN(30)-10))
			}
			switch r.IntN(4) {
			case 0:
				f.WriteString("." + strconv.Itoa(r.IntN(25)))
			case 1:
				f.WriteString(".*")
				args = append(args, strconv.Itoa(r.IntN(30)-5))
			case 2:
				f.WriteString(".")
			}
			f.WriteByte(convs[r.IntN(len(convs))])
			args = append(args, argPool[r.IntN(len(argPool))])
			f.WriteString(">")
		}
		f.WriteString("\n")
		cases = append(cases, append(diffCase{f.String()}, args...))
	}
	return cases
}

// diffSpecial are cases that need particular argument lists, such as
// '*' values that bash clamps (only precisions of strings are safe to
// clamp: a clamped width prints 2 GiB).
var diffSpecial = []diffCase{
	{"%.*s|", "99999999999", "abc"}, {"%.*s|", "-99999999999", "abc"}, {"%.*s|%s", "2147483648", "abc", "x"},
	{"%.*s|", "2147483647", "abc"}, {"%.*s|", "-2147483649", "abc"}, {"%.*b|", "99999999999", "abc"},
	{"%.*q|", "4294967296"}, {"%*d|", "4294967301"}, {"%.*s|", "4294967298", "abcdef"},
	{"%s %s %s\n", "a", "b", "c", "d"}, {"%s\\c", "a", "b"}, {"%b %s", "x\\c", "y", "z"},
	{"%d %d", "1", "abc", "3", "x"}, {"%(%s)T %(%s)T\n", "1", "2", "3", "4"}, {"", "a"}, {"x", "a", "b"},
}

// starSafe reports whether every argument is small enough as a '*' width
// or precision.
func starSafe(args []string) bool {
	for _, a := range args {
		if a != "" && (a[0] == '\'' || a[0] == '"') {
			continue
		}
		v, _, _ := strtoint(a, true)
		if n := int64(v); n > 1000 || n < -1000 {
			return false
		}
	}
	return true
}

func allDiffCases() []diffCase {
	cases := append([]diffCase(nil), diffSpecial...)
	for _, f := range diffFormats {
		for _, a := range diffArgs {
			if strings.Contains(f, "*") && !starSafe(a) {
				continue
			}
			if strings.Contains(f, ")T") && usesClock(a) {
				continue // the current time differs between the two runs
			}
			cases = append(cases, append(diffCase{f}, a...))
		}
	}
	cases = append(cases, moreDiffCases(3000)...)
	return append(cases, randomValueCases(1500)...)
}

// randomValueCases generates random numbers for the float conversions,
// random bytes for %b and %q, and random strftime formats.
func randomValueCases(n int) []diffCase {
	r := rand.New(rand.NewPCG(diffSeed(), 4))
	digits := func(k int) string {
		b := make([]byte, k)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		return string(b)
	}
	var cases []diffCase
	for range n {
		// A decimal or hexadecimal float.
		var num string
		switch r.IntN(4) {
		case 0:
			num = digits(1+r.IntN(25)) + "." + digits(r.IntN(25))
		case 1:
			num = digits(1+r.IntN(3)) + "e" + strconv.Itoa(r.IntN(80)-40)
		case 2:
			num = "0x" + fmt.Sprintf("%x", r.Uint64()) + ".8p" + strconv.Itoa(r.IntN(200)-100)
		default:
			num = digits(1+r.IntN(6)) + "." + digits(1+r.IntN(6)) + "e" + strconv.Itoa(r.IntN(9000)-4500)
		}
		if r.IntN(3) == 0 {
			num = "-" + num
		}
		conv := "eEfFgGaA"[r.IntN(8)]
		f := "%"
		if r.IntN(2) == 0 {
			f += "." + strconv.Itoa(r.IntN(40))
		}
		if conv == 'f' || conv == 'F' {
			if e := strings.IndexAny(num, "e"); e >= 0 && !strings.Contains(num, "0x") {
				if x, _ := strconv.Atoi(num[e+1:]); x > 400 {
					num = num[:e] // keep %f output short
				}
			}
		}
		cases = append(cases, diffCase{f + string(conv) + "|%s\n", num, num})

		// Random bytes through %b and %q.
		b := make([]byte, 1+r.IntN(12))
		for i := range b {
			switch r.IntN(4) {
			case 0:
				b[i] = byte(1 + r.IntN(255))
			case 1:
				b[i] = "\\0123xuUceEnt'\"?$ ~#="[r.IntN(21)]
			default:
				b[i] = byte(' ' + r.IntN(95))
			}
		}
		cases = append(cases, diffCase{"[%b][%q][%5.3q]\n", string(b), string(b), string(b)})

		// A random strftime format.
		var tf strings.Builder
		for range 1 + r.IntN(4) {
			tf.WriteByte('%')
			if r.IntN(3) == 0 {
				tf.WriteByte("_-0^#"[r.IntN(5)])
			}
			if r.IntN(3) == 0 {
				tf.WriteString(strconv.Itoa(r.IntN(12)))
			}
			if r.IntN(6) == 0 {
				tf.WriteByte("EO"[r.IntN(2)])
			}
			tf.WriteByte("aAbBcCdDeFgGhHIjklmMnpPrRsStTuUVwWxXyYzZ%q"[r.IntN(42)])
			tf.WriteByte(' ')
		}
		secs := strconv.FormatInt(r.Int64N(1<<36)-1<<35, 10)
		cases = append(cases, diffCase{"%(" + tf.String() + ")T|\n", secs})
	}
	return cases
}

// compareWithBash formats every case with o and with bash in env and
// reports the differences.
func compareWithBash(t *testing.T, o *Options, env []string) {
	if testing.Short() {
		t.Skip("the differential test runs thousands of cases through bash")
	}
	bash := requireBash(t)
	cases := allDiffCases()
	want := runBash(t, bash, env, cases)
	bad := 0
	for i, c := range cases {
		out, errs, st := o.Format(c[0], c[1:])
		w := want[i]
		var ej strings.Builder
		for _, e := range errs {
			ej.WriteString(e + "\n")
		}
		if out == w.out && st == w.status && ej.String() == w.errs {
			continue
		}
		bad++
		if bad <= 40 {
			t.Errorf("printf %q\n got  out=%q errs=%q status=%d\n want out=%q errs=%q status=%d",
				[]string(c), out, ej.String(), st, w.out, w.errs, w.status)
		}
	}
	t.Logf("%d cases, %d differ", len(cases), bad)
}

// usesClock reports whether a %(fmt)T argument list reads the current
// time (-1, -2 or a missing argument), which differs between two runs.
func usesClock(args []string) bool {
	if len(args) == 0 {
		return true
	}
	for _, a := range args {
		if a != "" && a[0] != '\'' && a[0] != '"' {
			if v, _, _ := strtoint(a, true); v == ^uint64(0) || v == ^uint64(1) {
				return true
			}
		}
	}
	return false
}

func TestDifferentialC(t *testing.T) {
	t.Parallel()
	o := &Options{Location: time.UTC}
	compareWithBash(t, o, []string{"LC_ALL=C", "TZ=UTC", "PATH=" + os.Getenv("PATH")})
}

func TestDifferentialUTF8(t *testing.T) {
	t.Parallel()
	loc, err := exec.Command("locale", "-a").Output()
	if err != nil || !bytes.Contains(bytes.ToLower(loc), []byte("c.utf8")) {
		t.Skip("the C.UTF-8 locale is not installed")
	}
	o := &Options{Location: time.UTC, UTF8: true}
	compareWithBash(t, o, []string{"LC_ALL=C.UTF-8", "TZ=UTC", "PATH=" + os.Getenv("PATH")})
}

func TestDifferentialZone(t *testing.T) {
	t.Parallel()
	const zone = "America/New_York"
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Skipf("no time zone data: %v", err)
	}
	o := &Options{Location: loc}
	compareWithBash(t, o, []string{"LC_ALL=C", "TZ=" + zone, "PATH=" + os.Getenv("PATH")})
}
