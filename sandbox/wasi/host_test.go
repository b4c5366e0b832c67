package wasi

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/tetratelabs/wazero"
	wasip1 "github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
)

// sliceMemory is a wasm.Memory over a byte slice, for calling host
// functions directly.
type sliceMemory struct{ b []byte }

func (m *sliceMemory) ok(off uint32, n uint64) bool { return uint64(off)+n <= uint64(len(m.b)) }

func (m *sliceMemory) Read(off, n uint32) ([]byte, bool) {
	if !m.ok(off, uint64(n)) {
		return nil, false
	}
	return m.b[off : off+n : off+n], true
}

func (m *sliceMemory) Write(off uint32, b []byte) bool {
	if !m.ok(off, uint64(len(b))) {
		return false
	}
	copy(m.b[off:], b)
	return true
}

func (m *sliceMemory) ReadUint32Le(off uint32) (uint32, bool) {
	if !m.ok(off, 4) {
		return 0, false
	}
	return binary.LittleEndian.Uint32(m.b[off:]), true
}

func (m *sliceMemory) WriteUint32Le(off, v uint32) bool {
	if !m.ok(off, 4) {
		return false
	}
	binary.LittleEndian.PutUint32(m.b[off:], v)
	return true
}

func (m *sliceMemory) ReadUint64Le(off uint32) (uint64, bool) {
	if !m.ok(off, 8) {
		return 0, false
	}
	return binary.LittleEndian.Uint64(m.b[off:]), true
}

func (m *sliceMemory) WriteUint64Le(off uint32, v uint64) bool {
	if !m.ok(off, 8) {
		return false
	}
	binary.LittleEndian.PutUint64(m.b[off:], v)
	return true
}

func (m *sliceMemory) Size() uint32 { return uint32(len(m.b)) }

const memSize = 1 << 16

// Addresses used by the tests.
const (
	aPath   = 0x100  // path strings
	aPath2  = 0x400  // second path string
	aResult = 0x800  // results
	aIovecs = 0x900  // iovec arrays
	aData   = 0x1000 // data buffers
	aBig    = 0x8000 // large buffers
	oob     = memSize - 2
)

// host is a Process with a memory and a way to call functions by name.
type host struct {
	t     testing.TB
	p     *Process
	fs    *vfs.FS
	mem   *sliceMemory
	ctx   context.Context
	funcs map[string]wasm.HostFunc
}

func newHost(t testing.TB, cfg Config) *host {
	t.Helper()
	if cfg.FS == nil {
		cfg.FS = guestFS(t)
	}
	p, err := NewProcess(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	h := &host{t: t, p: p, fs: cfg.FS, mem: &sliceMemory{make([]byte, memSize)}, funcs: map[string]wasm.HostFunc{}}
	h.ctx = WithProcess(context.Background(), p)
	for _, f := range HostModule().Funcs {
		h.funcs[f.Name] = f
	}
	return h
}

// call calls a host function and returns its errno.
func (h *host) call(name string, params ...uint64) errno {
	h.t.Helper()
	return h.callCtx(h.ctx, name, params...)
}

func (h *host) callCtx(ctx context.Context, name string, params ...uint64) errno {
	h.t.Helper()
	f, ok := h.funcs[name]
	if !ok {
		h.t.Fatalf("no function %s", name)
	}
	if len(params) != len(f.Params) {
		h.t.Fatalf("%s takes %d params, got %d", name, len(f.Params), len(params))
	}
	stack := make([]uint64, max(len(params), len(f.Results)))
	copy(stack, params)
	f.Fn(ctx, h.mem, stack)
	return errno(stack[0])
}

// must calls a function that must succeed.
func (h *host) must(name string, params ...uint64) {
	h.t.Helper()
	if en := h.call(name, params...); en != errnoSuccess {
		h.t.Fatalf("%s%v = errno %d", name, params, en)
	}
}

// path stores s at addr and returns (addr, len) as params.
func (h *host) path(addr uint32, s string) (uint64, uint64) {
	copy(h.mem.b[addr:], s)
	return uint64(addr), uint64(len(s))
}

func (h *host) u32(addr uint32) uint32 { return binary.LittleEndian.Uint32(h.mem.b[addr:]) }
func (h *host) u64(addr uint32) uint64 { return binary.LittleEndian.Uint64(h.mem.b[addr:]) }

// open opens path from dirfd (3 = "/") with oflags and rights and returns the fd.
func (h *host) open(dirfd uint32, path string, oflags uint16, rights uint64, fdflags uint16) (uint32, errno) {
	h.t.Helper()
	p, n := h.path(aPath, path)
	en := h.call("path_open", uint64(dirfd), uint64(lookupSymlinkFollow), p, n, uint64(oflags), rights, allRights, uint64(fdflags), aResult)
	return h.u32(aResult), en
}

func (h *host) mustOpen(path string, oflags uint16, rights uint64, fdflags uint16) uint32 {
	h.t.Helper()
	fd, en := h.open(3, path, oflags, rights, fdflags)
	if en != errnoSuccess {
		h.t.Fatalf("open %s: errno %d", path, en)
	}
	return fd
}

// iovecs lays out buffers of the given sizes at aData and their iovecs at aIovecs.
func (h *host) iovecs(sizes ...uint32) (uint64, uint64) {
	addr := uint32(aData)
	for i, n := range sizes {
		binary.LittleEndian.PutUint32(h.mem.b[aIovecs+8*i:], addr)
		binary.LittleEndian.PutUint32(h.mem.b[aIovecs+8*i+4:], n)
		addr += n
	}
	return aIovecs, uint64(len(sizes))
}

// write writes s to fd with fd_write and returns nwritten.
func (h *host) write(fd uint32, parts ...string) (uint32, errno) {
	h.t.Helper()
	sizes := make([]uint32, len(parts))
	for i, s := range parts {
		sizes[i] = uint32(len(s))
	}
	iovs, n := h.iovecs(sizes...)
	copy(h.mem.b[aData:], strings.Join(parts, ""))
	en := h.call("fd_write", uint64(fd), iovs, n, aResult)
	return h.u32(aResult), en
}

// read reads with fd_read into buffers of the given sizes.
func (h *host) read(fd uint32, sizes ...uint32) (string, errno) {
	h.t.Helper()
	iovs, n := h.iovecs(sizes...)
	en := h.call("fd_read", uint64(fd), iovs, n, aResult)
	if en != errnoSuccess {
		return "", en
	}
	return string(h.mem.b[aData : aData+h.u32(aResult)]), en
}

func TestHostModuleMatchesWazero(t *testing.T) {
	// wazero's own preview1 module is an independent statement of the 46
	// signatures.
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	mod, err := wasip1.NewBuilder(rt).Compile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for name, def := range mod.ExportedFunctions() {
		want[name] = fmt.Sprint(def.ParamTypes(), def.ResultTypes())
	}
	hm := HostModule()
	if hm.Name != ModuleName || ModuleName != wasip1.ModuleName {
		t.Errorf("module name %q", hm.Name)
	}
	if len(hm.Funcs) != 46 || len(want) != 46 {
		t.Errorf("%d functions, wazero has %d", len(hm.Funcs), len(want))
	}
	for _, f := range hm.Funcs {
		got := fmt.Sprint(valueTypes(f.Params), valueTypes(f.Results))
		if got != want[f.Name] {
			t.Errorf("%s: %s, want %s", f.Name, got, want[f.Name])
		}
		delete(want, f.Name)
	}
	for name := range want {
		t.Errorf("missing %s", name)
	}
}

func TestNoProcessPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != errNoProcess {
			t.Errorf("recovered %v", r)
		}
	}()
	HostModule().Funcs[0].Fn(context.Background(), &sliceMemory{make([]byte, 64)}, make([]uint64, 2))
}

func TestNewProcessErrors(t *testing.T) {
	fsys := guestFS(t)
	for _, cfg := range []Config{
		{},
		{FS: fsys, Cwd: "home/user"},
		{FS: fsys, Cwd: "/nope"},
		{FS: fsys, Cwd: "/etc/motd"},
	} {
		if _, err := NewProcess(cfg); err == nil {
			t.Errorf("NewProcess(%+v) succeeded", cfg)
		}
	}
}

func TestPreopens(t *testing.T) {
	prestat := func(h *host) []string {
		var names []string
		for fd := uint64(3); ; fd++ {
			en := h.call("fd_prestat_get", fd, aResult)
			if en == errnoBADF {
				return names
			}
			if en != errnoSuccess || h.mem.b[aResult] != 0 {
				t.Fatalf("fd_prestat_get(%d) = %d", fd, en)
			}
			n := h.u32(aResult + 4)
			if en := h.call("fd_prestat_dir_name", fd, aData, uint64(n)-1); n > 0 && en != errnoNAMETOOLONG {
				t.Errorf("short buffer: errno %d", en)
			}
			h.must("fd_prestat_dir_name", fd, aData, uint64(n))
			names = append(names, string(h.mem.b[aData:aData+n]))
		}
	}
	h := newHost(t, Config{Cwd: "/home/user"})
	want := []string{"/", ".", "./bin", "./dev", "./etc", "./home", "./tmp"}
	if got := prestat(h); !slices.Equal(got, want) {
		t.Errorf("preopens %q, want %q", got, want)
	}
	if got := prestat(newHost(t, Config{})); !slices.Equal(got, []string{"/"}) {
		t.Errorf("preopens with Cwd / %q", got)
	}
	if en := h.call("fd_prestat_get", 0, aResult); en != errnoBADF {
		t.Errorf("prestat of stdin: %d", en)
	}
	if en := h.call("fd_prestat_dir_name", 1, aData, 10); en != errnoBADF {
		t.Errorf("prestat_dir_name of stdout: %d", en)
	}
	if en := h.call("fd_prestat_get", 3, oob); en != errnoFAULT {
		t.Errorf("prestat to bad memory: %d", en)
	}
	if en := h.call("fd_prestat_dir_name", 3, memSize, 1); en != errnoFAULT {
		t.Errorf("prestat_dir_name to bad memory: %d", en)
	}
}

func TestArgsEnviron(t *testing.T) {
	h := newHost(t, Config{Args: []string{"prog", "a b", ""}, Env: []string{"A=1", "PWD=/x"}})
	for _, tc := range []struct {
		sizes, get string
		want       []string
	}{
		{"args_sizes_get", "args_get", []string{"prog", "a b", ""}},
		{"environ_sizes_get", "environ_get", []string{"A=1", "PWD=/x"}},
	} {
		h.must(tc.sizes, aResult, aResult+4)
		count, size := h.u32(aResult), h.u32(aResult+4)
		if int(count) != len(tc.want) || int(size) != len(strings.Join(tc.want, "\x00"))+1 {
			t.Errorf("%s = %d, %d", tc.sizes, count, size)
		}
		h.must(tc.get, aIovecs, aData)
		for i, w := range tc.want {
			ptr := h.u32(aIovecs + 4*uint32(i))
			got := h.mem.b[ptr : ptr+uint32(len(w))+1]
			if string(got) != w+"\x00" {
				t.Errorf("%s[%d] = %q, want %q", tc.get, i, got, w)
			}
		}
		if en := h.call(tc.get, oob, aData); en != errnoFAULT {
			t.Errorf("%s to bad memory: %d", tc.get, en)
		}
		if en := h.call(tc.sizes, oob, aData); en != errnoFAULT {
			t.Errorf("%s to bad memory: %d", tc.sizes, en)
		}
	}
	// Without PWD in Env, NewProcess adds it.
	h = newHost(t, Config{Env: []string{"A=1"}, Cwd: "/tmp"})
	h.must("environ_sizes_get", aResult, aResult+4)
	h.must("environ_get", aIovecs, aData)
	if got := string(h.mem.b[aData : aData+h.u32(aResult+4)]); got != "A=1\x00PWD=/tmp\x00" {
		t.Errorf("environment %q", got)
	}
	// In "/" the environment stays as given: Go defaults to "/" without PWD.
	h = newHost(t, Config{Env: []string{"A=1"}})
	h.must("environ_sizes_get", aResult, aResult+4)
	h.must("environ_get", aIovecs, aData)
	if got := string(h.mem.b[aData : aData+h.u32(aResult+4)]); got != "A=1\x00" {
		t.Errorf("environment in / %q", got)
	}
}

func TestClocksAndRandom(t *testing.T) {
	wall := time.Date(2020, 1, 2, 3, 4, 5, 6, time.UTC)
	h := newHost(t, Config{
		Now:      func() time.Time { return wall },
		Nanotime: func() int64 { return 12345 },
		Random:   strings.NewReader("0123456789"),
	})
	for _, tc := range []struct {
		id   uint64
		want uint64
	}{{0, uint64(wall.UnixNano())}, {1, 12345}, {2, 12345}, {3, 12345}} {
		h.must("clock_time_get", tc.id, 1, aResult)
		if got := h.u64(aResult); got != tc.want {
			t.Errorf("clock %d = %d, want %d", tc.id, got, tc.want)
		}
		h.must("clock_res_get", tc.id, aResult)
		if h.u64(aResult) == 0 {
			t.Errorf("clock %d resolution 0", tc.id)
		}
	}
	if en := h.call("clock_time_get", 4, 1, aResult); en != errnoINVAL {
		t.Errorf("bad clock: %d", en)
	}
	if en := h.call("clock_res_get", 9, aResult); en != errnoINVAL {
		t.Errorf("bad clock res: %d", en)
	}
	if en := h.call("clock_time_get", 0, 1, oob); en != errnoFAULT {
		t.Errorf("clock to bad memory: %d", en)
	}
	h.must("random_get", aData, 4)
	if got := string(h.mem.b[aData : aData+4]); got != "0123" {
		t.Errorf("random %q", got)
	}
	if en := h.call("random_get", aData, 100); en != errnoIO {
		t.Errorf("random past the reader's end: %d", en)
	}
	if en := h.call("random_get", oob, 100); en != errnoFAULT {
		t.Errorf("random to bad memory: %d", en)
	}
	h = newHost(t, Config{})
	copy(h.mem.b[aData:], "xxxx")
	h.must("random_get", aData, 4)
	if got := h.mem.b[aData : aData+4]; !bytes.Equal(got, make([]byte, 4)) {
		t.Errorf("nil Random gave %q", got)
	}
	// Default clocks: the FS clock and a monotonic clock that advances.
	h.must("clock_time_get", 1, 1, aResult)
	t1 := h.u64(aResult)
	time.Sleep(time.Millisecond)
	h.must("clock_time_get", 1, 1, aResult)
	if h.u64(aResult) <= t1 {
		t.Errorf("monotonic clock did not advance")
	}
	h.must("clock_time_get", 0, 1, aResult)
	if d := time.Since(time.Unix(0, int64(h.u64(aResult)))); d < 0 || d > time.Minute {
		t.Errorf("realtime off by %v", d)
	}
}

func TestProcFunctions(t *testing.T) {
	h := newHost(t, Config{})
	func() {
		defer func() {
			ee, ok := recover().(*wasm.ExitError)
			if !ok || ee.Code != 3 || ee.Reason != "" {
				t.Errorf("proc_exit panicked with %v", ee)
			}
		}()
		h.call("proc_exit", 3)
		t.Error("proc_exit returned")
	}()
	h.must("sched_yield")
	for _, tc := range []struct {
		name   string
		params []uint64
	}{
		{"proc_raise", []uint64{9}},
		{"sock_accept", []uint64{3, 0, aResult}},
		{"sock_recv", []uint64{3, aIovecs, 1, 0, aResult, aResult + 4}},
		{"sock_send", []uint64{3, aIovecs, 1, 0, aResult}},
		{"sock_shutdown", []uint64{3, 0}},
	} {
		want := errnoNOTSOCK
		if tc.name == "proc_raise" {
			want = errnoNOTSUP
		}
		if en := h.call(tc.name, tc.params...); en != want {
			t.Errorf("%s = %d, want %d", tc.name, en, want)
		}
		if tc.name != "proc_raise" {
			tc.params[0] = 99
			if en := h.call(tc.name, tc.params...); en != errnoBADF {
				t.Errorf("%s on a closed fd = %d, want EBADF", tc.name, en)
			}
		}
	}
}

// TestDropStderr checks that Config.DropStderr sees each write to fd 2,
// gathered, and that what it drops is reported written but never reaches
// Stderr, while fd 1 is left alone.
func TestDropStderr(t *testing.T) {
	var out, errs bytes.Buffer
	var seen []string
	h := newHost(t, Config{Stdout: &out, Stderr: &errs, DropStderr: func(b []byte) bool {
		seen = append(seen, string(b))
		return strings.HasPrefix(string(b), "drop")
	}})
	h.write(2, "keep ", "this")
	if n, en := h.write(2, "drop", " me"); n != 7 || en != errnoSuccess {
		t.Errorf("dropped write = %d, %d; want 7, success", n, en)
	}
	h.write(1, "drop not")
	// An engine may leave junk in the upper half of an i32 argument.
	iovs, n := h.iovecs(8)
	copy(h.mem.b[aData:], "drop too")
	if en := h.call("fd_write", 0xdead_0000_0002, iovs, n, aResult); en != errnoSuccess || h.u32(aResult) != 8 {
		t.Errorf("dropped write with junk above fd 2 = %d, %d; want 8, success", h.u32(aResult), en)
	}
	if errs.String() != "keep this" || out.String() != "drop not" {
		t.Errorf("stderr %q, stdout %q; want %q, %q", errs.String(), out.String(), "keep this", "drop not")
	}
	if want := []string{"keep this", "drop me", "drop too"}; !slices.Equal(seen, want) {
		t.Errorf("DropStderr saw %q, want %q", seen, want)
	}
}

func TestStdio(t *testing.T) {
	var out bytes.Buffer
	h := newHost(t, Config{Stdin: strings.NewReader("input data"), Stdout: &out})
	got, en := h.read(0, 5, 100)
	if en != errnoSuccess || got != "input" {
		t.Errorf("stream read %q %d (one read per call on streams)", got, en)
	}
	got, _ = h.read(0, 100)
	if got != " data" {
		t.Errorf("second read %q", got)
	}
	if got, en := h.read(0, 100); got != "" || en != errnoSuccess {
		t.Errorf("read at EOF %q %d", got, en)
	}
	if n, en := h.write(1, "hello ", "", "world"); n != 11 || en != errnoSuccess || out.String() != "hello world" {
		t.Errorf("write %d %d %q", n, en, out.String())
	}
	if n, en := h.write(2, "discarded"); n != 9 || en != errnoSuccess {
		t.Errorf("write to nil Stderr %d %d", n, en)
	}
	if _, en := h.write(0, "x"); en != errnoNOTCAPABLE {
		t.Errorf("write to stdin: %d", en)
	}
	if _, en := h.read(1, 4); en != errnoNOTCAPABLE {
		t.Errorf("read from stdout: %d", en)
	}
	if en := h.call("fd_seek", 0, 0, 0, aResult); en != errnoSPIPE {
		t.Errorf("seek on stream: %d", en)
	}
	if en := h.call("fd_tell", 1, aResult); en != errnoSPIPE {
		t.Errorf("tell on stream: %d", en)
	}
	iovs, n := h.iovecs(4)
	if en := h.call("fd_pread", 0, iovs, n, 0, aResult); en != errnoSPIPE {
		t.Errorf("pread on stream: %d", en)
	}
	if en := h.call("fd_pwrite", 1, iovs, n, 0, aResult); en != errnoSPIPE {
		t.Errorf("pwrite on stream: %d", en)
	}
	h.must("fd_fdstat_get", 1, aResult)
	if typ, base := h.mem.b[aResult], h.u64(aResult+8); typ != filetypeUnknown || base&rightFdWrite == 0 || base&rightFdRead != 0 {
		t.Errorf("stdout fdstat type %d rights %x", typ, base)
	}
	h.must("fd_filestat_get", 0, aResult)
	if nlink := h.u64(aResult + 24); nlink != 1 {
		t.Errorf("stdin filestat nlink %d", nlink)
	}
	h.must("fd_sync", 1)
	h.must("fd_datasync", 1)
	if en := h.call("fd_filestat_set_times", 1, 0, 0, uint64(fstflagMtimNow)); en != errnoNOTCAPABLE {
		t.Errorf("set_times on stdout: %d", en)
	}
	if en := h.call("fd_filestat_set_size", 1, 0); en != errnoNOTCAPABLE {
		t.Errorf("set_size on stdout: %d", en)
	}
	if en := h.call("fd_advise", 1, 0, 0, 0); en != errnoSPIPE {
		t.Errorf("advise on stdout: %d", en)
	}
	// A nil Stdin reads EOF; a failing one gives EIO.
	h = newHost(t, Config{})
	if got, en := h.read(0, 10); got != "" || en != errnoSuccess {
		t.Errorf("nil stdin: %q %d", got, en)
	}
	h = newHost(t, Config{Stdin: iotest.ErrReader(errors.New("boom"))})
	if _, en := h.read(0, 10); en != errnoIO {
		t.Errorf("failing stdin: %d", en)
	}
}

func TestBrokenPipe(t *testing.T) {
	pr, pw := io.Pipe()
	pr.Close()
	h := newHost(t, Config{Stdout: pw})
	defer func() {
		ee, ok := recover().(*wasm.ExitError)
		if !ok || ee.Code != 141 || ee.Reason != "broken pipe" {
			t.Errorf("recovered %v, want exit status 141", ee)
		}
	}()
	h.write(1, "x")
	t.Error("write to a broken pipe returned")
}

func TestBrokenPipeIgnored(t *testing.T) {
	// A guest that ignores SIGPIPE gets EPIPE from the write and goes on;
	// back at the default, the next write ends it.
	pr, pw := io.Pipe()
	pr.Close()
	h := newHost(t, Config{Stdout: pw})
	h.p.IgnoreSIGPIPE(true)
	if n, en := h.write(1, "x"); en != errnoPIPE || n != 0 {
		t.Errorf("write with SIGPIPE ignored: %d bytes, errno %d; want 0, EPIPE", n, en)
	}
	h.p.IgnoreSIGPIPE(false)
	defer func() {
		if ee, ok := recover().(*wasm.ExitError); !ok || ee.Code != 141 {
			t.Errorf("recovered %v, want exit status 141", ee)
		}
	}()
	h.write(1, "x")
	t.Error("write to a broken pipe returned with SIGPIPE at its default")
}

func TestStdioVFSFile(t *testing.T) {
	// A *vfs.File as stdio behaves as a file: seekable, typed, shared by
	// /dev/stdin.
	fsys := guestFS(t)
	in, err := fsys.Open(vfs.RootIno, "/etc/motd", vfs.ORead, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	h := newHost(t, Config{FS: fsys, Stdin: in})
	if got, _ := h.read(0, 4); got != "motd" {
		t.Errorf("read %q", got)
	}
	h.must("fd_fdstat_get", 0, aResult)
	if h.mem.b[aResult] != filetypeRegularFile {
		t.Errorf("stdin type %d", h.mem.b[aResult])
	}
	fd := h.mustOpen("dev/stdin", 0, rightFdRead, 0)
	if got, _ := h.read(fd, 100); got != " text" {
		t.Errorf("/dev/stdin continues at the shared offset: %q", got)
	}
	h.must("fd_close", uint64(fd))
	h.must("fd_seek", 0, 0, uint64(whenceSet), aResult)
	if got, _ := h.read(0, 100); got != "motd text" {
		t.Errorf("after closing the dup: %q", got)
	}
}

func TestFileIO(t *testing.T) {
	h := newHost(t, Config{Cwd: "/home/user"})
	rw := rightFdRead | rightFdWrite | rightFdSeek | rightFdTell | rightFdFilestatGet |
		rightFdFilestatSetSize | rightFdFilestatSetTimes | rightFdAllocate | rightFdAdvise |
		rightFdSync | rightFdDatasync | rightFdFdstatSetFlags
	fd := h.mustOpen("tmp/new.txt", oflagCreat, rw, 0)
	if n, en := h.write(fd, "abc", "defgh"); n != 8 || en != errnoSuccess {
		t.Fatalf("write %d %d", n, en)
	}
	h.must("fd_tell", uint64(fd), aResult)
	if h.u64(aResult) != 8 {
		t.Errorf("tell %d", h.u64(aResult))
	}
	h.must("fd_seek", uint64(fd), uint64(1), uint64(whenceSet), aResult)
	if got, _ := h.read(fd, 2, 3); got != "bcdef" {
		t.Errorf("readv %q", got)
	}
	h.must("fd_seek", uint64(fd), uint64(0xffff_ffff_ffff_fffe), uint64(whenceEnd), aResult) // -2
	if h.u64(aResult) != 6 {
		t.Errorf("seek end-2 = %d", h.u64(aResult))
	}
	if en := h.call("fd_seek", uint64(fd), 0, 3, aResult); en != errnoINVAL {
		t.Errorf("bad whence: %d", en)
	}
	if en := h.call("fd_seek", uint64(fd), uint64(0xffff_ffff_ffff_ff00), uint64(whenceSet), aResult); en != errnoINVAL {
		t.Errorf("negative offset: %d", en)
	}
	if en := h.call("fd_seek", uint64(fd), 0, 0, oob); en != errnoFAULT {
		t.Errorf("seek to bad memory: %d", en)
	}

	// pread/pwrite do not move the offset.
	iovs, n := h.iovecs(3)
	copy(h.mem.b[aData:], "XYZ")
	h.must("fd_pwrite", uint64(fd), iovs, n, 2, aResult)
	h.must("fd_pread", uint64(fd), iovs, n, 1, aResult)
	if got := string(h.mem.b[aData : aData+h.u32(aResult)]); got != "bXY" {
		t.Errorf("pread %q", got)
	}
	h.must("fd_pread", uint64(fd), iovs, n, 100, aResult)
	if h.u32(aResult) != 0 {
		t.Errorf("pread past the end read %d", h.u32(aResult))
	}
	if en := h.call("fd_pread", uint64(fd), iovs, n, 1<<63, aResult); en != errnoINVAL {
		t.Errorf("pread at negative offset: %d", en)
	}
	h.must("fd_tell", uint64(fd), aResult)
	if h.u64(aResult) != 6 {
		t.Errorf("offset moved to %d", h.u64(aResult))
	}
	if data, _ := h.fs.ReadFile("/home/user/tmp/new.txt"); data != nil {
		t.Errorf("file created in the wrong place")
	}
	data, err := h.fs.ReadFile("/tmp/new.txt")
	if err != nil || string(data) != "abXYZfgh" {
		t.Errorf("file %q %v", data, err)
	}

	// Sizes and stats.
	h.must("fd_filestat_set_size", uint64(fd), 3)
	h.must("fd_allocate", uint64(fd), 0, 10)
	h.must("fd_filestat_get", uint64(fd), aResult)
	if typ, size := h.mem.b[aResult+16], h.u64(aResult+32); typ != filetypeRegularFile || size != 10 {
		t.Errorf("filestat type %d size %d", typ, size)
	}
	if en := h.call("fd_allocate", uint64(fd), 0, 0); en != errnoINVAL {
		t.Errorf("allocate 0: %d", en)
	}
	if en := h.call("fd_filestat_set_size", uint64(fd), 1<<63); en != errnoINVAL {
		t.Errorf("negative size: %d", en)
	}
	mt := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	h.must("fd_filestat_set_times", uint64(fd), 0, uint64(mt.UnixNano()), uint64(fstflagMtim))
	h.must("fd_filestat_get", uint64(fd), aResult)
	if got := h.u64(aResult + 48); got != uint64(mt.UnixNano()) {
		t.Errorf("mtime %d", got)
	}
	if en := h.call("fd_filestat_set_times", uint64(fd), 0, 0, uint64(fstflagAtim|fstflagAtimNow)); en != errnoINVAL {
		t.Errorf("ATIM|ATIM_NOW: %d", en)
	}
	if en := h.call("fd_filestat_set_times", uint64(fd), 0, 0, 1<<4); en != errnoINVAL {
		t.Errorf("unknown fstflags: %d", en)
	}
	if en := h.call("fd_filestat_get", uint64(fd), oob); en != errnoFAULT {
		t.Errorf("filestat to bad memory: %d", en)
	}
	h.must("fd_advise", uint64(fd), 0, 0, 4)
	if en := h.call("fd_advise", uint64(fd), 0, 0, 6); en != errnoINVAL {
		t.Errorf("bad advice: %d", en)
	}
	h.must("fd_sync", uint64(fd))
	h.must("fd_datasync", uint64(fd))

	// Bad iovecs.
	if en := h.call("fd_write", uint64(fd), oob, 1, aResult); en != errnoFAULT {
		t.Errorf("iovecs out of bounds: %d", en)
	}
	binary.LittleEndian.PutUint32(h.mem.b[aIovecs:], oob)
	binary.LittleEndian.PutUint32(h.mem.b[aIovecs+4:], 100)
	if en := h.call("fd_write", uint64(fd), aIovecs, 1, aResult); en != errnoFAULT {
		t.Errorf("buffer out of bounds: %d", en)
	}
	if en := h.call("fd_read", uint64(fd), aIovecs, 1, aResult); en != errnoFAULT {
		t.Errorf("read buffer out of bounds: %d", en)
	}

	// Closing.
	h.must("fd_close", uint64(fd))
	for _, name := range []string{"fd_close", "fd_sync", "fd_datasync"} {
		if en := h.call(name, uint64(fd)); en != errnoBADF {
			t.Errorf("%s after close: %d", name, en)
		}
	}
	if _, en := h.read(fd, 1); en != errnoBADF {
		t.Errorf("read after close: %d", en)
	}
	if _, en := h.read(1<<31, 1); en != errnoBADF {
		t.Errorf("read huge fd: %d", en)
	}
}

func TestAppendAndFlags(t *testing.T) {
	h := newHost(t, Config{})
	fd := h.mustOpen("tmp/log", oflagCreat, rightFdWrite|rightFdSeek|rightFdTell|rightFdFdstatSetFlags, fdflagAppend)
	h.must("fd_fdstat_get", uint64(fd), aResult)
	if fl := binary.LittleEndian.Uint16(h.mem.b[aResult+2:]); fl != fdflagAppend {
		t.Errorf("fdflags %x", fl)
	}
	h.write(fd, "one")
	h.must("fd_seek", uint64(fd), 0, uint64(whenceSet), aResult)
	h.write(fd, "two")
	h.must("fd_fdstat_set_flags", uint64(fd), 0)
	h.must("fd_seek", uint64(fd), 0, uint64(whenceSet), aResult)
	h.write(fd, "ON")
	if data, _ := h.fs.ReadFile("/tmp/log"); string(data) != "ONetwo" {
		t.Errorf("file %q", data)
	}
	h.must("fd_fdstat_set_flags", uint64(fd), uint64(fdflagNonblock|fdflagSync))
	h.must("fd_fdstat_get", uint64(fd), aResult)
	if fl := binary.LittleEndian.Uint16(h.mem.b[aResult+2:]); fl != fdflagNonblock|fdflagSync {
		t.Errorf("fdflags %x", fl)
	}
	if en := h.call("fd_fdstat_set_flags", uint64(fd), 1<<5); en != errnoINVAL {
		t.Errorf("unknown flag: %d", en)
	}
	if en := h.call("fd_fdstat_get", uint64(fd), oob); en != errnoFAULT {
		t.Errorf("fdstat to bad memory: %d", en)
	}
}

func TestRights(t *testing.T) {
	h := newHost(t, Config{})
	fd := h.mustOpen("etc/motd", 0, rightFdRead|rightFdSeek|rightFdTell|rightFdFdstatSetFlags, 0)
	h.must("fd_fdstat_get", uint64(fd), aResult)
	base := h.u64(aResult + 8)
	if base != rightFdRead|rightFdSeek|rightFdTell|rightFdFdstatSetFlags {
		t.Errorf("rights %x", base)
	}
	if _, en := h.write(fd, "x"); en != errnoNOTCAPABLE {
		t.Errorf("write without FD_WRITE: %d", en)
	}
	if en := h.call("fd_fdstat_set_rights", uint64(fd), base|rightFdWrite, 0); en != errnoNOTCAPABLE {
		t.Errorf("growing rights: %d", en)
	}
	h.must("fd_fdstat_set_rights", uint64(fd), rightFdTell, 0)
	if _, en := h.read(fd, 4); en != errnoNOTCAPABLE {
		t.Errorf("read after dropping FD_READ: %d", en)
	}
	// fd_seek(0, CUR) needs only FD_TELL; anything else FD_SEEK.
	h.must("fd_seek", uint64(fd), 0, uint64(whenceCur), aResult)
	if en := h.call("fd_seek", uint64(fd), 1, uint64(whenceCur), aResult); en != errnoNOTCAPABLE {
		t.Errorf("seek without FD_SEEK: %d", en)
	}
	if en := h.call("fd_fdstat_set_flags", uint64(fd), 0); en != errnoNOTCAPABLE {
		t.Errorf("set_flags without the right: %d", en)
	}
	if en := h.call("fd_fdstat_set_rights", 99, 0, 0); en != errnoBADF {
		t.Errorf("set_rights bad fd: %d", en)
	}
	// A directory whose inheriting rights lack FD_WRITE opens files without it.
	dir := h.mustOpen("tmp", oflagDirectory, dirRights, 0)
	h.must("fd_fdstat_set_rights", uint64(dir), dirRights, fileRights&^rightFdWrite)
	p, n := h.path(aPath, "f")
	h.must("path_open", uint64(dir), 0, p, n, uint64(oflagCreat), fileRights, fileRights, 0, aResult)
	h.must("fd_fdstat_get", uint64(h.u32(aResult)), aResult)
	if got := h.u64(aResult + 8); got&rightFdWrite != 0 || got&rightFdRead == 0 {
		t.Errorf("inherited rights %x", got)
	}
	// Without PATH_CREATE_FILE, O_CREAT is refused.
	h.must("fd_fdstat_set_rights", uint64(dir), dirRights&^rightPathCreateFile, 0)
	if en := h.call("path_open", uint64(dir), 0, p, n, uint64(oflagCreat), fileRights, 0, 0, aResult); en != errnoNOTCAPABLE {
		t.Errorf("create without the right: %d", en)
	}
	h.must("fd_fdstat_set_rights", uint64(dir), 0, 0)
	for _, tc := range []struct {
		name   string
		params []uint64
	}{
		{"path_create_directory", []uint64{uint64(dir), p, n}},
		{"path_filestat_get", []uint64{uint64(dir), 0, p, n, aResult}},
		{"path_filestat_set_times", []uint64{uint64(dir), 0, p, n, 0, 0, 0}},
		{"path_link", []uint64{uint64(dir), 0, p, n, 3, p, n}},
		{"path_open", []uint64{uint64(dir), 0, p, n, 0, 0, 0, 0, aResult}},
		{"path_readlink", []uint64{uint64(dir), p, n, aData, 10, aResult}},
		{"path_remove_directory", []uint64{uint64(dir), p, n}},
		{"path_rename", []uint64{uint64(dir), p, n, 3, p, n}},
		{"path_symlink", []uint64{p, n, uint64(dir), p, n}},
		{"path_unlink_file", []uint64{uint64(dir), p, n}},
		{"fd_readdir", []uint64{uint64(dir), aData, 100, 0, aResult}},
		{"fd_filestat_get", []uint64{uint64(dir), aResult}},
	} {
		if en := h.call(tc.name, tc.params...); en != errnoNOTCAPABLE {
			t.Errorf("%s without rights: %d", tc.name, en)
		}
	}
}

func TestPathOpen(t *testing.T) {
	h := newHost(t, Config{Cwd: "/home/user"})
	if err := h.fs.Symlink("/etc/motd", vfs.RootIno, "/tmp/link"); err != nil {
		t.Fatal(err)
	}
	if err := h.fs.Symlink("nowhere", vfs.RootIno, "/tmp/dangling"); err != nil {
		t.Fatal(err)
	}
	rw := rightFdRead | rightFdWrite
	for _, tc := range []struct {
		name    string
		dirfd   uint32
		path    string
		lookup  uint32
		oflags  uint16
		rights  uint64
		fdflags uint16
		want    errno
	}{
		{"read", 3, "etc/motd", 1, 0, rightFdRead, 0, errnoSuccess},
		{"relative to cwd fd", 4, "f.txt", 1, 0, rightFdRead, 0, errnoSuccess},
		{"dotdot from cwd", 4, "../../etc/motd", 1, 0, rightFdRead, 0, errnoSuccess},
		{"dotdot past root", 3, "../../../etc/motd", 1, 0, rightFdRead, 0, errnoSuccess},
		{"absolute from cwd fd", 4, "/etc/motd", 1, 0, rightFdRead, 0, errnoPERM},
		{"missing", 3, "nope", 1, 0, rightFdRead, 0, errnoNOENT},
		{"empty path", 3, "", 1, 0, rightFdRead, 0, errnoNOENT},
		{"nul in path", 3, "etc\x00motd", 1, 0, rightFdRead, 0, errnoINVAL},
		{"create", 3, "tmp/c", 1, oflagCreat, rw, 0, errnoSuccess},
		{"create existing", 3, "tmp/c", 1, oflagCreat, rw, 0, errnoSuccess},
		{"excl existing", 3, "tmp/c", 1, oflagCreat | oflagExcl, rw, 0, errnoEXIST},
		{"excl dangling symlink", 3, "tmp/dangling", 0, oflagCreat | oflagExcl, rw, 0, errnoEXIST},
		{"directory on file", 3, "etc/motd", 1, oflagDirectory, rightFdRead, 0, errnoNOTDIR},
		{"directory", 3, "etc", 1, oflagDirectory, rightFdReaddir, 0, errnoSuccess},
		{"write a directory", 3, "etc", 1, 0, rw, 0, errnoISDIR},
		{"trailing slash on file", 3, "etc/motd/", 1, 0, rightFdRead, 0, errnoNOTDIR},
		{"through file", 3, "etc/motd/x", 1, 0, rightFdRead, 0, errnoNOTDIR},
		{"follow symlink", 3, "tmp/link", 1, 0, rightFdRead, 0, errnoSuccess},
		{"nofollow symlink", 3, "tmp/link", 0, 0, rightFdRead, 0, errnoLOOP},
		{"dirfd not a dir", 0, "x", 1, 0, rightFdRead, 0, errnoNOTDIR},
		{"bad dirfd", 77, "x", 1, 0, rightFdRead, 0, errnoBADF},
		{"bad oflags", 3, "etc/motd", 1, 1 << 4, rightFdRead, 0, errnoINVAL},
		{"bad fdflags", 3, "etc/motd", 1, 0, rightFdRead, 1 << 6, errnoINVAL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, n := h.path(aPath, tc.path)
			en := h.call("path_open", uint64(tc.dirfd), uint64(tc.lookup), p, n, uint64(tc.oflags), tc.rights, allRights, uint64(tc.fdflags), aResult)
			if en != tc.want {
				t.Fatalf("errno %d, want %d", en, tc.want)
			}
			if en == errnoSuccess {
				h.must("fd_close", uint64(h.u32(aResult)))
			}
		})
	}
	p, n := h.path(aPath, "etc/motd")
	if en := h.call("path_open", 3, 1, p, n, 0, rightFdRead, 0, 0, oob); en != errnoFAULT {
		t.Errorf("result to bad memory: %d", en)
	}
	if en := h.call("path_open", 3, 1, oob, 10, 0, rightFdRead, 0, 0, aResult); en != errnoFAULT {
		t.Errorf("path in bad memory: %d", en)
	}

	// TRUNC empties an existing file; lowest free fds are reused.
	if err := h.fs.WriteFile("/tmp/t", []byte("content"), 0o644); err != nil {
		t.Fatal(err)
	}
	fd := h.mustOpen("tmp/t", oflagTrunc, rw, 0)
	if data, _ := h.fs.ReadFile("/tmp/t"); len(data) != 0 {
		t.Errorf("TRUNC left %q", data)
	}
	h.must("fd_close", uint64(fd))
	if fd2 := h.mustOpen("tmp/t", 0, rightFdRead, 0); fd2 != fd {
		t.Errorf("fd %d not reused (got %d)", fd, fd2)
	}
	// Permission bits are enforced.
	if err := h.fs.Chmod(vfs.RootIno, "/tmp/t", 0o200, false); err != nil {
		t.Fatal(err)
	}
	if _, en := h.open(3, "tmp/t", 0, rightFdRead, 0); en != errnoACCES {
		t.Errorf("reading a write-only file: %d", en)
	}
}

func TestDevices(t *testing.T) {
	var out bytes.Buffer
	h := newHost(t, Config{Stdout: &out, Stdin: strings.NewReader("in")})
	fd := h.mustOpen("dev/stdout", 0, rightFdWrite, 0)
	h.write(fd, "via dup")
	h.must("fd_close", uint64(fd))
	h.write(1, "+fd1")
	if out.String() != "via dup+fd1" {
		t.Errorf("stdout %q", out.String())
	}
	fd = h.mustOpen("dev/stdin", 0, rightFdRead, 0)
	if got, _ := h.read(fd, 10); got != "in" {
		t.Errorf("/dev/stdin read %q", got)
	}
	fd = h.mustOpen("dev/null", 0, rightFdRead|rightFdWrite, 0)
	if n, en := h.write(fd, "gone"); n != 4 || en != errnoSuccess {
		t.Errorf("/dev/null write %d %d", n, en)
	}
	h.must("fd_fdstat_get", uint64(fd), aResult)
	if h.mem.b[aResult] != filetypeCharacterDevice {
		t.Errorf("/dev/null type %d", h.mem.b[aResult])
	}
	h.must("fd_close", 2)
	if _, en := h.open(3, "dev/stderr", 0, rightFdWrite, 0); en != errnoNOENT {
		t.Errorf("/dev/stderr with fd 2 closed: %d", en)
	}
}

func TestPathOps(t *testing.T) {
	h := newHost(t, Config{Cwd: "/home/user"})
	const cwd = 4
	p, n := h.path(aPath, "d")
	h.must("path_create_directory", cwd, p, n)
	if en := h.call("path_create_directory", cwd, p, n); en != errnoEXIST {
		t.Errorf("mkdir existing: %d", en)
	}
	h.must("path_filestat_get", cwd, 0, p, n, aResult)
	if h.mem.b[aResult+16] != filetypeDirectory {
		t.Errorf("d type %d", h.mem.b[aResult+16])
	}
	if _, err := h.fs.Stat(vfs.RootIno, "/home/user/d", false); err != nil {
		t.Errorf("mkdir not relative to cwd: %v", err)
	}

	// Symlink, readlink, follow and nofollow stats.
	t1, t1n := h.path(aPath2, "../f.txt")
	l, ln := h.path(aPath, "d/link")
	h.must("path_symlink", t1, t1n, cwd, l, ln)
	if en := h.call("path_symlink", t1, t1n, cwd, l, ln); en != errnoEXIST {
		t.Errorf("symlink existing: %d", en)
	}
	h.must("path_readlink", cwd, l, ln, aData, 100, aResult)
	if got := string(h.mem.b[aData : aData+h.u32(aResult)]); got != "../f.txt" {
		t.Errorf("readlink %q", got)
	}
	h.must("path_readlink", cwd, l, ln, aData, 3, aResult)
	if h.u32(aResult) != 3 {
		t.Errorf("truncated readlink used %d", h.u32(aResult))
	}
	f, fn := h.path(aPath2, "f.txt")
	if en := h.call("path_readlink", cwd, f, fn, aData, 100, aResult); en != errnoINVAL {
		t.Errorf("readlink of a file: %d", en)
	}
	h.must("path_filestat_get", cwd, 0, l, ln, aResult)
	if h.mem.b[aResult+16] != filetypeSymbolicLink {
		t.Errorf("nofollow type %d", h.mem.b[aResult+16])
	}
	h.must("path_filestat_get", cwd, uint64(lookupSymlinkFollow), l, ln, aResult)
	if typ, size := h.mem.b[aResult+16], h.u64(aResult+32); typ != filetypeRegularFile || size != 9 {
		t.Errorf("follow type %d size %d", typ, size)
	}

	// Times by path.
	mt := time.Date(2005, 5, 5, 5, 5, 5, 0, time.UTC)
	h.must("path_filestat_set_times", cwd, uint64(lookupSymlinkFollow), l, ln, 0, uint64(mt.UnixNano()), uint64(fstflagMtim|fstflagAtimNow))
	st, _ := h.fs.Stat(vfs.RootIno, "/home/user/f.txt", false)
	if !st.Mtime.Equal(mt) {
		t.Errorf("mtime through link %v", st.Mtime)
	}
	if en := h.call("path_filestat_set_times", cwd, 0, l, ln, 0, 0, uint64(fstflagMtim|fstflagMtimNow)); en != errnoINVAL {
		t.Errorf("MTIM|MTIM_NOW: %d", en)
	}

	// Hard links, with and without following a final symlink.
	hl, hln := h.path(aPath2, "d/hard")
	h.must("path_link", cwd, uint64(lookupSymlinkFollow), l, ln, cwd, hl, hln)
	st, _ = h.fs.Stat(vfs.RootIno, "/home/user/d/hard", false)
	if st.Type != vfs.TypeRegular || st.Nlink != 2 {
		t.Errorf("link through symlink: %+v", st)
	}
	hl, hln = h.path(aPath2, "d/hardlink")
	h.must("path_link", cwd, 0, l, ln, cwd, hl, hln)
	if st, _ = h.fs.Stat(vfs.RootIno, "/home/user/d/hardlink", false); st.Type != vfs.TypeSymlink {
		t.Errorf("link of the symlink itself: %v", st.Type)
	}
	if en := h.call("path_link", cwd, 0, p, n, cwd, hl, hln); en != errnoEXIST && en != errnoPERM {
		t.Errorf("link a directory onto an existing name: %d", en)
	}

	// Rename across directory fds.
	src, srcn := h.path(aPath, "d/hard")
	dst, dstn := h.path(aPath2, "tmp/moved")
	h.must("path_rename", cwd, src, srcn, 3, dst, dstn)
	if data, err := h.fs.ReadFile("/tmp/moved"); err != nil || string(data) != "user file" {
		t.Errorf("renamed file %q %v", data, err)
	}
	if en := h.call("path_rename", cwd, src, srcn, 3, dst, dstn); en != errnoNOENT {
		t.Errorf("rename missing: %d", en)
	}

	// Removal.
	if en := h.call("path_remove_directory", cwd, p, n); en != errnoNOTEMPTY {
		t.Errorf("rmdir non-empty: %d", en)
	}
	if en := h.call("path_unlink_file", cwd, p, n); en != errnoISDIR {
		t.Errorf("unlink a directory: %d", en)
	}
	for _, name := range []string{"d/link", "d/hardlink"} {
		a, an := h.path(aPath, name)
		h.must("path_unlink_file", cwd, a, an)
	}
	a, an := h.path(aPath2, "f.txt")
	if en := h.call("path_remove_directory", cwd, a, an); en != errnoNOTDIR {
		t.Errorf("rmdir a file: %d", en)
	}
	p, n = h.path(aPath, "d")
	h.must("path_remove_directory", cwd, p, n)
	if en := h.call("path_remove_directory", cwd, p, n); en != errnoNOENT {
		t.Errorf("rmdir missing: %d", en)
	}
	if en := h.call("path_filestat_get", cwd, 0, p, n, oob); en != errnoNOENT && en != errnoFAULT {
		t.Errorf("filestat: %d", en)
	}
	if en := h.call("path_filestat_get", cwd, 0, a, an, oob); en != errnoFAULT {
		t.Errorf("filestat to bad memory: %d", en)
	}
}

func TestReaddir(t *testing.T) {
	h := newHost(t, Config{})
	for _, name := range []string{"b", "a", "ccc"} {
		if err := h.fs.WriteFile("/tmp/"+name, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tmpIno, _ := h.fs.Lookup(vfs.RootIno, "/tmp", false)
	fd := h.mustOpen("tmp", oflagDirectory, rightFdReaddir|rightFdSeek, 0)

	type ent struct {
		next uint64
		ino  uint64
		name string
		typ  uint8
	}
	parse := func(b []byte) (ents []ent, partial int) {
		for len(b) >= sizeDirent {
			nl := int(binary.LittleEndian.Uint32(b[16:]))
			if len(b) < sizeDirent+nl {
				return ents, len(b)
			}
			ents = append(ents, ent{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:]), string(b[sizeDirent : sizeDirent+nl]), b[20]})
			b = b[sizeDirent+nl:]
		}
		return ents, len(b)
	}
	h.must("fd_readdir", uint64(fd), aData, 4096, 0, aResult)
	used := h.u32(aResult)
	ents, partial := parse(h.mem.b[aData : aData+used])
	want := []ent{{1, uint64(tmpIno), ".", 3}, {2, 1, "..", 3}}
	for i, name := range []string{"a", "b", "ccc"} {
		ino, _ := h.fs.Lookup(vfs.RootIno, "/tmp/"+name, false)
		want = append(want, ent{uint64(i + 3), uint64(ino), name, 4})
	}
	if !slices.Equal(ents, want) || partial != 0 || used != 5*sizeDirent+1+2+1+1+3 {
		t.Errorf("entries %+v (partial %d, used %d), want %+v", ents, partial, used, want)
	}

	// A buffer that ends inside an entry is filled completely; the guest
	// resumes from the last whole entry's cookie.
	h.must("fd_readdir", uint64(fd), aData, 2*sizeDirent+3+10, 0, aResult)
	if used := h.u32(aResult); used != 2*sizeDirent+3+10 {
		t.Errorf("partial buffer used %d", used)
	}
	ents, partial = parse(h.mem.b[aData : aData+h.u32(aResult)])
	if len(ents) != 2 || partial != 10 {
		t.Errorf("partial read: %d entries, %d partial bytes", len(ents), partial)
	}
	// Cookies are stable: resume at cookie 3 (after "a").
	h.must("fd_readdir", uint64(fd), aData, 4096, 3, aResult)
	ents, _ = parse(h.mem.b[aData : aData+h.u32(aResult)])
	if len(ents) != 2 || ents[0].name != "b" || ents[1].name != "ccc" {
		t.Errorf("from cookie 3: %+v", ents)
	}
	h.must("fd_readdir", uint64(fd), aData, 4096, 99, aResult)
	if h.u32(aResult) != 0 {
		t.Errorf("past the end used %d", h.u32(aResult))
	}
	h.must("fd_readdir", uint64(fd), aData, 0, 0, aResult)
	if h.u32(aResult) != 0 {
		t.Errorf("empty buffer used %d", h.u32(aResult))
	}
	// Cookie 0 takes a fresh listing.
	if err := h.fs.WriteFile("/tmp/0", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h.must("fd_readdir", uint64(fd), aData, 4096, 0, aResult)
	ents, _ = parse(h.mem.b[aData : aData+h.u32(aResult)])
	if len(ents) != 6 || ents[2].name != "0" {
		t.Errorf("after adding a file: %+v", ents)
	}
	// A directory has neither FD_SEEK nor FD_TELL: guests rewind it with
	// cookie 0, as above.
	for _, whence := range []uint64{uint64(whenceSet), uint64(whenceCur), uint64(whenceEnd)} {
		if en := h.call("fd_seek", uint64(fd), 0, whence, aResult); en != errnoNOTCAPABLE {
			t.Errorf("seek a directory (whence %d): %d", whence, en)
		}
	}
	if en := h.call("fd_readdir", uint64(fd), oob, 100, 0, aResult); en != errnoFAULT {
		t.Errorf("readdir to bad memory: %d", en)
	}
	if en := h.call("fd_readdir", 0, aData, 100, 0, aResult); en != errnoNOTDIR {
		t.Errorf("readdir of stdin: %d", en)
	}
	if _, en := h.read(fd, 10); en != errnoNOTCAPABLE && en != errnoISDIR {
		t.Errorf("read a directory: %d", en)
	}
}

// TestReaddirChangesBetweenCalls checks that a guest reading a directory
// in several fd_readdir calls while it changes resumes its cookies in the
// listing it started (the VFS keeps a directory's sorted listing and must
// not change it under a reader), and that cookie 0 then lists anew, in
// this and in a second descriptor of the same directory.
func TestReaddirChangesBetweenCalls(t *testing.T) {
	h := newHost(t, Config{})
	for _, name := range []string{"a", "b", "c", "d"} {
		if err := h.fs.WriteFile("/tmp/"+name, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names := func(fd uint32, cookie uint64, size uint32) []string {
		h.must("fd_readdir", uint64(fd), aData, uint64(size), cookie, aResult)
		b := h.mem.b[aData : aData+h.u32(aResult)]
		var out []string
		for len(b) >= sizeDirent {
			nl := int(binary.LittleEndian.Uint32(b[16:]))
			if len(b) < sizeDirent+nl {
				break
			}
			out = append(out, string(b[sizeDirent:sizeDirent+nl]))
			b = b[sizeDirent+nl:]
		}
		return out
	}
	fd := h.mustOpen("tmp", oflagDirectory, rightFdReaddir, 0)
	other := h.mustOpen("tmp", oflagDirectory, rightFdReaddir, 0)
	if got := strings.Join(names(other, 0, 4096), " "); got != ". .. a b c d" {
		t.Fatalf("first listing: %s", got)
	}
	// ".", "..", "a" and "b" (the names are one byte), then changes.
	if got := strings.Join(names(fd, 0, 4*(sizeDirent+2)), " "); got != ". .. a b" {
		t.Fatalf("first part: %s", got)
	}
	if err := h.fs.Unlink(vfs.RootIno, "/tmp/c"); err != nil {
		t.Fatal(err)
	}
	if err := h.fs.Rename(vfs.RootIno, "/tmp/a", vfs.RootIno, "/tmp/e"); err != nil {
		t.Fatal(err)
	}
	if err := h.fs.WriteFile("/tmp/0", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(fd, 4, 4096), " "); got != "c d" {
		t.Errorf("resumed after changes: %s, want the rest of the listing it started, c d", got)
	}
	for _, d := range []uint32{fd, other} {
		if got := strings.Join(names(d, 0, 4096), " "); got != ". .. 0 b d e" {
			t.Errorf("cookie 0 after changes (fd %d): %s", d, got)
		}
	}
	// A change to the file inside leaves the listing as it is.
	if err := h.fs.WriteFile("/tmp/b", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(fd, 0, 4096), " "); got != ". .. 0 b d e" {
		t.Errorf("after writing a file: %s", got)
	}
}

func TestRenumber(t *testing.T) {
	var out bytes.Buffer
	h := newHost(t, Config{Stdout: &out})
	fd := h.mustOpen("tmp/x", oflagCreat, rightFdWrite, 0)
	h.must("fd_renumber", uint64(fd), 1)
	h.write(1, "to file")
	if data, _ := h.fs.ReadFile("/tmp/x"); string(data) != "to file" || out.Len() != 0 {
		t.Errorf("file %q stdout %q", data, out.String())
	}
	if en := h.call("fd_close", uint64(fd)); en != errnoBADF {
		t.Errorf("old fd still open: %d", en)
	}
	if en := h.call("fd_renumber", 1, 50); en != errnoBADF {
		t.Errorf("renumber onto a closed fd: %d", en)
	}
	if en := h.call("fd_renumber", 50, 1); en != errnoBADF {
		t.Errorf("renumber a closed fd: %d", en)
	}
	h.must("fd_renumber", 1, 1)
}

func TestPollOneoff(t *testing.T) {
	h := newHost(t, Config{Stdin: strings.NewReader("x")})
	sub := func(i int, userdata uint64, tag uint8, fill func(b []byte)) {
		b := h.mem.b[aData+i*sizeSubscription : aData+(i+1)*sizeSubscription]
		clear(b)
		binary.LittleEndian.PutUint64(b, userdata)
		b[8] = tag
		fill(b)
	}
	clockSub := func(i int, userdata uint64, id uint32, timeout uint64, flags uint16) {
		sub(i, userdata, eventtypeClock, func(b []byte) {
			binary.LittleEndian.PutUint32(b[16:], id)
			binary.LittleEndian.PutUint64(b[24:], timeout)
			binary.LittleEndian.PutUint16(b[40:], flags)
		})
	}
	fdSub := func(i int, userdata uint64, tag uint8, fd uint32) {
		sub(i, userdata, tag, func(b []byte) { binary.LittleEndian.PutUint32(b[16:], fd) })
	}
	type event struct {
		userdata uint64
		errno    uint16
		typ      uint8
	}
	events := func() []event {
		var evs []event
		for i := range h.u32(aResult) {
			b := h.mem.b[aBig+i*sizeEvent:]
			evs = append(evs, event{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint16(b[8:]), b[10]})
		}
		return evs
	}

	// Relative clocks: sleeps for the earliest, reports every clock due by then.
	clockSub(0, 10, clockMonotonic, uint64(40*time.Millisecond), 0)
	clockSub(1, 11, clockMonotonic, uint64(20*time.Millisecond), 0)
	clockSub(2, 12, clockRealtime, uint64(20*time.Millisecond), 0)
	start := time.Now()
	h.must("poll_oneoff", aData, aBig, 3, aResult)
	if d := time.Since(start); d < 20*time.Millisecond || d > 35*time.Millisecond+time.Second {
		t.Errorf("slept %v", d)
	}
	if got := events(); !slices.Equal(got, []event{{11, 0, 0}, {12, 0, 0}}) {
		t.Errorf("events %+v", got)
	}

	// fd events are ready at once and win over clocks; bad fds report EBADF.
	clockSub(0, 1, clockMonotonic, uint64(time.Hour), 0)
	fdSub(1, 2, eventtypeFdRead, 0)
	fdSub(2, 3, eventtypeFdWrite, 1)
	fdSub(3, 4, eventtypeFdRead, 42)
	fdSub(4, 5, eventtypeFdWrite, 0)
	start = time.Now()
	h.must("poll_oneoff", aData, aBig, 5, aResult)
	if d := time.Since(start); d > time.Second {
		t.Errorf("fd poll took %v", d)
	}
	if got := events(); !slices.Equal(got, []event{{2, 0, 1}, {3, 0, 2}, {4, uint16(errnoBADF), 1}, {5, uint16(errnoBADF), 2}}) {
		t.Errorf("events %+v", got)
	}

	// Absolute clocks in the past fire at once; bad clock ids report EINVAL.
	clockSub(0, 7, clockRealtime, 1, subclockAbstime)
	clockSub(1, 8, 99, 1, 0)
	h.must("poll_oneoff", aData, aBig, 2, aResult)
	if got := events(); !slices.Equal(got, []event{{7, 0, 0}, {8, uint16(errnoINVAL), 0}}) {
		t.Errorf("events %+v", got)
	}
	// An absolute monotonic deadline 20ms ahead.
	h.must("clock_time_get", uint64(clockMonotonic), 1, aResult)
	clockSub(0, 9, clockMonotonic, h.u64(aResult)+uint64(20*time.Millisecond), subclockAbstime)
	start = time.Now()
	h.must("poll_oneoff", aData, aBig, 1, aResult)
	if d := time.Since(start); d < 15*time.Millisecond {
		t.Errorf("absolute sleep %v", d)
	}

	// A regular file reports the bytes left to read.
	fd := h.mustOpen("etc/motd", 0, rightFdRead|rightPollFdReadwrite, 0)
	fdSub(0, 1, eventtypeFdRead, fd)
	h.must("poll_oneoff", aData, aBig, 1, aResult)
	if nbytes := h.u64(aBig + 16); nbytes != 9 {
		t.Errorf("nbytes %d", nbytes)
	}

	if en := h.call("poll_oneoff", aData, aBig, 0, aResult); en != errnoINVAL {
		t.Errorf("no subscriptions: %d", en)
	}
	sub(0, 1, 7, func([]byte) {})
	if en := h.call("poll_oneoff", aData, aBig, 1, aResult); en != errnoINVAL {
		t.Errorf("bad tag: %d", en)
	}
	if en := h.call("poll_oneoff", oob, aBig, 1, aResult); en != errnoFAULT {
		t.Errorf("subscriptions out of bounds: %d", en)
	}

	// A sleep ends when ctx does.
	clockSub(0, 1, clockMonotonic, uint64(time.Hour), 0)
	ctx, cancel := context.WithTimeout(h.ctx, 20*time.Millisecond)
	defer cancel()
	func() {
		defer func() {
			err, _ := recover().(error)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("recovered %v, want a wrapped context.DeadlineExceeded", err)
			}
		}()
		h.callCtx(ctx, "poll_oneoff", aData, aBig, 1, aResult)
		t.Error("poll_oneoff returned")
	}()
}

func TestFIFOStdinCancel(t *testing.T) {
	fsys := guestFS(t)
	if err := fsys.Mkfifo(vfs.RootIno, "/tmp/fifo", 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := fsys.Open(vfs.RootIno, "/tmp/fifo", vfs.ORead|vfs.ONonblock, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, err := fsys.Open(vfs.RootIno, "/tmp/fifo", vfs.OWrite, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r.SetFlags(0)
	h := newHost(t, Config{FS: fsys, Stdin: r})
	w.Write([]byte("hi"))
	if got, _ := h.read(0, 10); got != "hi" {
		t.Errorf("fifo read %q", got)
	}
	// O_NONBLOCK given to path_open applies: EAGAIN on an empty FIFO.
	fd := h.mustOpen("tmp/fifo", 0, rightFdRead|rightFdFdstatSetFlags, fdflagNonblock)
	if _, en := h.read(fd, 10); en != errnoAGAIN {
		t.Errorf("nonblocking empty read: %d", en)
	}
	h.must("fd_fdstat_set_flags", uint64(fd), 0)
	h.must("fd_fdstat_get", uint64(fd), aResult)
	if fl := binary.LittleEndian.Uint16(h.mem.b[aResult+2:]); fl != 0 {
		t.Errorf("flags after clearing: %x", fl)
	}
	// NONBLOCK set later (as Go's os package does on every file) is
	// reported but reads still block in fd_read.
	h.must("fd_fdstat_set_flags", 0, uint64(fdflagNonblock))
	h.must("fd_fdstat_get", 0, aResult)
	if fl := binary.LittleEndian.Uint16(h.mem.b[aResult+2:]); fl != fdflagNonblock {
		t.Errorf("stdin flags %x", fl)
	}
	ctx, cancel := context.WithTimeout(h.ctx, 20*time.Millisecond)
	defer cancel()
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("recovered %v, want a wrapped context.DeadlineExceeded", err)
		}
	}()
	iovs, n := h.iovecs(10)
	h.callCtx(ctx, "fd_read", 0, iovs, n, aResult)
	t.Error("blocked read returned")
}

func TestCloseIdempotent(t *testing.T) {
	h := newHost(t, Config{Cwd: "/home/user"})
	fd := h.mustOpen("etc/motd", 0, rightFdRead, 0)
	if err := h.p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h.p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, en := h.read(fd, 4); en != errnoBADF {
		t.Errorf("read after Close: %d", en)
	}
	if _, en := h.open(3, "etc/motd", 0, rightFdRead, 0); en != errnoBADF {
		t.Errorf("open after Close: %d", en)
	}
}

func TestUnlinkedOpenFile(t *testing.T) {
	// An open file outlives its name, as in POSIX.
	h := newHost(t, Config{})
	fd := h.mustOpen("tmp/gone", oflagCreat, rightFdRead|rightFdWrite|rightFdSeek|rightFdFilestatGet, 0)
	p, n := h.path(aPath, "tmp/gone")
	h.must("path_unlink_file", 3, p, n)
	h.write(fd, "still here")
	h.must("fd_seek", uint64(fd), 0, 0, aResult)
	if got, _ := h.read(fd, 100); got != "still here" {
		t.Errorf("read %q", got)
	}
	h.must("fd_filestat_get", uint64(fd), aResult)
	if nlink := h.u64(aResult + 24); nlink != 0 {
		t.Errorf("nlink %d", nlink)
	}
}

func TestErrnoOf(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want errno
	}{
		{nil, errnoSuccess},
		{vfs.ENOSPC, errnoNOSPC},
		{fmt.Errorf("wrapped: %w", vfs.EXDEV), 75},
		{io.ErrClosedPipe, errnoPIPE},
		{errors.New("other"), errnoIO},
	} {
		if got := errnoOf(tc.err); got != tc.want {
			t.Errorf("errnoOf(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

func BenchmarkFdWrite(b *testing.B) {
	h := newHost(b, Config{Stdout: io.Discard})
	iovs, n := h.iovecs(32 << 10)
	stack := make([]uint64, 4)
	f := h.funcs["fd_write"].Fn
	b.SetBytes(32 << 10)
	b.ReportAllocs()
	for b.Loop() {
		stack[0], stack[1], stack[2], stack[3] = 1, iovs, n, aResult
		f(h.ctx, h.mem, stack)
	}
}

func BenchmarkFdReadFile(b *testing.B) {
	fsys := vfs.New(vfs.Options{})
	if err := fsys.WriteFile("/big", make([]byte, 32<<10), 0o644); err != nil {
		b.Fatal(err)
	}
	h := newHost(b, Config{FS: fsys})
	fd := h.mustOpen("big", 0, rightFdRead|rightFdSeek, 0)
	iovs, n := h.iovecs(32 << 10)
	read, seek := h.funcs["fd_read"].Fn, h.funcs["fd_seek"].Fn
	stack := make([]uint64, 4)
	b.SetBytes(32 << 10)
	b.ReportAllocs()
	for b.Loop() {
		stack[0], stack[1], stack[2], stack[3] = uint64(fd), iovs, n, aResult
		read(h.ctx, h.mem, stack)
		stack[0], stack[1], stack[2], stack[3] = uint64(fd), 0, 0, aResult
		seek(h.ctx, h.mem, stack)
	}
}

// copyingMemory is a sliceMemory whose Read returns copies, as the js
// engine's does: reads then go through the process's scratch buffer.
type copyingMemory struct{ sliceMemory }

func (m *copyingMemory) ReadCopies() {}

func (m *copyingMemory) Read(off, n uint32) ([]byte, bool) {
	b, ok := m.sliceMemory.Read(off, n)
	return bytes.Clone(b), ok
}

// TestScratchIsolation reads through a copying memory in one process,
// then a shorter file in the next with the same buffer size: scratch
// buffers pass between processes, and the second guest must see its own
// bytes and nothing of the first's read past them.
func TestScratchIsolation(t *testing.T) {
	fsys := guestFS(t)
	secret := strings.Repeat("secret!", 1000)
	if err := fsys.WriteFile("/tmp/secret", []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := fsys.WriteFile("/tmp/short", []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	for round := range 20 {
		for _, c := range []struct{ file, want string }{{"/tmp/secret", secret[:4096]}, {"/tmp/short", "hi"}} {
			h := newHost(t, Config{FS: fsys})
			cm := &copyingMemory{sliceMemory{make([]byte, memSize)}}
			h.mem = &cm.sliceMemory
			for i := aData; i < aData+4096; i++ {
				cm.b[i] = 0xee
			}
			fd := h.mustOpen(c.file[1:], 0, rightFdRead, 0)
			iovs, n := h.iovecs(4096)
			f := h.funcs["fd_read"]
			stack := []uint64{uint64(fd), iovs, n, aResult}
			f.Fn(h.ctx, cm, stack)
			if en := errno(stack[0]); en != errnoSuccess {
				t.Fatalf("fd_read: errno %d", en)
			}
			got := h.u32(aResult)
			if string(cm.b[aData:aData+got]) != c.want {
				t.Fatalf("round %d: read %q from %s", round, cm.b[aData:aData+min(got, 20)], c.file)
			}
			for i := aData + got; i < aData+4096; i++ {
				if cm.b[i] != 0xee {
					t.Fatalf("round %d: byte %d past the read of %s changed to %#x", round, i-aData, c.file, cm.b[i])
				}
			}
			h.p.Close()
		}
	}
}

// TestPathBeneathOpenedDir: a directory fd the guest opened is a capability
// for what lies under it, so ".." may not lead above it and links made
// through it may not point above it (ENOTCAPABLE, as the WASI testsuite's
// interesting_paths and symlink_create check), while the preopens, which
// stand for the root and the working directory, keep POSIX's meaning.
func TestPathBeneathOpenedDir(t *testing.T) {
	h := newHost(t, Config{Cwd: "/home/user"})
	dir, en := h.open(3, "home/user", uint16(oflagDirectory), dirRights, 0)
	if en != errnoSuccess {
		t.Fatalf("opening home/user: errno %d", en)
	}
	for _, tc := range []struct {
		dirfd uint32
		path  string
		want  errno
	}{
		{dir, "f.txt", errnoSuccess},
		{dir, "./a/../f.txt", errnoNOENT}, // stays beneath; a does not exist
		{dir, "a/../../user/f.txt", errnoNOTCAPABLE},
		{dir, "../user/f.txt", errnoNOTCAPABLE},
		{dir, "..", errnoNOTCAPABLE},
		{dir, ".//f.txt", errnoSuccess},
		{4, "../user/f.txt", errnoSuccess},
		{3, "../etc/motd", errnoSuccess},
	} {
		fd, en := h.open(tc.dirfd, tc.path, 0, rightFdRead, 0)
		if en != tc.want {
			t.Errorf("path_open(%d, %q): errno %d, want %d", tc.dirfd, tc.path, en, tc.want)
		}
		if en == errnoSuccess {
			h.must("fd_close", uint64(fd))
		}
	}
	ptr, n := h.path(aPath, "../escaped")
	if en := h.call("path_create_directory", uint64(dir), ptr, n); en != errnoNOTCAPABLE {
		t.Errorf("path_create_directory above the fd: errno %d, want ENOTCAPABLE", en)
	}

	// Links made through the opened directory may not point above it;
	// through a preopen an absolute target is the sandbox's own "/".
	for _, tc := range []struct {
		dirfd        uint32
		target, link string
		want         errno
	}{
		{dir, "/", "l1", errnoNOTCAPABLE},
		{dir, "/etc/motd", "l2", errnoNOTCAPABLE},
		{dir, "../other/f.txt", "l3", errnoNOTCAPABLE},
		{dir, "f.txt", "l4", errnoSuccess},
		{dir, "./x/../f.txt", "l5", errnoSuccess},
		{3, "/etc/motd", "tmp/l6", errnoSuccess},
		{4, "../../etc/motd", "l7", errnoSuccess},
	} {
		tp, tn := h.path(aPath, tc.target)
		lp, ln := h.path(aPath2, tc.link)
		if en := h.call("path_symlink", tp, tn, uint64(tc.dirfd), lp, ln); en != tc.want {
			t.Errorf("path_symlink(%q, %d, %q): errno %d, want %d", tc.target, tc.dirfd, tc.link, en, tc.want)
		}
	}
	if target, err := h.fs.Readlink(vfs.RootIno, "/tmp/l6"); err != nil || target != "/etc/motd" {
		t.Errorf("link through the root preopen: %q, %v", target, err)
	}
}
