package preinit

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	wasmbin "github.com/wasmsand/wasmsand/wasm/binary"
)

// wasiModule is the import module name of WASI preview1.
const wasiModule = "wasi_snapshot_preview1"

// WASI errno values the host answers with.
const (
	errnoSuccess = 0
	errnoBadf    = 8
	errnoFault   = 21
	errnoInval   = 28
	errnoNosys   = 52
)

// maxOutput is how much of the reactor's output host keeps.
const maxOutput = 64 << 10

// seed is the fixed seed of random_get during initialisation.
var seed = [32]byte([]byte("wasmsand preinit: fixed entropy."))

// host is the WASI host initialisation runs against. Its answers depend
// only on Options and the order of the calls, so initialisation is
// deterministic.
type host struct {
	args, env  []byte // NUL-terminated strings back to back
	argc, envc int
	wall       int64 // Unix nanoseconds of the first wall-clock reading
	ticks      int64 // clock readings so far
	rand       *rand.ChaCha8
	stdFlags   [3]uint16 // fdflags of fds 0–2
	out        bytes.Buffer
	failed     error // why a host function stopped the guest
}

func newHost(opts Options) *host {
	h := &host{rand: rand.NewChaCha8(seed)}
	h.args, h.argc = pack(opts.Args)
	h.env, h.envc = pack(opts.Env)
	if !opts.Time.IsZero() {
		h.wall = opts.Time.UnixNano()
	}
	return h
}

func pack(ss []string) ([]byte, int) {
	var b []byte
	for _, s := range ss {
		b = append(append(b, s...), 0)
	}
	return b, len(ss)
}

// errExit and errForbidden are what host functions panic with to stop the
// guest; h.failed says which.
var (
	errExit      = errors.New("exited")
	errForbidden = errors.New("called a host function")
)

// cause returns why the guest stopped: the host's reason if a host
// function stopped it, else err.
func (h *host) cause(err error) error {
	if h.failed != nil {
		return h.failed
	}
	return err
}

// fail records why the guest must stop and stops it.
func (h *host) fail(err error) {
	if h.failed == nil {
		h.failed = err
	}
	panic(err)
}

type hostFunc func(h *host, mem api.Memory, s []uint64) uint32

// wasiFuncs are the WASI functions the host answers, with their
// signatures as (params, results) of i32 and i64.
var wasiFuncs = map[string]struct {
	params, results string
	fn              hostFunc
}{
	"args_sizes_get":      {"ii", "i", func(h *host, m api.Memory, s []uint64) uint32 { return sizes(m, s, h.argc, h.args) }},
	"args_get":            {"ii", "i", func(h *host, m api.Memory, s []uint64) uint32 { return list(m, s, h.args) }},
	"environ_sizes_get":   {"ii", "i", func(h *host, m api.Memory, s []uint64) uint32 { return sizes(m, s, h.envc, h.env) }},
	"environ_get":         {"ii", "i", func(h *host, m api.Memory, s []uint64) uint32 { return list(m, s, h.env) }},
	"clock_res_get":       {"ii", "i", func(h *host, m api.Memory, s []uint64) uint32 { return put64(m, s[1], 1000) }},
	"clock_time_get":      {"iIi", "i", (*host).clockTimeGet},
	"random_get":          {"ii", "i", (*host).randomGet},
	"fd_fdstat_get":       {"ii", "i", (*host).fdstatGet},
	"fd_fdstat_set_flags": {"ii", "i", (*host).fdstatSetFlags},
	"fd_prestat_get":      {"ii", "i", (*host).prestatGet},
	"fd_prestat_dir_name": {"iii", "i", (*host).prestatDirName},
	"fd_write":            {"iiii", "i", (*host).fdWrite},
	"poll_oneoff":         {"iiii", "i", (*host).pollOneoff},
	"sched_yield":         {"", "i", func(*host, api.Memory, []uint64) uint32 { return errnoSuccess }},
	"proc_exit":           {"i", "", (*host).procExit},
}

func valueTypes(sig string) []api.ValueType {
	var ts []api.ValueType
	for _, c := range sig {
		if c == 'i' {
			ts = append(ts, api.ValueTypeI32)
		} else {
			ts = append(ts, api.ValueTypeI64)
		}
	}
	return ts
}

func apiTypes(ts []wasmbin.ValType) []api.ValueType {
	out := make([]api.ValueType, len(ts))
	for i, t := range ts {
		out[i] = api.ValueType(t)
	}
	return out
}

func sameTypes(a, b []api.ValueType) bool { return bytes.Equal(a, b) }

// instantiate defines in rt a host module for every module m imports
// functions from: WASI answered as above (other WASI functions answer
// ENOSYS), any other function stops initialisation.
func (h *host) instantiate(ctx context.Context, rt wazero.Runtime, m *wasmbin.Module) error {
	builders := map[string]wazero.HostModuleBuilder{}
	var order []string
	for _, imp := range m.Imports {
		if imp.Func >= uint32(len(m.Types)) {
			return fmt.Errorf("preinit: import %s.%s has no type: %w", imp.Module, imp.Name, ErrUnsupported)
		}
		t := m.Types[imp.Func]
		params, results := apiTypes(t.Params), apiTypes(t.Results)
		b, ok := builders[imp.Module]
		if !ok {
			b = rt.NewHostModuleBuilder(imp.Module)
			builders[imp.Module] = b
			order = append(order, imp.Module)
		}
		var fn api.GoModuleFunc
		if w, ok := wasiFuncs[imp.Name]; ok && imp.Module == wasiModule {
			if !sameTypes(params, valueTypes(w.params)) || !sameTypes(results, valueTypes(w.results)) {
				return fmt.Errorf("preinit: import %s.%s has the wrong signature: %w", imp.Module, imp.Name, ErrUnsupported)
			}
			fn = func(_ context.Context, mod api.Module, s []uint64) {
				r := w.fn(h, mod.Memory(), s)
				if len(results) == 1 {
					s[0] = uint64(r)
				}
			}
		} else if imp.Module == wasiModule && len(results) == 1 && results[0] == api.ValueTypeI32 {
			fn = func(_ context.Context, _ api.Module, s []uint64) { s[0] = errnoNosys }
		} else {
			name := imp.Module + "." + imp.Name
			fn = func(context.Context, api.Module, []uint64) {
				h.fail(fmt.Errorf("%w %s", errForbidden, name))
			}
		}
		b.NewFunctionBuilder().WithGoModuleFunction(fn, params, results).Export(imp.Name)
	}
	for _, name := range order {
		if _, err := builders[name].Instantiate(ctx); err != nil {
			return fmt.Errorf("preinit: defining the imports of %s: %w", name, err)
		}
	}
	return nil
}

func put32(m api.Memory, ptr uint64, v uint32) uint32 {
	if !m.WriteUint32Le(uint32(ptr), v) {
		return errnoFault
	}
	return errnoSuccess
}

func put64(m api.Memory, ptr uint64, v uint64) uint32 {
	if !m.WriteUint64Le(uint32(ptr), v) {
		return errnoFault
	}
	return errnoSuccess
}

func sizes(m api.Memory, s []uint64, n int, buf []byte) uint32 {
	if e := put32(m, s[0], uint32(n)); e != errnoSuccess {
		return e
	}
	return put32(m, s[1], uint32(len(buf)))
}

func list(m api.Memory, s []uint64, buf []byte) uint32 {
	ptrs, base := uint32(s[0]), uint32(s[1])
	if !m.Write(base, buf) {
		return errnoFault
	}
	off := uint32(0)
	for i := 0; off < uint32(len(buf)); i++ {
		if !m.WriteUint32Le(ptrs+uint32(4*i), base+off) {
			return errnoFault
		}
		off += uint32(bytes.IndexByte(buf[off:], 0)) + 1
	}
	return errnoSuccess
}

// clockTimeGet answers every clock with a time that advances one
// microsecond per reading: the wall clock from Options.Time, the others
// from zero.
func (h *host) clockTimeGet(m api.Memory, s []uint64) uint32 {
	h.ticks++
	t := h.ticks * int64(time.Microsecond)
	if uint32(s[0]) == 0 { // realtime
		t += h.wall
	}
	return put64(m, s[2], uint64(t))
}

func (h *host) randomGet(m api.Memory, s []uint64) uint32 {
	b := make([]byte, uint32(s[1]))
	h.rand.Read(b)
	if !m.Write(uint32(s[0]), b) {
		return errnoFault
	}
	return errnoSuccess
}

// The file types and rights fd_fdstat_get reports.
const (
	filetypeUnknown   = 0
	filetypeDirectory = 3
	rightsAll         = 1<<29 - 1
	preopenFd         = 3
)

func (h *host) fdstatGet(m api.Memory, s []uint64) uint32 {
	fd := uint32(s[0])
	var b [24]byte
	switch {
	case fd < 3:
		b[0] = filetypeUnknown // a stream, as the sandbox reports its pipes
		binary.LittleEndian.PutUint16(b[2:], h.stdFlags[fd])
	case fd == preopenFd:
		b[0] = filetypeDirectory
	default:
		return errnoBadf
	}
	binary.LittleEndian.PutUint64(b[8:], rightsAll)
	binary.LittleEndian.PutUint64(b[16:], rightsAll)
	if !m.Write(uint32(s[1]), b[:]) {
		return errnoFault
	}
	return errnoSuccess
}

func (h *host) fdstatSetFlags(_ api.Memory, s []uint64) uint32 {
	fd := uint32(s[0])
	if fd >= 3 {
		return errnoBadf
	}
	if s[1]&^0x1f != 0 {
		return errnoInval
	}
	h.stdFlags[fd] = uint16(s[1])
	return errnoSuccess
}

func (h *host) prestatGet(m api.Memory, s []uint64) uint32 {
	if uint32(s[0]) != preopenFd {
		return errnoBadf
	}
	if e := put32(m, s[1], 0); e != errnoSuccess { // tag: directory
		return e
	}
	return put32(m, s[1]+4, 1) // len("/")
}

func (h *host) prestatDirName(m api.Memory, s []uint64) uint32 {
	if uint32(s[0]) != preopenFd {
		return errnoBadf
	}
	if uint32(s[2]) < 1 {
		return errnoInval
	}
	if !m.Write(uint32(s[1]), []byte("/")) {
		return errnoFault
	}
	return errnoSuccess
}

func (h *host) fdWrite(m api.Memory, s []uint64) uint32 {
	fd, iovs, n := uint32(s[0]), uint32(s[1]), uint32(s[2])
	if fd != 1 && fd != 2 {
		return errnoBadf
	}
	total := uint32(0)
	for i := range n {
		ptr, ok1 := m.ReadUint32Le(iovs + 8*i)
		size, ok2 := m.ReadUint32Le(iovs + 8*i + 4)
		if !ok1 || !ok2 {
			return errnoFault
		}
		b, ok := m.Read(ptr, size)
		if !ok {
			return errnoFault
		}
		if room := maxOutput - h.out.Len(); room > 0 {
			h.out.Write(b[:min(len(b), room)])
		}
		total += size
	}
	return put32(m, s[3], total)
}

func (h *host) procExit(_ api.Memory, s []uint64) uint32 {
	h.fail(fmt.Errorf("%w with status %d", errExit, uint32(s[0])))
	return 0
}

// pollOneoff answers every subscription at once: clock subscriptions fire
// (the clock moves on by their timeout), fd subscriptions fail with
// EBADF, as initialisation has no files to wait for.
func (h *host) pollOneoff(m api.Memory, s []uint64) uint32 {
	in, out, n := uint32(s[0]), uint32(s[1]), uint32(s[2])
	if n == 0 {
		return errnoInval
	}
	for i := range n {
		sub, ok := m.Read(in+48*i, 48)
		if !ok {
			return errnoFault
		}
		var ev [32]byte
		copy(ev[:8], sub[:8]) // userdata
		ev[10] = sub[8]       // type
		if sub[8] == 0 {      // clock
			if d := int64(binary.LittleEndian.Uint64(sub[24:])); d > 0 {
				h.ticks += d / int64(time.Microsecond)
			}
		} else {
			binary.LittleEndian.PutUint16(ev[8:], errnoBadf)
		}
		if !m.Write(out+32*i, ev[:]) {
			return errnoFault
		}
	}
	return put32(m, s[3], n)
}
