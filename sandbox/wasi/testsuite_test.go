package wasi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
)

// The official WASI preview1 testsuite (github.com/WebAssembly/wasi-testsuite,
// as built on its prod/testsuite-base branch: 72 prebuilt C, Rust and
// AssemblyScript programs with JSON expectations), run against this host.
//
// Nothing of the suite is committed: TestWASITestsuite fetches the pinned
// commit with git into the user cache directory the first time, from
// $WASI_TESTSUITE_REPO (a URL or a local clone) or GitHub. When it cannot,
// it skips, unless $WASMSAND_WASI_TESTSUITE=require (set by .ci/run), when
// it fails. Deliberate exclusions are listed, with reasons, in
// testsuite_excluded.txt; an excluded test that passes fails the run so the
// list stays honest.
const (
	testsuiteCommit = "9f80ca35444cfd9e63100725615140a346652e6c"
	testsuiteURL    = "https://github.com/WebAssembly/wasi-testsuite"
)

// testsuiteDirs are the preview1 suites under the checkout.
var testsuiteDirs = []string{
	"tests/assemblyscript/testsuite/wasm32-wasip1",
	"tests/c/testsuite/wasm32-wasip1",
	"tests/rust/testsuite/wasm32-wasip1",
}

// testsuitePath returns the checkout of the pinned suite, fetching it once.
func testsuitePath(t *testing.T) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no cache directory: %v", err)
	}
	dir := filepath.Join(cache, "wasmsand-wasi-testsuite", testsuiteCommit)
	if _, err := os.Stat(filepath.Join(dir, testsuiteDirs[0])); err == nil {
		return dir
	}
	src := os.Getenv("WASI_TESTSUITE_REPO")
	if src == "" {
		src = testsuiteURL
	}
	if err := fetchTestsuite(src, dir); err != nil {
		if os.Getenv("WASMSAND_WASI_TESTSUITE") == "require" {
			t.Fatalf("fetching the WASI testsuite from %s: %v", src, err)
		}
		t.Skipf("the WASI testsuite is not available (set WASI_TESTSUITE_REPO to a clone): %v", err)
	}
	return dir
}

// fetchTestsuite fetches commit testsuiteCommit of src into dir with git,
// through a temporary directory renamed into place.
func fetchTestsuite(src, dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "fetch-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, args := range [][]string{
		{"init", "-q"},
		{"fetch", "-q", "--depth", "1", src, testsuiteCommit},
		{"checkout", "-q", "FETCH_HEAD"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	os.RemoveAll(filepath.Join(tmp, ".git"))
	return os.Rename(tmp, dir)
}

// suiteSpec is the legacy JSON specification of one test.
type suiteSpec struct {
	Args     []string          `json:"args"`
	Env      map[string]string `json:"env"`
	Root     string            `json:"root"`
	ExitCode int               `json:"exit_code"`
	Stdout   *string           `json:"stdout"`
	Stderr   *string           `json:"stderr"`
}

// testsuiteExcluded reads testsuite_excluded.txt: lines "suite/name reason".
func testsuiteExcluded(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("testsuite_excluded.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, _ := strings.Cut(line, " ")
		m[name] = strings.TrimSpace(reason)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

// suiteRuntime is a wazero interpreter runtime with the host module: the
// Rust tests are 2 MB each and run once, so compiling them costs more than
// interpreting them.
var suiteRuntime struct {
	once sync.Once
	rt   wazero.Runtime
	err  error
}

func testsuiteRuntime(t *testing.T) wazero.Runtime {
	t.Helper()
	sr := &suiteRuntime
	sr.once.Do(func() {
		ctx := context.Background()
		sr.rt = wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
		hm := HostModule()
		b := sr.rt.NewHostModuleBuilder(hm.Name)
		for _, f := range hm.Funcs {
			fn := f.Fn
			b.NewFunctionBuilder().
				WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
					fn(ctx, wazeroMemory{mod.Memory()}, stack)
				}), valueTypes(f.Params), valueTypes(f.Results)).
				Export(f.Name)
		}
		_, sr.err = b.Instantiate(ctx)
	})
	if sr.err != nil {
		t.Fatal(sr.err)
	}
	return sr.rt
}

// copyIntoVFS copies the host tree at dir into fsys's root.
func copyIntoVFS(fsys *vfs.FS, dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if rel == "." {
			return nil
		}
		vp := "/" + filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return fsys.Symlink(target, vfs.RootIno, vp)
		case d.IsDir():
			return fsys.Mkdir(vfs.RootIno, vp, 0o755)
		default:
			if strings.HasSuffix(path, ".cleanup") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return fsys.WriteFile(vp, b, 0o644)
		}
	})
}

// runSuiteTest runs the test program wasmPath as the suite's adapters do
// and returns what differs from its specification, or "".
func runSuiteTest(t *testing.T, wasmPath string) string {
	spec := suiteSpec{}
	if b, err := os.ReadFile(strings.TrimSuffix(wasmPath, ".wasm") + ".json"); err == nil {
		if err := json.Unmarshal(b, &spec); err != nil {
			t.Fatalf("%s: %v", wasmPath, err)
		}
	}
	fsys := vfs.New(vfs.Options{})
	if spec.Root != "" {
		if err := copyIntoVFS(fsys, filepath.Join(filepath.Dir(wasmPath), spec.Root)); err != nil {
			t.Fatal(err)
		}
	}
	env := make([]string, 0, len(spec.Env))
	for k, v := range spec.Env {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	var stdout, stderr bytes.Buffer
	p, err := NewProcess(Config{
		Args:   append([]string{filepath.Base(wasmPath)}, spec.Args...),
		Env:    env,
		FS:     fsys,
		Stdout: &stdout,
		Stderr: &stderr,
		Random: strings.NewReader(strings.Repeat("wasi-testsuite random bytes ", 1<<12)),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	bin, err := os.ReadFile(wasmPath)
	if err != nil {
		t.Fatal(err)
	}
	rt := testsuiteRuntime(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	mod, err := rt.CompileModule(ctx, bin)
	if err != nil {
		return fmt.Sprintf("compile: %v", err)
	}
	defer mod.Close(ctx)
	ctx = WithProcess(ctx, p)
	code := 0
	inst, err := rt.InstantiateModule(ctx, mod, wazero.NewModuleConfig().WithStartFunctions().WithName(""))
	if err == nil {
		_, err = inst.ExportedFunction("_start").Call(ctx)
		inst.Close(context.Background())
	}
	if err != nil {
		var ee *wasm.ExitError
		if !errors.As(err, &ee) {
			return fmt.Sprintf("trap: %s\nstdout: %s\nstderr: %s", firstLine(err.Error()), stdout.Bytes(), stderr.Bytes())
		}
		code = int(ee.Code)
	}
	var diffs []string
	if code != spec.ExitCode {
		diffs = append(diffs, fmt.Sprintf("exit code %d, want %d", code, spec.ExitCode))
	}
	if spec.Stdout != nil && stdout.String() != *spec.Stdout {
		diffs = append(diffs, fmt.Sprintf("stdout %q, want %q", stdout.Bytes(), *spec.Stdout))
	}
	if spec.Stderr != nil && stderr.String() != *spec.Stderr {
		diffs = append(diffs, fmt.Sprintf("stderr %q, want %q", stderr.Bytes(), *spec.Stderr))
	}
	if len(diffs) > 0 && spec.Stdout == nil {
		diffs = append(diffs, fmt.Sprintf("stdout: %s\nstderr: %s", stdout.Bytes(), stderr.Bytes()))
	}
	return strings.Join(diffs, "\n")
}

func TestWASITestsuite(t *testing.T) {
	if testing.Short() {
		t.Skip("the WASI testsuite takes about a minute")
	}
	root := testsuitePath(t)
	excluded := testsuiteExcluded(t)
	seen := map[string]bool{}
	passed, failed := 0, 0
	for _, d := range testsuiteDirs {
		wasms, err := filepath.Glob(filepath.Join(root, d, "*.wasm"))
		if err != nil || len(wasms) == 0 {
			t.Fatalf("no tests in %s (%v)", d, err)
		}
		suite := strings.Split(d, "/")[1]
		for _, w := range wasms {
			name := suite + "/" + strings.TrimSuffix(filepath.Base(w), ".wasm")
			seen[name] = true
			t.Run(name, func(t *testing.T) {
				diff := runSuiteTest(t, w)
				reason, isExcluded := excluded[name]
				switch {
				case diff == "" && isExcluded:
					t.Errorf("passes but is listed in testsuite_excluded.txt (%s): remove it", reason)
				case diff == "":
					passed++
				case isExcluded:
					t.Skipf("excluded: %s (%s)", reason, firstLine(diff))
				default:
					failed++
					t.Error(diff)
				}
			})
		}
	}
	for name := range excluded {
		if !seen[name] {
			t.Errorf("testsuite_excluded.txt names %s, which the suite does not have", name)
		}
	}
	t.Logf("WASI testsuite %s: %d of %d passed, %d failed, %d excluded",
		testsuiteCommit[:12], passed, len(seen), failed, len(excluded))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
