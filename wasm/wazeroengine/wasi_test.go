package wazeroengine

import (
	"bytes"
	"context"
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm"
)

// This file holds the little WASI preview1 host that Go's hello world needs,
// just enough to run it under the engine in tests and benchmarks.

const (
	errnoSuccess = 0
	errnoBadf    = 8
	errnoInval   = 28
)

type testProcKey struct{}

// testProc is the per-process state of the test WASI host, found through
// the ctx of Call.
type testProc struct {
	args   []string
	stdout bytes.Buffer
	stderr bytes.Buffer
}

func withTestProc(ctx context.Context, p *testProc) context.Context {
	return context.WithValue(ctx, testProcKey{}, p)
}

func procOf(ctx context.Context) *testProc {
	return ctx.Value(testProcKey{}).(*testProc)
}

func u32(stack []uint64, i int) uint32 { return uint32(stack[i]) }

func testWASI() wasm.HostModule {
	i32 := wasm.I32
	i64 := wasm.I64
	fn := func(name string, params []wasm.ValueType, results []wasm.ValueType, f wasm.HostFn) wasm.HostFunc {
		return wasm.HostFunc{Name: name, Params: params, Results: results, Fn: f}
	}
	p := func(ts ...wasm.ValueType) []wasm.ValueType { return ts }
	errno := p(i32)
	return wasm.HostModule{Name: "wasi_snapshot_preview1", Funcs: []wasm.HostFunc{
		fn("args_sizes_get", p(i32, i32), errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			args := procOf(ctx).args
			size := 0
			for _, a := range args {
				size += len(a) + 1
			}
			mem.WriteUint32Le(u32(s, 0), uint32(len(args)))
			mem.WriteUint32Le(u32(s, 1), uint32(size))
			s[0] = errnoSuccess
		}),
		fn("args_get", p(i32, i32), errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			argv, buf := u32(s, 0), u32(s, 1)
			for i, a := range procOf(ctx).args {
				mem.WriteUint32Le(argv+uint32(4*i), buf)
				mem.Write(buf, append([]byte(a), 0))
				buf += uint32(len(a) + 1)
			}
			s[0] = errnoSuccess
		}),
		fn("environ_sizes_get", p(i32, i32), errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			mem.WriteUint32Le(u32(s, 0), 0)
			mem.WriteUint32Le(u32(s, 1), 0)
			s[0] = errnoSuccess
		}),
		fn("environ_get", p(i32, i32), errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			s[0] = errnoSuccess
		}),
		fn("clock_time_get", p(i32, i64, i32), errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			mem.WriteUint64Le(u32(s, 2), uint64(time.Now().UnixNano()))
			s[0] = errnoSuccess
		}),
		fn("random_get", p(i32, i32), errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			b, ok := mem.Read(u32(s, 0), u32(s, 1))
			if !ok {
				s[0] = errnoInval
				return
			}
			rand.Read(b)
			s[0] = errnoSuccess
		}),
		fn("fd_write", p(i32, i32, i32, i32), errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			var w *bytes.Buffer
			switch u32(s, 0) {
			case 1:
				w = &procOf(ctx).stdout
			case 2:
				w = &procOf(ctx).stderr
			default:
				s[0] = errnoBadf
				return
			}
			iovs, n := u32(s, 1), u32(s, 2)
			total := 0
			for i := range n {
				ptr, _ := mem.ReadUint32Le(iovs + 8*i)
				l, _ := mem.ReadUint32Le(iovs + 8*i + 4)
				b, ok := mem.Read(ptr, l)
				if !ok {
					s[0] = errnoInval
					return
				}
				w.Write(b)
				total += len(b)
			}
			mem.WriteUint32Le(u32(s, 3), uint32(total))
			s[0] = errnoSuccess
		}),
		fn("poll_oneoff", p(i32, i32, i32, i32), errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			in, out, n := u32(s, 0), u32(s, 1), u32(s, 2)
			var sleep uint64
			for i := range n {
				sub := in + 48*i
				userdata, _ := mem.ReadUint64Le(sub)
				tag, _ := mem.Read(sub+8, 1)
				if tag[0] == 0 { // clock: relative timeout
					if t, _ := mem.ReadUint64Le(sub + 24); sleep == 0 || t < sleep {
						sleep = t
					}
				}
				ev := out + 32*i
				mem.Write(ev, make([]byte, 32))
				mem.WriteUint64Le(ev, userdata)
				mem.Write(ev+10, tag[:1])
			}
			time.Sleep(time.Duration(min(sleep, uint64(10*time.Millisecond))))
			mem.WriteUint32Le(u32(s, 3), n)
			s[0] = errnoSuccess
		}),
		fn("sched_yield", nil, errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			s[0] = errnoSuccess
		}),
		fn("proc_exit", p(i32), nil, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			panic(&wasm.ExitError{Code: u32(s, 0)})
		}),
		fn("fd_close", p(i32), errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			s[0] = errnoBadf
		}),
		fn("fd_fdstat_get", p(i32, i32), errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			if u32(s, 0) > 2 {
				s[0] = errnoBadf
				return
			}
			st := make([]byte, 24)
			st[0] = 2 // character device
			for i := 8; i < 24; i++ {
				st[i] = 0xff // all rights
			}
			mem.Write(u32(s, 1), st)
			s[0] = errnoSuccess
		}),
		fn("fd_fdstat_set_flags", p(i32, i32), errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			s[0] = errnoSuccess
		}),
		fn("fd_prestat_get", p(i32, i32), errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			s[0] = errnoBadf
		}),
		fn("fd_prestat_dir_name", p(i32, i32, i32), errno, func(ctx context.Context, mem wasm.Memory, s []uint64) {
			s[0] = errnoBadf
		}),
	}}
}

var hello struct {
	once sync.Once
	bin  []byte
	err  error
}

// helloWasm builds Go's hello world for wasip1, cached under the user cache
// directory so that it is built once per Go toolchain.
func helloWasm(tb testing.TB) []byte {
	hello.once.Do(func() {
		hello.bin, hello.err = buildHello()
	})
	if hello.err != nil {
		tb.Skipf("cannot build the Go hello world for wasip1: %v", hello.err)
	}
	return hello.bin
}

func buildHello() ([]byte, error) {
	goBin := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		goBin = "go"
	}
	ver, err := exec.Command(goBin, "env", "GOVERSION").Output()
	if err != nil {
		return nil, err
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "wasmsand-test", "hello-"+string(bytes.TrimSpace(ver)))
	out := filepath.Join(dir, "hello.wasm")
	if bin, err := os.ReadFile(out); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	src := "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello, world\") }\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n\ngo 1.21\n"), 0o644); err != nil {
		return nil, err
	}
	tmp := out + ".tmp"
	cmd := exec.Command(goBin, "build", "-o", tmp, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "GOFLAGS=-buildvcs=false", "GOWORK=off")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, &buildError{err: err, out: string(msg)}
	}
	if err := os.Rename(tmp, out); err != nil {
		return nil, err
	}
	return os.ReadFile(out)
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }
