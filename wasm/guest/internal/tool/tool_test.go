package tool

import (
	"bytes"
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	spec := &Spec{
		Options: []Option{
			{Short: 'a', Long: "all"},
			{Short: 'A', Long: "almost-all"},
			{Short: 'n', Long: "lines", Arg: RequiredArg},
			{Long: "color", Arg: OptionalArg},
			{Short: 'é', Long: "accent"},
		},
		UsageExit: 2,
	}
	tests := []struct {
		args     []string
		flags    string // name=arg,...
		operands string
		err      string
	}{
		{args: []string{"-a", "x", "-n5", "y"}, flags: "a=,n=5", operands: "x y"},
		{args: []string{"-an", "3", "--", "-a"}, flags: "a=,n=3", operands: "-a"},
		{args: []string{"--lines=7", "--all", "--color"}, flags: "n=7,a=,color="},
		{args: []string{"--li", "9", "--colo=never"}, flags: "n=9,color=never"},
		{args: []string{"-", "-n", "-1"}, flags: "n=-1", operands: "-"},
		{args: []string{"-z"}, err: "invalid option -- 'z'"},
		{args: []string{"-éa"}, flags: "é=,a="},
		{args: []string{"-a\xff"}, err: "invalid option -- '\uFFFD'"},
		{args: []string{"-n"}, err: "option requires an argument -- 'n'"},
		{args: []string{"--al"}, err: "option '--al' is ambiguous; possibilities: '--all' '--almost-all'"},
		{args: []string{"--nope"}, err: "unrecognized option '--nope'"},
		{args: []string{"--all=1"}, err: "option '--all' doesn't allow an argument"},
		{args: []string{"--lines"}, err: "option '--lines' requires an argument"},
	}
	for _, tc := range tests {
		flags, ops, err := spec.parse(append([]string{"x"}, tc.args...))
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%v: error %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		var got []string
		for _, f := range flags {
			got = append(got, f.Name+"="+f.Arg)
		}
		if g := strings.Join(got, ","); g != tc.flags {
			t.Errorf("%v: flags %s, want %s", tc.args, g, tc.flags)
		}
		if g := strings.Join(ops, " "); g != tc.operands {
			t.Errorf("%v: operands %q, want %q", tc.args, g, tc.operands)
		}
	}
}

func TestParseUsage(t *testing.T) {
	spec := &Spec{UsageExit: 2, Help: "Usage: ls\n"}
	var out, errOut bytes.Buffer
	env := &Env{Args: []string{"/bin/ls", "-z"}, Stdout: &out, Stderr: &errOut}
	_, _, code, done := spec.Parse(env)
	if !done || code != 2 || errOut.String() != "ls: invalid option -- 'z'\nTry 'ls --help' for more information.\n" {
		t.Errorf("got done=%v code=%d stderr=%q", done, code, errOut.String())
	}
	env = &Env{Args: []string{"ls", "--help"}, Stdout: &out, Stderr: &errOut}
	out.Reset()
	_, _, code, done = spec.Parse(env)
	env.Out().Flush()
	if !done || code != 0 || out.String() != "Usage: ls\n" {
		t.Errorf("--help: done=%v code=%d stdout=%q", done, code, out.String())
	}
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, ifNeeded, always string }{
		{"plain", "plain", "'plain'"},
		{"a b", "'a b'", "'a b'"},
		{"it's", `"it's"`, `"it's"`},
		{"x\ny", `'x'$'\n''y'`, `'x'$'\n''y'`},
		{"$'", `'$'\'`, `'$'\'`},
		{"", "''", "''"},
	}
	for _, tc := range tests {
		if got := QuoteIfNeeded(tc.in); got != tc.ifNeeded {
			t.Errorf("QuoteIfNeeded(%q) = %s, want %s", tc.in, got, tc.ifNeeded)
		}
		if got := Quote(tc.in); got != tc.always {
			t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.always)
		}
	}
}

func TestStrerror(t *testing.T) {
	err := &fs.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}
	if got := Strerror(err); got != "No such file or directory" {
		t.Errorf("Strerror = %q", got)
	}
	if got := Strerror(syscall.EISDIR); got != "Is a directory" {
		t.Errorf("Strerror = %q", got)
	}
}

func TestParseSize(t *testing.T) {
	tests := map[string]int64{"10": 10, "1k": 1024, "2K": 2048, "1kB": 1000, "3b": 1536, "1M": 1 << 20, "1MiB": 1 << 20, "1GB": 1e9}
	for in, want := range tests {
		if got, ok := ParseSize(in); !ok || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "x", "1x", "-1", "1kk"} {
		if _, ok := ParseSize(bad); ok {
			t.Errorf("ParseSize(%q) succeeded", bad)
		}
	}
}

func TestParseMode(t *testing.T) {
	tests := []struct {
		spec string
		base fs.FileMode
		dir  bool
		want fs.FileMode
	}{
		{"755", 0, false, 0o755},
		{"u+x", 0o644, false, 0o744},
		{"go-w", 0o666, false, 0o644},
		{"a=r", 0o777, false, 0o444},
		{"+X", 0o644, true, 0o755},
		{"u=rwx,g=rx,o=", 0, false, 0o750},
		{"o=u", 0o700, false, 0o707},
	}
	for _, tc := range tests {
		got, ok := ParseMode(tc.spec, tc.base, tc.dir)
		if !ok || got != tc.want {
			t.Errorf("ParseMode(%q, %o) = %o, %v; want %o", tc.spec, tc.base, got, ok, tc.want)
		}
	}
	if _, ok := ParseMode("u+q", 0, false); ok {
		t.Error("ParseMode accepted u+q")
	}
}

func TestParseDate(t *testing.T) {
	now := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	tests := map[string]string{
		"2021-03-04 05:06:07":  "2021-03-04T05:06:07Z",
		"2021-03-04":           "2021-03-04T00:00:00Z",
		"2021-03-04T05:06:07Z": "2021-03-04T05:06:07Z",
		"@86400":               "1970-01-02T00:00:00Z",
		"yesterday":            "2024-05-05T07:08:09Z",
		"2 days ago":           "2024-05-04T07:08:09Z",
		"+3 hours":             "2024-05-06T10:08:09Z",
		"2021-01-01 +1 month":  "2021-02-01T00:00:00Z",
		"next week":            "2024-05-13T07:08:09Z",
		"12:30":                "2024-05-06T12:30:00Z",
	}
	for in, want := range tests {
		got, ok := ParseDate(in, now, time.UTC)
		if !ok || got.UTC().Format(time.RFC3339) != want {
			t.Errorf("ParseDate(%q) = %v, %v; want %s", in, got, ok, want)
		}
	}
	if _, ok := ParseDate("nonsense", now, time.UTC); ok {
		t.Error("ParseDate accepted nonsense")
	}
}

func TestStrftime(t *testing.T) {
	tm := time.Date(2024, 2, 3, 4, 5, 6, 7, time.UTC)
	if got := Strftime("%F %T %e %b %j %s %%", tm); got != "2024-02-03 04:05:06  3 Feb 034 1706933106 %" {
		t.Errorf("Strftime = %q", got)
	}
}

// epipeWriter fails as a write to a closed pipe does.
type epipeWriter struct{}

func (epipeWriter) Write([]byte) (int, error) { return 0, syscall.EPIPE }

type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

func TestWriteFailures(t *testing.T) {
	var errOut bytes.Buffer
	main := func(env *Env) int {
		env.Out().WriteString("hello")
		return 0
	}
	env := &Env{Args: []string{"x"}, Stdout: epipeWriter{}, Stderr: &errOut}
	if code := Run(main, env); code != ExitPipe || errOut.Len() != 0 {
		t.Errorf("EPIPE: code %d stderr %q", code, errOut.String())
	}
	env = &Env{Args: []string{"x"}, Stdout: errWriter{}, Stderr: &errOut}
	if code := Run(main, env); code != 1 || errOut.String() != "x: write error: No space left on device\n" {
		t.Errorf("ENOSPC: code %d stderr %q", code, errOut.String())
	}
}
