//go:build js && wasm

package hostwasm

import (
	"context"
	endian "encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"syscall/js"
	"unsafe"

	"github.com/hack-pad/safejs"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
)

// instance is one WebAssembly.Instance.
type instance struct {
	e   *Engine
	c   *compiled
	id  int32
	mem *memory // nil without an exported "memory"

	mu      sync.Mutex
	ctx     context.Context // of the innermost pending Call
	hostErr error           // the panic that ended the guest
	closed  bool
	running int // Calls not yet returned
}

// The WebAssembly.Instance, its exports and the functions that enter them
// stay on the JavaScript side (glueSource's live map, by instance id):
// syscall/js keeps every object that reaches Go alive until Go's own
// collector finalizes its js.Value, which may be hundreds of processes
// later, and an instance holds its function table and code references
// (about 150 KB for a Go tool). Dropped from the map on Close, an
// instance is garbage at once.

var _ wasm.Instance = (*instance)(nil)

// callCtx is the context host calls of this instance run with.
func (i *instance) callCtx() context.Context {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.ctx
}

func (i *instance) setHostErr(err error) {
	i.mu.Lock()
	if i.hostErr == nil {
		i.hostErr = err
	}
	i.mu.Unlock()
}

func (i *instance) hostErrSet() bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.hostErr != nil
}

func (i *instance) takeHostErr() error {
	i.mu.Lock()
	defer i.mu.Unlock()
	err := i.hostErr
	i.hostErr = nil
	return err
}

// Call runs the export name through WebAssembly.promising and waits for it,
// while the JavaScript event loop runs the guest and its host calls.
// Calls of one instance should not overlap: host calls see the ctx of the
// latest one.
func (i *instance) Call(ctx context.Context, name string, params ...uint64) ([]uint64, error) {
	ft, ok := i.c.funcs[name]
	if !ok {
		return nil, fmt.Errorf("jsbridge: no exported function %q", name)
	}
	if len(params) != len(ft.Params) {
		return nil, fmt.Errorf("jsbridge: %s takes %d parameters, got %d", name, len(ft.Params), len(params))
	}
	i.mu.Lock()
	if i.closed {
		i.mu.Unlock()
		return nil, errors.New("jsbridge: instance is closed")
	}
	prev := i.ctx
	i.ctx = ctx
	i.hostErr = nil
	i.running++
	i.mu.Unlock()
	defer func() {
		i.mu.Lock()
		i.ctx = prev
		i.running--
		i.mu.Unlock()
	}()

	args := jsNoArgs
	if len(params) > 0 {
		a := make([]any, len(params))
		for k, t := range ft.Params {
			a[k] = toJS(wasm.ValueType(t), params[k])
		}
		args = js.ValueOf(a)
	}
	negZero := hasFloat(ft.Results)
	var res js.Value
	var err error
	if i.e.jspi {
		// The guest starts from a microtask, never inside this call:
		// see hostcall.go.
		id, ch := newAwait()
		glue().start.Invoke(i.id, jsName(name), args, negZero, id)
		res, err = awaited(id, <-ch)
	} else {
		nested.push(i)
		var r safejs.Value
		r, err = safejs.Safe(glue().callSync).Invoke(i.id, jsName(name), safejs.Safe(args), negZero)
		nested.pop(i)
		res = safejs.Unsafe(r)
		var je js.Error
		if errors.As(err, &je) {
			err = &jsError{je.Value}
		}
	}
	if i.mem != nil {
		i.mem.size = -1
	}
	if herr := i.takeHostErr(); herr != nil {
		return nil, herr
	}
	if err != nil {
		return nil, trapFrom(err)
	}
	out := make([]uint64, len(ft.Results))
	switch len(ft.Results) {
	case 0:
	case 1:
		out[0] = fromJS(wasm.ValueType(ft.Results[0]), res)
	default:
		for k, t := range ft.Results {
			out[k] = fromJS(wasm.ValueType(t), res.Index(k))
		}
	}
	return out, nil
}

// Memory is the instance's exported memory, or nil.
func (i *instance) Memory() wasm.Memory {
	if i.mem == nil {
		return nil
	}
	return i.mem
}

// Global reads an exported global as raw bits.
func (i *instance) Global(name string) (uint64, bool) {
	t, ok := i.c.globals[name]
	if !ok || i.isClosed() {
		return 0, false
	}
	switch t.Type {
	case binary.I32, binary.I64, binary.F32, binary.F64:
		return fromJS(wasm.ValueType(t.Type), glue().getGlobal.Invoke(i.id, jsName(name))), true
	}
	return 0, false
}

// SetGlobal writes an exported mutable global from raw bits.
func (i *instance) SetGlobal(name string, v uint64) bool {
	t, ok := i.c.globals[name]
	if !ok || !t.Mutable || i.isClosed() {
		return false
	}
	switch t.Type {
	case binary.I32, binary.I64, binary.F32, binary.F64:
		glue().setGlobal.Invoke(i.id, jsName(name), toJS(wasm.ValueType(t.Type), v))
		return true
	}
	return false
}

func (i *instance) isClosed() bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.closed
}

// Close forgets the instance: later host calls from it fail. Its memory,
// if the engine gave it one (see importMemory), goes back to the pool,
// zeroed, unless a Call is still running in it; the instance's Memory
// then reads as empty.
func (i *instance) Close(context.Context) error {
	i.mu.Lock()
	recycle := !i.closed && i.running == 0
	i.mu.Unlock()
	if recycle && i.mem != nil {
		i.mem.release()
	}
	i.drop(recycle)
	return nil
}

// forget drops an instance that failed to start; its memory is not
// recycled.
func (i *instance) forget() { i.drop(false) }

func (i *instance) drop(recycle bool) {
	i.mu.Lock()
	wasClosed := i.closed
	i.closed = true
	i.mu.Unlock()
	unregisterInstance(i)
	if !wasClosed {
		glue().drop.Invoke(i.id, recycle)
	}
}

// trapFrom turns an exception that ended a guest into a *wasm.Trap when it
// is one.
func trapFrom(err error) error {
	var je *jsError
	if !errors.As(err, &je) || je.v.Type() != js.TypeObject {
		return err
	}
	msg := je.v.Get("message")
	if msg.Type() != js.TypeString {
		return err
	}
	m := msg.String()
	isRuntime := je.v.InstanceOf(jsWebAssembly.Get("RuntimeError"))
	if !isRuntime && !isInstance(je.v, "RangeError") && !isInstance(je.v, "InternalError") {
		return err
	}
	if kind, ok := trapKind(m); ok || isRuntime {
		return &wasm.Trap{Kind: kind, Msg: m}
	}
	return err
}

// memory is a guest's WebAssembly.Memory. Bytes move between it and the
// core's own memory through the glue's memRead and memWrite, which copy
// at an address in the core's memory that Go passes as a number: no view
// object crosses into Go (a js.Value of an object costs a finalizer, and
// syscall/js's method calls decode the method's name every time).
// JavaScript passes the buffer's length with every host call.
type memory struct {
	mem js.Value // WebAssembly.Memory
	// pages is the instance's memsize.SizeExport global when its module
	// keeps its memory's size (then possibly below the buffer's length),
	// else undefined.
	pages   js.Value
	size    int64  // the memory's size in bytes; -1: unknown
	gone    bool   // given back to the pool: every access fails
	scratch []byte // 8 bytes on the heap, for the fixed-size accesses
}

var _ wasm.Memory = (*memory)(nil)

// ReadCopies marks Read as a copy (wasm.CopyingMemory).
func (m *memory) ReadCopies() {}

func newMemory(mem, pages js.Value) *memory {
	return &memory{mem: mem, pages: pages, size: -1, scratch: make([]byte, 8)}
}

// note records the buffer length JavaScript saw at a host call (-1 when
// it could not tell).
func (m *memory) note(size float64) {
	if size < 0 {
		m.size = -1
	} else {
		m.size = int64(size)
	}
}

// release makes the memory unusable: it now belongs to the pool (or to
// another instance).
func (m *memory) release() {
	m.gone = true
	m.size = 0
	m.mem = js.Undefined()
	m.pages = js.Undefined()
}

func (m *memory) refresh() {
	if m.size >= 0 {
		return
	}
	if m.gone {
		m.size = 0
		return
	}
	m.size = int64(glue().memSize.Invoke(m.mem, m.pages).Float())
}

func (m *memory) inBounds(offset, n uint32) bool {
	m.refresh()
	return int64(offset)+int64(n) <= m.size
}

// Size is the memory's size in bytes (at most math.MaxUint32).
func (m *memory) Size() uint32 {
	m.refresh()
	return uint32(min(m.size, math.MaxUint32))
}

// coreAddr is the address of b's first byte in the core's own memory. b
// must be on the heap, where the Go runtime never moves it: goroutine
// stacks move when they grow.
func coreAddr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// load copies guest bytes [offset, offset+len(b)) into b, which is on the
// heap.
func (m *memory) load(offset uint32, b []byte) {
	glue().memRead.Invoke(m.mem, offset, len(b), coreAddr(b))
	runtime.KeepAlive(b)
}

// store copies b, which is on the heap, to guest bytes at offset.
func (m *memory) store(offset uint32, b []byte) {
	glue().memWrite.Invoke(m.mem, offset, coreAddr(b), len(b))
	runtime.KeepAlive(b)
}

// Read returns a copy of the range.
func (m *memory) Read(offset, n uint32) ([]byte, bool) {
	if !m.inBounds(offset, n) {
		return nil, false
	}
	b := make([]byte, n)
	if n > 0 {
		m.load(offset, b)
	}
	return b, true
}

// heapSink makes Write's b escape, so that every caller's b is on the heap
// (see coreAddr); it is never read.
var heapSink []byte

func (m *memory) Write(offset uint32, b []byte) bool {
	n := uint32(len(b))
	if uint64(len(b)) > math.MaxUint32 || !m.inBounds(offset, n) {
		return false
	}
	if n > 0 {
		heapSink = b
		heapSink = nil
		m.store(offset, b)
	}
	return true
}

func (m *memory) ReadUint32Le(offset uint32) (uint32, bool) {
	if !m.inBounds(offset, 4) {
		return 0, false
	}
	m.load(offset, m.scratch[:4])
	return endian.LittleEndian.Uint32(m.scratch), true
}

func (m *memory) WriteUint32Le(offset, v uint32) bool {
	if !m.inBounds(offset, 4) {
		return false
	}
	endian.LittleEndian.PutUint32(m.scratch, v)
	m.store(offset, m.scratch[:4])
	return true
}

func (m *memory) ReadUint64Le(offset uint32) (uint64, bool) {
	if !m.inBounds(offset, 8) {
		return 0, false
	}
	m.load(offset, m.scratch)
	return endian.LittleEndian.Uint64(m.scratch), true
}

func (m *memory) WriteUint64Le(offset uint32, v uint64) bool {
	if !m.inBounds(offset, 8) {
		return false
	}
	endian.LittleEndian.PutUint64(m.scratch, v)
	m.store(offset, m.scratch)
	return true
}

// Every process calls _start and reads a global or two by name: the
// names go to JavaScript as strings made once, since syscall/js makes a
// new string, with a finalizer, for each Go string it passes, and an
// empty array for a call without arguments.
var (
	jsNamesMu sync.Mutex
	jsNames   = map[string]js.Value{}

	jsNoArgs = jsArray.New()
)

// maxJSNames bounds jsNames: export and global names come from modules,
// which a user may load by the thousand.
const maxJSNames = 1024

// jsName returns name as a JavaScript string.
func jsName(name string) js.Value {
	jsNamesMu.Lock()
	defer jsNamesMu.Unlock()
	v, ok := jsNames[name]
	if !ok {
		v = js.ValueOf(name)
		if len(jsNames) < maxJSNames {
			jsNames[name] = v
		}
	}
	return v
}

// isInstance reports whether v is an instance of the global class name,
// if the host has one.
func isInstance(v js.Value, class string) bool {
	c := jsGlobal.Get(class)
	return c.Type() == js.TypeFunction && v.InstanceOf(c)
}

// hasFloat reports whether types has an f32 or f64.
func hasFloat(types []binary.ValType) bool {
	for _, t := range types {
		if wasm.ValueType(t) == wasm.F32 || wasm.ValueType(t) == wasm.F64 {
			return true
		}
	}
	return false
}
