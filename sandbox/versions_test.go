package sandbox

import (
	"bytes"
	"errors"
	"os/exec"
	"path"
	"regexp"
	"strings"
	"testing"
)

// versionExceptions are the commands whose --version is not compared with
// the tool of the same name on this machine, and why. They must still
// answer --version and --help with status 0 and some output, unless
// quietOK says otherwise.
var versionExceptions = map[string]string{
	"awk":   "ours is GoAWK-based; the machine's awk is gawk, another program",
	"yq":    "ours is mikefarah's yq; the machine's yq is the Python jq wrapper",
	"sh":    "ours is bash; the machine's sh is dash, which has no --version",
	"which": "Debian's which (debianutils) has no --version and rejects it with status 2",
	"pidof": "Debian's pidof is sysvinit's, which has no --version; ours is procps-ng's",
	"time":  "Debian's GNU time prints UNKNOWN for its version",
	"zip":   "Info-ZIP's zip starts --version with a copyright line; ours is not Info-ZIP's",
	"unzip": "Info-ZIP's unzip has no --version (it takes it as options -- and -v...)",
	"js":    "not installed on the machine (the sandbox's node)",
}

// quietOK are commands whose --version or --help rightly prints nothing
// on standard output, as GNU's do.
var quietOK = map[string]string{
	"test":    "GNU test takes a lone --version or --help as a non-empty string: true, silent",
	"sqlite3": "sqlite3 writes its usage to standard error (and exits 1)",
	"sponge":  "moreutils' sponge has no --version or --help: an invalid option",
	"ts":      "moreutils' ts has no --version or --help: an invalid option",
	"cal":     "bsdmainutils' cal has no --version or --help: an invalid option",
	"clear":   "ncurses' clear has no --version or --help: an invalid option",
	"bzip2":   "bzip2 writes its version to standard error",
	"bunzip2": "bzip2 writes its version to standard error",
	"bzcat":   "bzip2 writes its version to standard error",
	"xxd":     "xxd writes its version to standard error",
}

var debianGlibc = regexp.MustCompile(`\(Debian GLIBC [^)]*\)`)

// namePart is the first line of a --version answer up to its first digit:
// the program's name and package without the version number, which may
// differ. Debian's renamings of upstream packages are undone.
func namePart(stdout, stderr []byte) string {
	out := stdout
	if len(bytes.TrimSpace(out)) == 0 {
		out = stderr
	}
	line, _, _ := strings.Cut(string(out), "\n")
	line = debianGlibc.ReplaceAllString(line, "(GNU libc)")
	line = strings.ReplaceAll(line, " for Debian", "")
	// GNU sed names itself as invoked: /usr/bin/sed.
	if first, rest, ok := strings.Cut(line, " "); ok {
		line = path.Base(first) + " " + rest
	}
	if i := strings.IndexAny(line, "0123456789"); i >= 0 {
		line = line[:i]
	}
	return line
}

// TestEveryCommandVersionAndHelp runs CMD --version and CMD --help for
// every command in /usr/bin. Where the machine has the tool of the same
// name (and it is the same program: versionExceptions), ours must exit as
// it does and print on standard output if it does, and the first line of
// --version (of standard error if standard output is empty) must name the
// program as it does: equal up to the first digit, so version numbers may
// differ (namePart). Elsewhere ours must exit 0 and print something on
// standard output, except the quietOK ones.
func TestEveryCommandVersionAndHelp(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command in the sandbox")
	}
	sb := newTest(t, Options{})
	list := run(t, sb, "ls /usr/bin")
	names := strings.Fields(string(list.Stdout))
	if len(names) < 100 {
		t.Fatalf("only %d commands in /usr/bin: %q", len(names), list.Stdout)
	}
	for _, name := range names {
		for _, arg := range []string{"--version", "--help"} {
			res := run(t, sb, "/usr/bin/'"+name+"' "+arg+" </dev/null")
			wantCode := 0
			var real []byte
			var realErr bytes.Buffer
			path, err := exec.LookPath(name)
			if err == nil && versionExceptions[name] == "" {
				cmd := exec.Command(path, arg)
				cmd.Stderr = &realErr
				real, err = cmd.Output()
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					wantCode = ee.ExitCode()
				} else if err != nil {
					t.Fatalf("%s %s on the machine: %v", name, arg, err)
				}
			} else {
				path = ""
			}
			if res.ExitCode != wantCode {
				t.Errorf("%s %s: exit %d, want %d (stderr %q)", name, arg, res.ExitCode, wantCode, res.Stderr)
			}
			wantOut := quietOK[name] == ""
			if path != "" {
				wantOut = len(bytes.TrimSpace(real)) > 0
			}
			if len(bytes.TrimSpace(res.Stdout)) == 0 && wantOut {
				t.Errorf("%s %s: nothing on stdout (stderr %q)", name, arg, res.Stderr)
			}
			if arg == "--version" && path != "" && wantCode == 0 {
				got, want := namePart(res.Stdout, res.Stderr), namePart(real, realErr.Bytes())
				if got != want {
					t.Errorf("%s --version names %q, the machine's names %q", name, got, want)
				}
			}
		}
	}
}
