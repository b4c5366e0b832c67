package patch

import (
	"os"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const orig = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"

const unified = `--- a/f	2020-01-01 00:00:00.000000000 +0000
+++ b/f	2020-01-01 00:00:00.000000000 +0000
@@ -2,7 +2,7 @@
 2
 3
 4
-5
+five
 6
 7
 8
`

func TestPatch(t *testing.T) {
	tests := []struct {
		name   string
		file   string // contents of f before
		args   []string
		patch  string
		stdout string
		code   int
		after  string // contents of f after ("-" if removed)
		files  []string
	}{
		{name: "exact", file: orig, args: []string{"-p1"}, patch: unified, stdout: "patching file f\n",
			after: strings.Replace(orig, "5\n", "five\n", 1)},
		{name: "basename without -p", file: orig, patch: unified, stdout: "patching file f\n",
			after: strings.Replace(orig, "5\n", "five\n", 1)},
		{name: "offset", file: "0\n0\n" + orig, args: []string{"-p1"}, patch: unified,
			stdout: "patching file f\nHunk #1 succeeded at 4 (offset 2 lines).\n",
			after:  "0\n0\n" + strings.Replace(orig, "5\n", "five\n", 1), files: []string{"f.orig"}},
		{name: "fuzz", file: strings.Replace(orig, "2\n", "two\n", 1), args: []string{"-p1"}, patch: unified,
			stdout: "patching file f\nHunk #1 succeeded at 2 with fuzz 1.\n",
			after:  strings.Replace(strings.Replace(orig, "2\n", "two\n", 1), "5\n", "five\n", 1)},
		{name: "reject", file: strings.Replace(orig, "6\n", "six\n", 1), args: []string{"-p1"}, patch: unified,
			stdout: "patching file f\nHunk #1 FAILED at 2.\n1 out of 1 hunk FAILED -- saving rejects to file f.rej\n",
			code:   1, after: strings.Replace(orig, "6\n", "six\n", 1), files: []string{"f.rej", "f.orig"}},
		{name: "reverse", file: strings.Replace(orig, "5\n", "five\n", 1), args: []string{"-R", "-p1"}, patch: unified,
			stdout: "patching file f\n", after: orig},
		{name: "already applied", file: strings.Replace(orig, "5\n", "five\n", 1), args: []string{"-p1"}, patch: unified,
			stdout: "patching file f\nReversed (or previously applied) patch detected!  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n1 out of 1 hunk ignored -- saving rejects to file f.rej\n",
			code:   1, after: strings.Replace(orig, "5\n", "five\n", 1)},
		{name: "forward", file: strings.Replace(orig, "5\n", "five\n", 1), args: []string{"-N", "-p1"}, patch: unified,
			stdout: "patching file f\nReversed (or previously applied) patch detected!  Skipping patch.\n1 out of 1 hunk ignored -- saving rejects to file f.rej\n",
			code:   1, after: strings.Replace(orig, "5\n", "five\n", 1)},
		{name: "dry run", file: orig, args: []string{"--dry-run", "-p1"}, patch: unified, stdout: "checking file f\n", after: orig},
		{name: "normal", file: orig, args: []string{"f"}, patch: "5c5\n< 5\n---\n> five\n9a10\n> 9.5\n",
			stdout: "patching file f\n", after: strings.Replace(strings.Replace(orig, "5\n", "five\n", 1), "9\n", "9\n9.5\n", 1)},
		{name: "context", file: orig, patch: "*** f\n--- f\n***************\n*** 4,6 ****\n  4\n! 5\n  6\n--- 4,6 ----\n  4\n! five\n  6\n",
			stdout: "patching file f\n", after: strings.Replace(orig, "5\n", "five\n", 1)},
		{name: "create", patch: "--- /dev/null\n+++ f\n@@ -0,0 +1,2 @@\n+a\n+b\n", stdout: "patching file f\n", after: "a\nb\n"},
		{name: "delete", file: "a\nb\n", patch: "--- f\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n", stdout: "patching file f\n", after: "-"},
		{name: "no newline", file: "a\nb\n", patch: "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n",
			stdout: "patching file f\n", after: "a\nc"},
		{name: "garbage", file: orig, patch: "hello\n", code: 2, after: orig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if tt.file != "" {
				os.WriteFile("f", []byte(tt.file), 0o644)
			}
			args := append([]string{"patch"}, tt.args...)
			out, errOut, code := tool.Exec(Main, tt.patch, args...)
			if out != tt.stdout || code != tt.code {
				t.Errorf("got (%q, %q, %d), want (%q, %d)", out, errOut, code, tt.stdout, tt.code)
			}
			b, err := os.ReadFile("f")
			switch {
			case tt.after == "-" && err == nil:
				t.Errorf("f still exists: %q", b)
			case tt.after != "-" && string(b) != tt.after:
				t.Errorf("f = %q, want %q", b, tt.after)
			}
			for _, f := range tt.files {
				if _, err := os.Stat(f); err != nil {
					t.Errorf("%s missing", f)
				}
			}
		})
	}
}
