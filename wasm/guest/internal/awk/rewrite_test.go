package awk

import (
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestRewrite(t *testing.T) {
	tests := []struct{ in, want string }{
		{`BEGIN{print 1}`, `BEGIN{print 1}`},
		{`BEGIN{system("ls")}`, `BEGIN{_wasmsand_system("ls")}`},
		{`BEGIN{"date" | getline d}`, `BEGIN{(getline d < _wasmsand_popen("date"))}`},
		{`BEGIN{"date" | getline}`, `BEGIN{(getline < _wasmsand_popen("date"))}`},
		{`BEGIN{"echo " x | getline a[1,2]; print}`, `BEGIN{(getline a[1,2] < _wasmsand_popen("echo " x)); print}`},
		{`{while ((c | getline $2) > 0) n++}`, `{while (((getline $2 < _wasmsand_popen(c))) > 0) n++}`},
		{`{if (x) "cmd" | getline}`, `{if (x) (getline < _wasmsand_popen("cmd"))}`},
		{`{y = "a" "b" | getline z}`, `{y = (getline z < _wasmsand_popen("a" "b"))}`},
		{`{print $1 | "sort -n"}`, `{print $1 > _wasmsand_pipe("sort -n")}`},
		{`{print $1 | "sort" " -u" # comment
}`, `{print $1 > _wasmsand_pipe("sort" " -u") # comment
}`},
		{`{printf("%s\n", $0) | cmd; close(cmd)}`, `{printf("%s\n", $0) > _wasmsand_pipe(cmd); close(_wasmsand_close(cmd))}`},
		{`{print "|" ; x = "system(1)"}`, `{print "|" ; x = "system(1)"}`},
		{`/system\(/ {n = a / b / c}`, `/system\(/ {n = a / b / c}`},
		{`BEGIN{system("x") | getline}`, `BEGIN{(getline < _wasmsand_popen(_wasmsand_system("x")))}`},
		{`BEGIN{print "unterminated`, `BEGIN{print "unterminated`},
	}
	for _, tc := range tests {
		if got := string(rewrite([]byte(tc.in))); got != tc.want {
			t.Errorf("rewrite(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestMain_(t *testing.T) {
	tests := []struct {
		args   []string
		stdin  string
		stdout string
		stderr string
		code   int
	}{
		{args: []string{"awk", "{print $2}"}, stdin: "a b\nc d\n", stdout: "b\nd\n"},
		{args: []string{"awk", "-F:", "-v", "x=1", "{print $2 x}"}, stdin: "a:b\n", stdout: "b1\n"},
		{args: []string{"awk", "-e", "BEGIN{printf \"é\"}", "-e", "END{print length(\"é\")}"}, stdout: "é1\n"},
		{args: []string{"awk", "-b", "BEGIN{print length(\"é\")}"}, stdout: "2\n"},
		{args: []string{"awk", "BEGIN{exit 5}"}, code: 5},
		{args: []string{"awk", "BEGIN{system(\"echo from sh\")}"}, stdout: "from sh\n"},
		{args: []string{"awk", "BEGIN{\"echo a\" | getline x; print x \"!\"}"}, stdout: "a!\n"},
		{args: []string{"awk", "{print | \"tr a-z A-Z\"} END{close(\"tr a-z A-Z\"); print \"end\"}"}, stdin: "x\ny\n", stdout: "X\nY\nend\n"},
		{args: []string{"awk", "-v", "9=1", "1"}, stderr: "awk: fatal: `9' is not a legal variable name\n", code: 2},
		{args: []string{"awk", "BEGIN{"}, stderr: "awk: syntax error at source line 1: expected } instead of EOF\n", code: 1},
		{args: []string{"awk", "1", "/nonexistent/x"}, stderr: "awk: fatal: cannot open file `/nonexistent/x' for reading: No such file or directory\n", code: 2},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
	if out, _, code := tool.Exec(Main, "", "awk", "--version"); code != 0 || !strings.Contains(out, GoAWKVersion) {
		t.Errorf("--version: %q %d", out, code)
	}
}
