package native_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/platform/native"
	"github.com/wasmsand/wasmsand/sandbox"
)

// TestGoGetUser is a new user's program in a module of its own outside
// this repository, requiring it through a replace directive: with the
// zero Options and no tools anywhere (an empty user cache directory), the
// native platform builds the tools from the module's sources on first
// use and the pipeline runs.
func TestGoGetUser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program and the guest tools")
	}
	_, file, _, _ := runtime.Caller(0)
	repo, err := filepath.Abs(filepath.Join(filepath.Dir(file), "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/newuser\n\ngo 1.26\n\nrequire github.com/wasmsand/wasmsand v0.0.0\n\nreplace github.com/wasmsand/wasmsand => "+repo+"\n")
	sums, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", string(sums))
	write("main.go", `package main

import (
	"context"
	"fmt"
	"os"

	_ "github.com/wasmsand/wasmsand/platform/native"
	"github.com/wasmsand/wasmsand/sandbox"
)

func main() {
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer sb.Close()
	sb.WriteFile("/home/user/d.csv", []byte("a,3\nb,10\nc,2\n"), 0o644)
	res, err := sb.Run(ctx, "cut -d, -f2 d.csv | sort -n | tail -n 1")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Stderr.Write(res.Stderr)
	fmt.Printf("%d %s", res.ExitCode, res.Stdout)
}
`)
	goCmd := func(args ...string) *exec.Cmd {
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		return cmd
	}
	gocache, err := goCmd("env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "WASMSAND_TOOLS_DIR=",
		"GOCACHE="+strings.TrimSpace(string(gocache)), // keep Go's build cache warm
		"XDG_CACHE_HOME="+t.TempDir())                 // but start without tools
	tidy := goCmd("mod", "tidy")
	tidy.Env = env
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	run := goCmd("run", ".")
	run.Env = env
	var stderr strings.Builder
	run.Stderr = &stderr
	out, err := run.Output()
	if err != nil || string(out) != "0 10\n" {
		t.Fatalf("the new user's program: %v, stdout %q, stderr:\n%s", err, out, stderr.String())
	}
	if !strings.Contains(stderr.String(), "wasmsand: building the guest tools from "+filepath.Join(repo, "wasm", "guest")) {
		t.Errorf("no line saying the tools are being built; stderr:\n%s", stderr.String())
	}
}

// TestNoTools: a platform without tools gives sandboxes whose commands
// are "command not found" with the hint, not silence.
func TestNoTools(t *testing.T) {
	p := native.New(native.Config{NoTools: true})
	sb, err := sandbox.New(context.Background(), sandbox.Options{Platform: p})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	res, err := sb.Run(context.Background(), "cut -d, -f1 /etc/passwd; echo builtins still run")
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 || string(res.Stdout) != "builtins still run\n" ||
		!strings.Contains(string(res.Stderr), "cut: command not found ("+sandbox.NoToolsHint+")") {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
}

// TestToolsDir: Config.ToolsDir names the tools; a directory without
// any is an error naming it.
func TestToolsDir(t *testing.T) {
	p := native.New(native.Config{ToolsDir: filepath.Join(t.TempDir(), "missing")})
	_, err := sandbox.New(context.Background(), sandbox.Options{Platform: p})
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("err = %v, want one naming the directory", err)
	}
}
