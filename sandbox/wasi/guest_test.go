package wasi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
)

// wazeroMemory adapts wazero's api.Memory to wasm.Memory.
type wazeroMemory struct{ m api.Memory }

func (w wazeroMemory) Read(off, n uint32) ([]byte, bool)      { return w.m.Read(off, n) }
func (w wazeroMemory) Write(off uint32, b []byte) bool        { return w.m.Write(off, b) }
func (w wazeroMemory) ReadUint32Le(off uint32) (uint32, bool) { return w.m.ReadUint32Le(off) }
func (w wazeroMemory) WriteUint32Le(off, v uint32) bool       { return w.m.WriteUint32Le(off, v) }
func (w wazeroMemory) ReadUint64Le(off uint32) (uint64, bool) { return w.m.ReadUint64Le(off) }
func (w wazeroMemory) WriteUint64Le(off uint32, v uint64) bool {
	return w.m.WriteUint64Le(off, v)
}
func (w wazeroMemory) Size() uint32 { return w.m.Size() }

func valueTypes(ts []wasm.ValueType) []api.ValueType {
	out := make([]api.ValueType, len(ts))
	for i, t := range ts {
		out[i] = api.ValueType(t)
	}
	return out
}

// testRuntime is one wazero runtime with HostModule instantiated, shared by
// the guest tests, with the guests compiled once.
var testRuntime struct {
	once  sync.Once
	err   error
	rt    wazero.Runtime
	mods  map[string]wazero.CompiledModule
	mu    sync.Mutex
	calls sync.Map // function name → *atomic.Int64
}

// calls returns how many times the guests called the host function name.
func calls(name string) int64 {
	c, _ := testRuntime.calls.LoadOrStore(name, new(atomic.Int64))
	return c.(*atomic.Int64).Load()
}

func guestRuntime(t testing.TB) wazero.Runtime {
	t.Helper()
	tr := &testRuntime
	tr.once.Do(func() {
		ctx := context.Background()
		tr.rt = wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig())
		hm := HostModule()
		b := tr.rt.NewHostModuleBuilder(hm.Name)
		for _, f := range hm.Funcs {
			fn := f.Fn
			c, _ := tr.calls.LoadOrStore(f.Name, new(atomic.Int64))
			count := c.(*atomic.Int64)
			b.NewFunctionBuilder().
				WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
					count.Add(1)
					fn(ctx, wazeroMemory{mod.Memory()}, stack)
				}), valueTypes(f.Params), valueTypes(f.Results)).
				Export(f.Name)
		}
		_, tr.err = b.Instantiate(ctx)
		tr.mods = map[string]wazero.CompiledModule{}
	})
	if tr.err != nil {
		t.Fatal(tr.err)
	}
	return tr.rt
}

// compiled compiles the guest at path once.
func compiled(t testing.TB, path string) wazero.CompiledModule {
	t.Helper()
	rt := guestRuntime(t)
	tr := &testRuntime
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if m, ok := tr.mods[path]; ok {
		return m
	}
	bin, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := rt.CompileModule(context.Background(), bin)
	if err != nil {
		t.Fatal(err)
	}
	tr.mods[path] = m
	return m
}

var goGuest struct {
	once sync.Once
	dir  string
	path string
	err  error
	out  []byte
}

func TestMain(m *testing.M) {
	code := m.Run()
	if goGuest.dir != "" {
		os.RemoveAll(goGuest.dir)
	}
	os.Exit(code)
}

// goGuestPath builds testdata/goguest with GOOS=wasip1 once per test run,
// into a temporary directory TestMain removes.
func goGuestPath(t testing.TB) string {
	t.Helper()
	goGuest.once.Do(func() {
		dir, err := os.MkdirTemp("", "wasi-goguest")
		if err != nil {
			goGuest.err = err
			return
		}
		goGuest.dir = dir
		goGuest.path = filepath.Join(dir, "goguest.wasm")
		// "go test" puts its own go command first on PATH.
		cmd := exec.Command("go", "build", "-o", goGuest.path, "./testdata/goguest")
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		goGuest.out, goGuest.err = cmd.CombinedOutput()
	})
	if goGuest.err != nil {
		t.Fatalf("building the Go guest: %v\n%s", goGuest.err, goGuest.out)
	}
	return goGuest.path
}

const cGuestPath = "testdata/c/guest.wasm"

// guestFS lays out a small tree like the sandbox's.
func guestFS(t testing.TB) *vfs.FS {
	t.Helper()
	fsys := vfs.New(vfs.Options{})
	for _, d := range []string{"/bin", "/dev", "/etc", "/home/user", "/tmp"} {
		if err := fsys.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []struct {
		path string
		data string
	}{
		{"/etc/motd", "motd text"},
		{"/home/user/f.txt", "user file"},
		{"/f.txt", "root file"},
	} {
		if err := fsys.WriteFile(f.path, []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []struct {
		path string
		dev  vfs.Device
	}{{"/dev/null", vfs.DevNull}, {"/dev/stdin", vfs.DevStdin}, {"/dev/stdout", vfs.DevStdout}, {"/dev/stderr", vfs.DevStderr}} {
		if err := fsys.Mknod(d.path, d.dev, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return fsys
}

type runResult struct {
	stdout, stderr string
	err            error
}

// exitCode returns the code of a *wasm.ExitError in err, 0 for nil and -1
// for anything else.
func (r runResult) exitCode() int {
	if r.err == nil {
		return 0
	}
	var ee *wasm.ExitError
	if errors.As(r.err, &ee) {
		return int(ee.Code)
	}
	return -1
}

// run runs the guest at path with cfg (Stdout and Stderr captured unless
// set) until it returns or ctx ends.
func run(t testing.TB, ctx context.Context, path string, cfg Config) runResult {
	t.Helper()
	mod := compiled(t, path)
	var stdout, stderr bytes.Buffer
	if cfg.Stdout == nil {
		cfg.Stdout = &stdout
	}
	if cfg.Stderr == nil {
		cfg.Stderr = &stderr
	}
	if cfg.FS == nil {
		cfg.FS = guestFS(t)
	}
	p, err := NewProcess(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx = WithProcess(ctx, p)
	inst, err := guestRuntime(t).InstantiateModule(ctx, mod, wazero.NewModuleConfig().WithStartFunctions().WithName(""))
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close(context.Background())
	_, err = inst.ExportedFunction("_start").Call(ctx)
	if ee := (*wasm.ExitError)(nil); errors.As(err, &ee) && ee.Code == 0 {
		err = nil // proc_exit(0): a normal end
	}
	return runResult{stdout.String(), stderr.String(), err}
}

func guests(t *testing.T) map[string]string {
	return map[string]string{"go": goGuestPath(t), "c": cGuestPath}
}

func TestGuestCwd(t *testing.T) {
	for name, path := range guests(t) {
		t.Run(name, func(t *testing.T) {
			r := run(t, context.Background(), path, Config{
				Args: []string{"guest", "cwd"}, Cwd: "/home/user", Env: []string{"PWD=/home/user"},
			})
			if r.err != nil {
				t.Fatalf("%v\nstdout: %s\nstderr: %s", r.err, r.stdout, r.stderr)
			}
			for _, want := range []string{
				`f.txt "user file"`,
				`/etc/motd "motd text"`,
				`../user/f.txt "user file"`,
			} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("output lacks %q:\n%s", want, r.stdout)
				}
			}
			if name == "go" && !strings.Contains(r.stdout, "wd /home/user\n") {
				t.Errorf("os.Getwd is not /home/user:\n%s", r.stdout)
			}
			if name == "c" {
				for _, want := range []string{`./f.txt "user file"`, `/home/user/f.txt "user file"`, "ls .: . .. f.txt\n"} {
					if !strings.Contains(r.stdout, want) {
						t.Errorf("output lacks %q:\n%s", want, r.stdout)
					}
				}
			}
		})
	}
}

func TestGuestCwdWithoutPWD(t *testing.T) {
	// NewProcess supplies PWD for Go guests when Env lacks it.
	r := run(t, context.Background(), goGuestPath(t), Config{Args: []string{"guest", "cwd"}, Cwd: "/home/user"})
	if r.err != nil || !strings.Contains(r.stdout, `f.txt "user file"`) {
		t.Fatalf("err %v\n%s", r.err, r.stdout)
	}
}

func TestGuestFiles(t *testing.T) {
	wantGo := `read "hello, world"
readat "world"
seek 9 "rld"
write to read-only fails true
stat a.txt 12 true -rw-------
excl exists true
missing true
readlink sub/b.txt
lstat symlink true
through link "hello, world"
hard size 12
truncated "hel"
mtime 2001-02-03T04:05:06Z
readdir 301 true b.txt f299-nnnnnnnnnnnnnnnnnnn
walk work work/hard work/link work/sub work/sub/b.txt
remove nonempty true
removed true
done
`
	wantC := `work/a.txt "hello, world"
pread "world"
lseek 9 "rld"
excl -1 File exists
missing -1 No such file or directory
notdir -1 Not a directory
stat size 12 reg 1
readlink b.txt
lstat link 1
work/link "hello, world"
work/b.txt "he"
ls work: . .. b.txt hard link
done
`
	for name, want := range map[string]string{"go": wantGo, "c": wantC} {
		t.Run(name, func(t *testing.T) {
			fsys := guestFS(t)
			r := run(t, context.Background(), guests(t)[name], Config{
				Args: []string{"guest", "files"}, Cwd: "/home/user", FS: fsys,
			})
			if r.err != nil {
				t.Fatalf("%v\nstdout: %s\nstderr: %s", r.err, r.stdout, r.stderr)
			}
			if r.stdout != want {
				t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
			}
			if _, err := fsys.Stat(vfs.RootIno, "/home/user/work", false); !errors.Is(err, vfs.ENOENT) {
				t.Errorf("work left behind: %v", err)
			}
		})
	}
}

func TestGuestEscape(t *testing.T) {
	fsys := guestFS(t)
	if err := fsys.Symlink("../../../../..", vfs.RootIno, "/home/user/up"); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Symlink("/../../etc", vfs.RootIno, "/home/user/abs"); err != nil {
		t.Fatal(err)
	}
	r := run(t, context.Background(), goGuestPath(t), Config{Args: []string{"guest", "escape"}, Cwd: "/home/user", FS: fsys})
	if r.err != nil {
		t.Fatalf("%v\n%s%s", r.err, r.stdout, r.stderr)
	}
	want := `../../../../../etc/motd "motd text" <nil>
/../../etc/motd "motd text" <nil>
up/etc/motd "motd text" <nil>
abs/motd "motd text" <nil>
proc true
bin dev etc f.txt home tmp 
`
	if r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
}

func TestGuestEnvArgs(t *testing.T) {
	for name, path := range guests(t) {
		t.Run(name, func(t *testing.T) {
			r := run(t, context.Background(), path, Config{
				Args: []string{"guest", "env", "a b", "c"}, Env: []string{"FOO=bar=baz"}, Cwd: "/tmp",
			})
			if r.err != nil {
				t.Fatal(r.err)
			}
			want := "args a b,c\nFOO bar=baz\nPWD /tmp\n"
			if name == "c" {
				want = "args a b c\nFOO bar=baz\n"
			}
			if r.stdout != want {
				t.Errorf("stdout %q, want %q", r.stdout, want)
			}
		})
	}
}

func TestGuestStdin(t *testing.T) {
	input := strings.Repeat("some input line\n", 10000)
	for name, path := range guests(t) {
		t.Run(name, func(t *testing.T) {
			r := run(t, context.Background(), path, Config{Args: []string{"guest", "cat"}, Stdin: strings.NewReader(input)})
			if r.err != nil {
				t.Fatal(r.err)
			}
			if r.stdout != input {
				t.Errorf("got %d bytes back, want %d", len(r.stdout), len(input))
			}
		})
	}
}

func TestGuestStdinPipe(t *testing.T) {
	// An *os.File pipe fed slowly: reads block in fd_read.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	go func() {
		for i := range 3 {
			pw.WriteString(strings.Repeat("x", i+1) + "\n")
			time.Sleep(10 * time.Millisecond)
		}
		pw.Close()
	}()
	r := run(t, context.Background(), goGuestPath(t), Config{Args: []string{"guest", "lines"}, Stdin: pr})
	if r.err != nil {
		t.Fatal(r.err)
	}
	if want := "line: x\nline: xx\nline: xxx\n"; r.stdout != want {
		t.Errorf("stdout %q, want %q", r.stdout, want)
	}
}

func TestGuestStdinPipeCancel(t *testing.T) {
	// A read blocked on a pipe nobody writes ends when ctx is done, and the
	// pipe is usable afterwards.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := run(t, ctx, goGuestPath(t), Config{Args: []string{"guest", "cat"}, Stdin: pr})
	if !errors.Is(r.err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", r.err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	pw.WriteString("after")
	buf := make([]byte, 5)
	if _, err := io.ReadFull(pr, buf); err != nil || string(buf) != "after" {
		t.Errorf("pipe after cancel: %q %v", buf, err)
	}
}

func TestGuestSleep(t *testing.T) {
	for name, path := range guests(t) {
		t.Run(name, func(t *testing.T) {
			args := []string{"guest", "sleep", "30ms"}
			r := run(t, context.Background(), path, Config{Args: args})
			want := map[string]string{"go": "slept true\n", "c": "slept 1\n"}[name]
			if r.err != nil || r.stdout != want {
				t.Fatalf("err %v stdout %q stderr %q", r.err, r.stdout, r.stderr)
			}
		})
	}
	r := run(t, context.Background(), goGuestPath(t), Config{Args: []string{"guest", "timer"}})
	if r.err != nil || r.stdout != "got 42\n" {
		t.Fatalf("timer: err %v stdout %q", r.err, r.stdout)
	}
}

func TestGuestSleepCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := run(t, ctx, goGuestPath(t), Config{Args: []string{"guest", "sleep", "1h"}})
	if !errors.Is(r.err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", r.err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestGuestExit(t *testing.T) {
	for name, path := range guests(t) {
		t.Run(name, func(t *testing.T) {
			want := map[string]int{"go": 7, "c": 9}[name]
			r := run(t, context.Background(), path, Config{Args: []string{"guest", "exit"}})
			if r.exitCode() != want {
				t.Errorf("exit %d (%v), want %d", r.exitCode(), r.err, want)
			}
		})
	}
}

func TestGuestBrokenPipe(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	go func() {
		buf := make([]byte, 1000)
		io.ReadFull(pr, buf)
		pr.Close()
	}()
	r := run(t, context.Background(), goGuestPath(t), Config{Args: []string{"guest", "yes"}, Stdout: pw})
	var ee *wasm.ExitError
	if !errors.As(r.err, &ee) || ee.Code != 141 {
		t.Fatalf("err = %v, want exit status 141", r.err)
	}
}

func TestGuestDevStdout(t *testing.T) {
	r := run(t, context.Background(), goGuestPath(t), Config{Args: []string{"guest", "devstdout"}})
	if r.err != nil || r.stdout != "via /dev/stdout\nstill open\n" {
		t.Fatalf("err %v stdout %q", r.err, r.stdout)
	}
}

func TestGuestStdoutPipeCancel(t *testing.T) {
	// A write blocked on a full pipe nobody reads ends when ctx is done.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	r := run(t, ctx, goGuestPath(t), Config{Args: []string{"guest", "yes"}, Stdout: pw})
	if !errors.Is(r.err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", r.err)
	}
}

func TestGuestFIFO(t *testing.T) {
	// Go's os package makes every file it opens nonblocking and waits for
	// EAGAIN in poll_oneoff; a FIFO must block in fd_read instead of
	// spinning through poll_oneoff.
	fsys := guestFS(t)
	if err := fsys.Mkfifo(vfs.RootIno, "/tmp/fifo", 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := fsys.Open(vfs.RootIno, "/tmp/fifo", vfs.OWrite, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The FIFO's buffer lives while it is open: keep the writer open until
	// the guest has echoed the first chunk.
	out := &signalWriter{first: make(chan struct{})}
	go func() {
		defer w.Close()
		for i := range 5 {
			fmt.Fprintf(w, "chunk %d\n", i)
			if i == 0 {
				<-out.first
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	polls := calls("poll_oneoff")
	r := run(t, context.Background(), goGuestPath(t), Config{Args: []string{"guest", "catfile", "/tmp/fifo"}, FS: fsys, Stdout: out})
	if r.err != nil {
		t.Fatalf("%v\n%s", r.err, r.stdout)
	}
	if want := "chunk 0\nchunk 1\nchunk 2\nchunk 3\nchunk 4\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	if n := calls("poll_oneoff") - polls; n > 5 {
		t.Errorf("%d poll_oneoff calls: the guest spun", n)
	}
}

// signalWriter is a buffer that closes first on the first write.
type signalWriter struct {
	bytes.Buffer
	first chan struct{}
}

func (s *signalWriter) Write(p []byte) (int, error) {
	if s.Len() == 0 {
		close(s.first)
	}
	return s.Buffer.Write(p)
}

func BenchmarkGuestCat(b *testing.B) {
	// Throughput of a Go guest copying stdin to stdout (io.Copy, 32 KiB
	// reads) through fd_read and fd_write.
	input := bytes.Repeat([]byte("0123456789abcdef"), 1<<20) // 16 MiB
	path := goGuestPath(b)
	compiled(b, path)
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		r := run(b, context.Background(), path, Config{Args: []string{"guest", "cat"}, Stdin: bytes.NewReader(input), Stdout: io.Discard})
		if r.err != nil {
			b.Fatal(r.err)
		}
	}
}
