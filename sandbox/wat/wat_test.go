package wat_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/wat"
	"github.com/wasmsand/wasmsand/wasm/cguest"
	"github.com/wasmsand/wasmsand/wasm/modsandbox"
	"github.com/wasmsand/wasmsand/wasm/modsandbox/native"
)

var shared struct {
	once sync.Once
	c    *wat.Compiler
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.c != nil {
		shared.c.Close()
	}
	os.Exit(code)
}

// toolsDir is a directory holding only the wat2wasm guest of the C guests'
// build; the test is skipped without one, except under CI.
func toolsDir(t *testing.T) string {
	t.Helper()
	cdir, ok := cguest.Cached()
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatal("the C guests are not built: CI must run `make cguests` (see .ci/run)")
		}
		t.Skip("the C guests are not built here (make cguests)")
	}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(cdir, "wat2wasm.wasm"), filepath.Join(dir, "wat2wasm.wasm")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func compiler(t *testing.T) *wat.Compiler {
	t.Helper()
	dir := toolsDir(t)
	shared.once.Do(func() {
		cache, _ := os.UserCacheDir()
		shared.c = wat.New(sandbox.Options{ToolsDir: dir, CacheDir: filepath.Join(cache, "wasmsand-test", "modules")})
	})
	return shared.c
}

const addWAT = `;; adds two numbers
(module
  (func (export "add") (param i32 i32) (result i32)
    (i32.add (local.get 0) (local.get 1))))
`

func TestCompile(t *testing.T) {
	c := compiler(t)
	bin, err := c.Compile(context.Background(), []byte(addWAT))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(bin, []byte("\x00asm\x01\x00\x00\x00")) {
		t.Fatalf("not a binary module: % x", bin[:min(len(bin), 16)])
	}
}

func TestCompileErrors(t *testing.T) {
	c := compiler(t)
	for _, tc := range []struct {
		name       string
		text       string
		line, col  int
		msgContain string
	}{
		{"bad instruction", "(module\n  (func (result i32)\n    i32.const 1\n    i32.bogus))\n", 4, 5, "unexpected token"},
		{"unclosed", "(module\n  (func\n", 3, 1, "expected"},
		{"type mismatch", "(module\n  (func (result i32)\n    f32.const 1))\n", 3, 5, "type mismatch"},
		{"unknown label", "(module (func (br $nowhere)))", 1, 19, "undefined label"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Compile(context.Background(), []byte(tc.text))
			var we *wat.Error
			if !errors.As(err, &we) {
				t.Fatalf("error %v (%T), want a *wat.Error", err, err)
			}
			if we.Line != tc.line || we.Column != tc.col || !strings.Contains(we.Message, tc.msgContain) {
				t.Errorf("got line %d column %d %q, want line %d column %d and %q\n%s",
					we.Line, we.Column, we.Message, tc.line, tc.col, tc.msgContain, we.Output)
			}
			if strings.Contains(we.Error(), "/tmp/") || strings.Contains(we.Output, "/tmp/module.wat") {
				t.Errorf("the error names the sandbox's file: %v\n%s", we, we.Output)
			}
		})
	}
	// The compiler stays usable after errors.
	if _, err := c.Compile(context.Background(), []byte(addWAT)); err != nil {
		t.Fatal(err)
	}
}

func TestCompileToolMissing(t *testing.T) {
	c := wat.New(sandbox.Options{ToolsDir: t.TempDir()})
	defer c.Close()
	if _, err := c.Compile(context.Background(), []byte(addWAT)); !errors.Is(err, wat.ErrToolMissing) {
		t.Fatalf("error %v, want ErrToolMissing", err)
	}
}

func TestIsText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{addWAT, true},
		{"  (module)", true},
		{"(; block ;) (module)", true},
		{"\x00asm\x01\x00\x00\x00", false},
		{"", false},
		{";; only a comment", false},
		{"module", false},
	} {
		if got := wat.IsText([]byte(tc.in)); got != tc.want {
			t.Errorf("IsText(%q) = %v", tc.in, got)
		}
	}
}

// TestModsandboxText loads text into the low-level module API.
func TestModsandboxText(t *testing.T) {
	c := compiler(t)
	ctx := context.Background()
	rt := native.New()
	defer rt.Close(ctx)

	in, err := rt.Create(modsandbox.Config{EventTimestamp: 1_700_000_000_000})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Destroy()
	// Without a text compiler text is refused with a clear message.
	if err := in.Load(ctx, []byte(addWAT)); !errors.Is(err, modsandbox.ErrInvalidModule) || !strings.Contains(err.Error(), "SetTextCompiler") {
		t.Fatalf("text without a compiler: %v", err)
	}

	rt.SetTextCompiler(c.Compile)
	bad := "(module\n  (func (export \"f\") (result i32)\n    i32.const 1\n    i32.bogus))\n"
	err = in.Load(ctx, []byte(bad))
	var we *wat.Error
	if !errors.Is(err, modsandbox.ErrInvalidModule) || !errors.As(err, &we) || we.Line != 4 {
		t.Fatalf("bad text: %v", err)
	}
	if !strings.Contains(err.Error(), "line 4, column 5") {
		t.Errorf("message lacks the position: %v", err)
	}
	if err := in.Load(ctx, []byte(addWAT)); err != nil {
		t.Fatal(err)
	}
	r := in.Execute(ctx, "add", []int{40, 2})
	if !r.OK || fmt.Sprint(r.Value) != "42" {
		t.Fatalf("add: %+v", r)
	}
}
