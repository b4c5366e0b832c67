//go:build js && wasm

package hostwasm

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"syscall/js"
	"unsafe"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/memsize"
)

// Host calls do not go through js.FuncOf: a syscall/js callback costs tens
// of microseconds (an event, finalized js.Values for its arguments, and a
// pass of the Go scheduler before it returns), more than most WASI calls
// take. Instead every guest import is a small JavaScript function (see
// glueSource) that calls the Go exports below, passing numbers only.
//
// An export runs on whatever goroutine the Go runtime was paused in, and it
// must return to JavaScript on that goroutine: it must not switch
// goroutines in a way that lets another goroutine return to JavaScript
// first. Three cases follow from that.
//
//   - A NonBlocking host function (wasm.HostFunc) runs inside the export,
//     and so does one whose Immediate test says it would not wait.
//   - Under JSPI, at the top of the JavaScript stack (guests are always
//     entered from a microtask, so Go is paused there), any other host
//     function runs on a goroutine of its own and the export returns a call
//     id at once; JavaScript then gives the Go scheduler a turn (go._resume)
//     and polls the call. If it is still running the import returns a
//     Promise that Go settles through settle when the call ends, and the
//     guest suspends.
//   - When a guest runs synchronously inside a call from Go (no JSPI, or a
//     start function during instantiation), nothing can suspend: the export
//     waits for the call by yielding to the scheduler (runtime.Gosched)
//     until it is done and its instance is the innermost running guest.
//     Other goroutines run meanwhile, and a guest they start runs nested
//     on top of the waiting one (a process the call spawned, a command in
//     a loop reading this guest's output); the waiting export returns only
//     once every guest above it has, as JavaScript frames must unwind in
//     order.

// Statuses the exports return to JavaScript; a positive status is the id
// of a call still running.
const (
	statusDone   = 0
	statusUnwind = -1 // the host function ended the guest: throw
)

// maxSlots is the number of float64 argument slots of wasmsand_hostcall.
// An i64 takes two (its low and high 32 bits), so path_open, the widest
// WASI function (seven i32 and two i64), needs eleven.
const maxSlots = 12

// result is the result of the last call that finished, read by
// JavaScript through the wasmsand_result_* exports right after the export
// that finished it.
var result uint64

//go:wasmexport wasmsand_hostcall
func wasmHostCall(inst, fn int32, memSize, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11 float64) int32 {
	slots := [maxSlots]float64{a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11}
	return hostCall(inst, fn, memSize, &slots)
}

//go:wasmexport wasmsand_poll
func wasmPoll(id int32) int32 { return poll(id) }

//go:wasmexport wasmsand_result_i32
func wasmResultI32() int32 { return int32(uint32(result)) }

//go:wasmexport wasmsand_result_i64
func wasmResultI64() int64 { return int64(result) }

//go:wasmexport wasmsand_result_f32
func wasmResultF32() float32 { return math.Float32frombits(uint32(result)) }

//go:wasmexport wasmsand_result_f64
func wasmResultF64() float64 { return math.Float64frombits(result) }

// calls holds host calls still running, by id.
var (
	callsMu  sync.Mutex
	calls    = map[int32]*call{}
	nextCall int32
)

// call is one host function call.
type call struct {
	i     *instance
	hf    *hostFunc
	stack []uint64
	small [4]uint64
	err   error // the host function's panic

	mu      sync.Mutex
	id      int32
	done    bool
	waiting bool // JavaScript holds a Promise for it
}

// hostCall starts host function fn for instance inst with the guest's
// arguments in slots. memSize is the byte length of the guest's memory as
// JavaScript sees it, or -1 if unknown.
func hostCall(inst, fn int32, memSize float64, slots *[maxSlots]float64) int32 {
	i := lookupInstance(inst)
	if i == nil || int(fn) < 0 || int(fn) >= len(i.e.funcs) || i.hostErrSet() {
		// A closed instance, or a guest that already ended (it caught
		// our exception): keep unwinding it.
		return statusUnwind
	}
	hf := &i.e.funcs[fn]
	c := callPool.Get().(*call)
	c.i, c.hf = i, hf
	n := max(len(hf.Params), len(hf.Results))
	if n <= len(c.small) {
		c.stack = c.small[:n]
	} else {
		c.stack = make([]uint64, n)
	}
	k := 0
	for p, t := range hf.Params {
		switch t {
		case wasm.I32:
			c.stack[p] = uint64(uint32(int32(slots[k])))
		case wasm.I64:
			c.stack[p] = uint64(uint32(slots[k])) | uint64(uint32(slots[k+1]))<<32
			k++
		case wasm.F32:
			c.stack[p] = uint64(math.Float32bits(float32(slots[k])))
		default:
			c.stack[p] = math.Float64bits(slots[k])
		}
		k++
	}
	if i.mem != nil {
		i.mem.note(memSize)
	}

	if c.runNow() {
		status := c.finish()
		*c = call{}
		callPool.Put(c)
		return status
	}
	if nested.depth() == 0 {
		callsMu.Lock()
		nextCall++
		if nextCall <= 0 {
			nextCall = 1
		}
		c.id = nextCall
		calls[c.id] = c
		callsMu.Unlock()
		go c.runAndSettle()
		return c.id
	}
	// A synchronous guest: wait here, letting the scheduler run the call
	// and whatever it waits for (timers fire as the scheduler passes).
	go c.runAndSettle()
	for !c.isDone() || !nested.isTop(i) {
		runtime.Gosched()
	}
	return c.finish()
}

// callPool recycles the calls that finish on the export; one that went to
// a goroutine is left to the collector.
var callPool = sync.Pool{New: func() any { return new(call) }}

// poll reports on call id after JavaScript gave the scheduler a turn:
// finished (its status) or still running (its id; a Promise now waits for
// it).
func poll(id int32) int32 {
	callsMu.Lock()
	c := calls[id]
	callsMu.Unlock()
	if c == nil {
		return statusUnwind
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.done {
		c.waiting = true
		return id
	}
	forgetCall(id)
	return c.finish()
}

func forgetCall(id int32) {
	callsMu.Lock()
	delete(calls, id)
	callsMu.Unlock()
}

func (c *call) isDone() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done
}

// run runs the host function, turning a panic into c.err.
func (c *call) run() {
	defer c.recover()
	c.hf.Fn(c.i.callCtx(), c.i.Memory(), c.stack)
}

// runNow runs the host function here if it cannot wait: it is
// NonBlocking, or its Immediate test says it would finish at once (under
// JSPI only: a synchronous guest's calls that may block are where other
// goroutines get a turn, the timer that ends a Run among them). It reports
// whether it ran.
func (c *call) runNow() (ran bool) {
	defer func() {
		if c.err != nil {
			ran = true // Immediate panicked
		}
	}()
	defer c.recover()
	hf := c.hf
	if !hf.NonBlocking && (hf.Immediate == nil || nested.depth() > 0) {
		return false
	}
	ctx, mem := c.i.callCtx(), c.i.Memory()
	if !hf.NonBlocking && !hf.Immediate(ctx, mem, c.stack) {
		return false
	}
	hf.Fn(ctx, mem, c.stack)
	return true
}

// recover, deferred, turns a panic of the host function into c.err.
func (c *call) recover() {
	if r := recover(); r != nil {
		err, ok := r.(error)
		if !ok {
			err = fmt.Errorf("jsbridge: host function %s.%s panicked: %v", c.hf.module, c.hf.Name, r)
		}
		c.err = err
		c.i.setHostErr(err)
	}
}

// runAndSettle is the goroutine of a call that may block: it runs the
// host function and settles the Promise JavaScript holds for it, if any.
func (c *call) runAndSettle() {
	c.run()
	c.mu.Lock()
	c.done = true
	waiting := c.waiting
	c.mu.Unlock()
	if waiting {
		forgetCall(c.id)
		status := c.finish()
		glue().settle.Invoke(c.id, status)
	}
}

// finish stores the call's result for JavaScript and returns its status.
func (c *call) finish() int32 {
	if c.err != nil {
		return statusUnwind
	}
	if len(c.hf.Results) > 0 {
		result = c.stack[0]
	}
	return statusDone
}

// nestedGuests tracks the guests running synchronously inside a call from
// Go (a start function, or any guest without JSPI), innermost last.
type nestedGuests struct {
	mu    sync.Mutex
	stack []*instance
}

var nested nestedGuests

func (n *nestedGuests) push(i *instance) {
	n.mu.Lock()
	n.stack = append(n.stack, i)
	n.mu.Unlock()
}

// pop removes i, which must be the innermost guest.
func (n *nestedGuests) pop(i *instance) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if k := len(n.stack) - 1; k >= 0 && n.stack[k] == i {
		n.stack = n.stack[:k]
		return
	}
	panic("jsbridge: synchronous guests ended out of order")
}

func (n *nestedGuests) depth() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.stack)
}

func (n *nestedGuests) isTop(i *instance) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.stack) > 0 && n.stack[len(n.stack)-1] == i
}

// instances maps the ids JavaScript passes to live instances.
var (
	instancesMu sync.Mutex
	instances   = map[int32]*instance{}
	nextInst    int32
)

func registerInstance(i *instance) {
	instancesMu.Lock()
	nextInst++
	if nextInst <= 0 {
		nextInst = 1
	}
	i.id = nextInst
	instances[i.id] = i
	instancesMu.Unlock()
}

func lookupInstance(id int32) *instance {
	instancesMu.Lock()
	defer instancesMu.Unlock()
	return instances[id]
}

func unregisterInstance(i *instance) {
	instancesMu.Lock()
	delete(instances, i.id)
	instancesMu.Unlock()
}

// jsValueLayout mirrors syscall/js.Value, to name the Go object of
// wasm_exec.js (reference 6), which syscall/js keeps to itself.
type jsValueLayout struct {
	_     [0]func()
	ref   uint64
	gcPtr *uint64
}

// goObject is the instance of wasm_exec.js's Go class running this
// program: its _inst is our WebAssembly.Instance and its _resume runs the
// scheduler.
func goObject() js.Value {
	const nanHead, typeFlagObject, idGo = 0x7FF80000, 1, 6
	var v js.Value
	(*jsValueLayout)(unsafe.Pointer(&v)).ref = (nanHead|typeFlagObject)<<32 | idGo
	return v
}

// glueFuncs are the JavaScript functions of glueSource.
type glueFuncs struct {
	instantiate      js.Value // (id, module, specs, jspi, memMin, memMax, dirty, ownSize, tableMin, tableMax) → null or what it threw
	instantiateAsync js.Value // (id, module) → Promise
	memory           js.Value // (id) → the exported memory, or undefined
	exported         js.Value // (id, name) → the export, or undefined (for tests)
	drop             js.Value // (id, recycle): forgets the instance
	getGlobal        js.Value // (id, name) → value
	setGlobal        js.Value // (id, name, value)
	callSync         js.Value // (id, name, args, negZero) → result
	settle           js.Value // (callID, status)
	start            js.Value // (id, name, args, negZero, awaitID): calls the export from a microtask; await awaitID gets its outcome
	watch            js.Value // (p, awaitID): await awaitID gets p's outcome (see await)
	takeAwaited      js.Value // (awaitID) → the value await awaitID settled with
	deliver          js.Value // (fn, s): calls fn(s) from a microtask
	memRead          js.Value // (mem, offset, n, addr): guest bytes to the core's memory at addr
	memWrite         js.Value // (mem, offset, addr, n): the core's bytes at addr to the guest's
	memSize          js.Value // (mem, size) → the instance's size of mem in bytes (size: its memsize global, or undefined)
	err              error
}

var (
	glueOnce sync.Once
	glueVal  glueFuncs
)

// glue returns the JavaScript side of host calls, made on first use.
func glue() *glueFuncs {
	glueOnce.Do(func() {
		g := goObject()
		inst := g.Get("_inst")
		if inst.Type() != js.TypeObject || g.Get("_resume").Type() != js.TypeFunction {
			glueVal.err = fmt.Errorf("jsbridge: the Go runtime's JavaScript object is not where %s's wasm_exec.js keeps it; build the core and wasm_exec.js with the same Go", runtime.Version())
			return
		}
		ex := inst.Get("exports")
		if ex.Get("wasmsand_hostcall").Type() != js.TypeFunction {
			glueVal.err = fmt.Errorf("jsbridge: the core does not export wasmsand_hostcall")
			return
		}
		// The clock is the Go runtime's global's (the loader may give it
		// one of its own, so that Node need not load perf_hooks).
		obj := jsGlobal.Get("Function").New("exports", "go", "unwind", "keepNegZero", "performance", glueSource).Invoke(ex, g, errUnwind, jsKeepNegZero, jsGlobal.Get("performance"))
		glueVal = glueFuncs{instantiate: obj.Get("instantiate"), instantiateAsync: obj.Get("instantiateAsync"),
			memory: obj.Get("memory"), exported: obj.Get("exported"), drop: obj.Get("drop"), getGlobal: obj.Get("getGlobal"), setGlobal: obj.Get("setGlobal"),
			callSync: obj.Get("callSync"), settle: obj.Get("settle"), start: obj.Get("start"), deliver: obj.Get("deliver"),
			watch: obj.Get("watch"), takeAwaited: obj.Get("takeAwaited"),
			memRead: obj.Get("memRead"), memWrite: obj.Get("memWrite"), memSize: obj.Get("memSize")}
	})
	return &glueVal
}

// glueSource makes the JavaScript half of host calls. Each import is a
// function made for its signature: it passes its arguments as numbers (an
// i64 as two 32-bit halves) to wasmsand_hostcall, then returns the result,
// throws unwind, or (with JSPI) returns a Promise. Under JSPI, a guest
// that has run for 10 ms without a macrotask turn gets one (see later),
// at its next host call.
const glueSource = `
const call = exports.wasmsand_hostcall, poll = exports.wasmsand_poll;
const results = [() => undefined, exports.wasmsand_result_i32, exports.wasmsand_result_i64,
  exports.wasmsand_result_f32, exports.wasmsand_result_f64];
const pending = new Map();
// later runs f(v) in a macrotask of its own: setImmediate where the host
// has it (Node), else a MessageChannel message, which browsers deliver at
// once, where setTimeout(f, 0) waits at least 4 ms once nested (a guest
// that yields every 10 ms would spend a third of its time waiting).
const later = (() => {
  if (typeof setImmediate === 'function') return (f, v) => setImmediate(f, v);
  if (typeof MessageChannel !== 'function') return (f, v) => setTimeout(f, 0, v);
  const queue = [];
  const ch = new MessageChannel();
  ch.port1.onmessage = () => {
    const [f, v] = queue.shift();
    f(v);
  };
  return (f, v) => {
    queue.push([f, v]);
    ch.port2.postMessage(null);
  };
})();
const now = () => performance.now();
let lastYield = now();
const lo = (x) => Number(BigInt.asUintN(32, x));
const hi = (x) => Number(BigInt.asUintN(32, x >> 32n));

function finish(r, kind, jspi) {
  if (r > 0) {
    go._resume();
    r = poll(r);
    if (r > 0) return new Promise((resolve, reject) => pending.set(r, { resolve, reject, kind }));
  }
  if (r < 0) throw unwind;
  const v = results[kind]();
  if (jspi && now() - lastYield >= 10) {
    lastYield = now();
    return new Promise((resolve) => later(resolve, v));
  }
  return v;
}

function settle(id, status) {
  const p = pending.get(id);
  if (!p) return;
  pending.delete(id);
  if (status < 0) { p.reject(unwind); return; }
  const v = results[p.kind]();
  if (now() - lastYield >= 10) {
    lastYield = now();
    later(p.resolve, v);
  } else {
    p.resolve(v);
  }
}

const makers = new Map();
// maker returns a factory of import functions for a signature: params
// is a string of i, I, f, F (i32, i64, f32, f64), kind the result.
function maker(params, kind) {
  const key = params + kind;
  let m = makers.get(key);
  if (m) return m;
  const names = [], slots = [];
  for (let k = 0; k < params.length; k++) {
    names.push('a' + k);
    if (params[k] === 'I') slots.push('lo(a' + k + ')', 'hi(a' + k + ')');
    else slots.push('a' + k);
  }
  const body = 'return function(' + names.join(',') + ') {' +
    'const mem = box.mem; ' +
    'return finish(call(box.id, idx, mem ? (box.size ? box.size.value * 65536 : mem.buffer.byteLength) : -1' + slots.map((s) => ',' + s).join('') + '), ' + kind + ', jspi); };';
  m = new Function('call', 'finish', 'lo', 'hi', 'idx', 'box', 'jspi', body);
  makers.set(key, m);
  return m;
}

// Memories and tables of guests compiled to import theirs (see
// memimport.go), pooled by module: each memory of the module's initial
// size and zeroed except where the module's data segments write again
// (box.dirty), each table of its initial length and all null, so that an
// instance of that module cannot tell them from its own. Neither can
// shrink: a table that grew is never pooled, nor a memory that grew unless
// its module keeps its memory's size itself (box.ownSize, see package
// memsize), which then reads the module's initial size whatever the
// memory's, and finds the pages past it zero; one that grew by more than
// 16 MiB is dropped all the same, so that it neither takes most of the
// pools nor costs more to zero than a fresh one. The pools keep a few of each for
// every module, 64 MiB of memories and a million table entries in all.
const pools = new Map();
let pooledBytes = 0, pooledEntries = 0;
const poolMaxBytes = 64 << 20, poolMaxEntries = 1 << 20, poolMaxPerModule = 4;

function poolOf(mod) {
  let p = pools.get(mod);
  if (!p) pools.set(mod, p = { mems: [], tables: [], pending: 0 });
  return p;
}

// zeroedBefore holds the memories recycle has zeroed once: their pages are
// in place.
const zeroedBefore = new WeakSet();
const syncZeroMax = 1 << 20, zeroSlice = 4 << 20;

// zeroBytes returns how many bytes the [start, end) pairs of ranges cover.
function zeroBytes(ranges) {
  let n = 0;
  for (let k = 0; k < ranges.length; k += 2) n += ranges[k + 1] - ranges[k];
  return n;
}

// zeroRanges zeroes the [start, end) pairs of ranges in u8 from pair k
// on, until about budget bytes are written; it returns the pair to go on
// from (ranges.length when done), having shortened a pair it left half
// done.
function zeroRanges(u8, ranges, k, budget) {
  for (; k < ranges.length && budget > 0; k += 2) {
    const end = Math.min(ranges[k + 1], ranges[k] + budget);
    u8.fill(0, ranges[k], end);
    budget -= end - ranges[k];
    if (end < ranges[k + 1]) {
      ranges[k] = end;
      return k;
    }
  }
  return k;
}

// zeroLater zeroes ranges of memory m, zeroSlice bytes a task, and then
// calls done.
function zeroLater(m, ranges, done) {
  let k = 0;
  const step = () => {
    k = zeroRanges(new Uint8Array(m.buffer), ranges, k, zeroSlice);
    if (k < ranges.length) {
      setTimeout(step, 0);
      return;
    }
    zeroedBefore.add(m);
    done();
  };
  setTimeout(step, 0);
}

function takeMemory(pool, min, max) {
  if (pool.mems.length > 0) {
    const m = pool.mems.pop();
    pooledBytes -= m.buffer.byteLength;
    return m;
  }
  return new WebAssembly.Memory(max < 0 ? { initial: min } : { initial: min, maximum: max });
}

// takeTable returns a pooled table ({table, clear}) or a new one.
function takeTable(pool, min, max) {
  if (pool.tables.length > 0) {
    pooledEntries -= min;
    return pool.tables.pop();
  }
  const desc = { element: 'anyfunc', initial: min };
  if (max >= 0) desc.maximum = max;
  return { table: new WebAssembly.Table(desc), clear: null };
}

// clearModule is a module whose export c(n) stores null in every entry
// below n of the funcref table it imports that is not null already: one
// call from JavaScript, where Table.prototype.set would cross into the
// engine once an entry. It reads before it writes because a process
// fills a few hundred of a Go tool's 7,000 entries, and V8 takes about
// 5 ns to read an entry and 20 ns to store one (table.fill stores each).
//
//	(func (param $n i32) (local $i i32)
//	  (block (loop
//	    (br_if 1 (i32.ge_u (local.get $i) (local.get $n)))
//	    (if (i32.eqz (ref.is_null (table.get (local.get $i))))
//	      (then (table.set (local.get $i) (ref.null func))))
//	    (local.set $i (i32.add (local.get $i) (i32.const 1)))
//	    (br 0))))
let clearModule = null;
function clearer(table) {
  clearModule ??= new WebAssembly.Module(new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x05, 0x01, 0x60, 0x01, 0x7f, 0x00, // type (i32) -> ()
    0x02, 0x09, 0x01, 0x01, 0x74, 0x01, 0x74, 0x01, 0x70, 0x00, 0x00, // import t.t (table 0 funcref)
    0x03, 0x02, 0x01, 0x00, // one function of type 0
    0x07, 0x05, 0x01, 0x01, 0x63, 0x00, 0x00, // export it as c
    0x0a, 0x2b, 0x01, 0x29, 0x01, 0x01, 0x7f, // its body, 41 bytes, with one i32 local:
    0x02, 0x40, 0x03, 0x40, // block loop
    0x20, 0x01, 0x20, 0x00, 0x4f, 0x0d, 0x01, // br_if 1 (i >= n)
    0x20, 0x01, 0x25, 0x00, 0xd1, 0x45, 0x04, 0x40, // if !ref.is_null(table.get i)
    0x20, 0x01, 0xd0, 0x70, 0x26, 0x00, 0x0b, // table.set i null end
    0x20, 0x01, 0x41, 0x01, 0x6a, 0x21, 0x01, // i++
    0x0c, 0x00, 0x0b, 0x0b, 0x0b, // br 0 end end end
  ]));
  return new WebAssembly.Instance(clearModule, { t: { t: table } }).exports.c;
}

// recycle clears the pooled memory and table of a closed instance and
// keeps them for the next instance of the same module, if they have not
// grown (or, for a memory of a module keeping its own size, whatever its
// size) and the pools have room. box.dirty lists the memory's ranges to
// zero below the module's initial size: the module's data segments write
// the rest again when the next instance starts; all of a memory past that
// size is zeroed. A table is cleared whole, which also lets the closed
// instance's functions go.
//
// Zeroing writes every page of those ranges, and the first time a memory
// is zeroed most of them may be pages the instance never touched, each a
// page fault (about 3 ms a megabyte on a slow VM: 55 ms for python3's
// 20 MB). So a memory's first zeroing, when it is larger than
// syncZeroMax, is done after the current task, in slices of zeroSlice,
// and the memory joins the pool once it is clean (counted in
// pool.pending meanwhile): the instance's end, and the command's result,
// do not wait for it. Later zeroings of the same memory write pages
// already in place, at memset speed, and stay synchronous, so that a loop
// of one small tool keeps finding its memory in the pool.
function recycle(box) {
  const m = box.pooled, t = box.table;
  box.pooled = box.mem = box.table = null;
  const pool = poolOf(box.mod);
  const bytes = box.min * 65536, size = m ? m.buffer.byteLength : 0;
  if (m && box.dirty && (size === bytes || box.ownSize && size > bytes && size - bytes <= poolMaxBytes / 4) && pooledBytes + size <= poolMaxBytes && pool.mems.length + pool.pending < poolMaxPerModule) {
    const d = box.dirty;
    pooledBytes += size;
    if (zeroedBefore.has(m) || zeroBytes(d) + (size - bytes) <= syncZeroMax) {
      const u8 = new Uint8Array(m.buffer);
      for (let k = 0; k < d.length; k += 2) u8.fill(0, d[k], d[k + 1]);
      if (size > bytes) u8.fill(0, bytes, size);
      zeroedBefore.add(m);
      pool.mems.push(m);
    } else {
      const ranges = Array.from(d);
      if (size > bytes) ranges.push(bytes, size);
      pool.pending++;
      zeroLater(m, ranges, () => {
        pool.pending--;
        pool.mems.push(m);
      });
    }
  }
  if (t && t.table.length === box.tmin && pooledEntries + box.tmin <= poolMaxEntries && pool.tables.length < poolMaxPerModule) {
    t.clear ??= clearer(t.table);
    t.clear(box.tmin);
    pool.tables.push(t);
    pooledEntries += box.tmin;
  }
}

// makeImports returns the import object of instance id of module mod and
// the box its functions read the instance's id and memory from: specs
// lists [module, name, funcIndex, params, kind] for every import. With
// memMin >= 0 the module imports its memory (maximum memMax pages, or none
// if negative), with tableMin >= 0 its table (likewise), which come from
// the module's pools (dirty lists the memory's ranges to zero). The
// functions of a closed instance's import object, if it was recycled,
// serve the next instance with the same specs: making two dozen closures
// and Suspending wrappers was a tenth of an instantiation.
function makeImports(id, mod, specs, jspi, memMin, memMax, dirty, ownSize, tableMin, tableMax) {
  let set = importSets.get(specs)?.pop();
  if (!set) {
    const box = { id: 0, mem: null, pooled: null, size: null, table: null, mod, min: memMin, tmin: tableMin, dirty, ownSize, specs };
    const imports = {};
    for (const [mod, name, idx, params, kind] of specs) {
      const ns = imports[mod] ??= {};
      let f = maker(params, kind)(call, finish, lo, hi, idx, box, jspi);
      if (jspi) f = new WebAssembly.Suspending(f);
      ns[name] = f;
    }
    if (memMin >= 0 || tableMin >= 0) imports['` + memImportModule + `'] = {};
    set = { imports, box };
  }
  const { imports, box } = set;
  box.id = id;
  if (memMin >= 0 || tableMin >= 0) {
    const pool = poolOf(mod), ns = imports['` + memImportModule + `'];
    if (memMin >= 0) ns.` + memImportName + ` = box.mem = box.pooled = takeMemory(pool, memMin, memMax);
    if (tableMin >= 0) ns.` + tableImportName + ` = (box.table = takeTable(pool, tableMin, tableMax)).table;
  }
  return set;
}

// importSets keeps the import objects of closed instances for the next
// instances with the same specs, a few each.
const importSets = new Map();
const importSetsPerSpecs = 4;

// release forgets what box's instance held; with recycle its memory,
// table and import object go back to their pools, each ready for the next
// instance as if new.
function release(set, recycleAll) {
  const box = set.box;
  box.id = 0; // a call that still came would find no instance
  box.size = null;
  if (!recycleAll) {
    box.mem = box.pooled = box.table = null;
    return;
  }
  recycle(box);
  const ns = set.imports['` + memImportModule + `'];
  if (box.min >= 0) ns.` + memImportName + ` = undefined;
  if (box.tmin >= 0) ns.` + tableImportName + ` = undefined;
  let sets = importSets.get(box.specs);
  if (!sets) importSets.set(box.specs, sets = []);
  if (sets.length < importSetsPerSpecs) sets.push(set);
}

// live holds what JavaScript keeps of each instance, by id: its import
// object (until it is instantiated), exports, the box its imports read
// the memory from, and the functions that enter its exports.
const live = new Map();

// instantiate creates instance id synchronously (a start function runs
// now); it returns null, or what the constructor threw.
function instantiate(id, mod, specs, jspi, memMin, memMax, dirty, ownSize, tableMin, tableMax) {
  const set = makeImports(id, mod, specs, jspi, memMin, memMax, dirty, ownSize, tableMin, tableMax);
  const rec = { set, imports: set.imports, box: set.box, exports: null, fns: new Map() };
  live.set(id, rec);
  try {
    ready(rec, new WebAssembly.Instance(mod, set.imports));
    return null;
  } catch (err) {
    return err ?? new Error(String(err));
  }
}

// instantiateAsync is instantiate's fallback, for hosts that refuse to
// instantiate large modules synchronously.
function instantiateAsync(id, mod) {
  const rec = live.get(id);
  if (!rec) return Promise.reject(new Error('wasmsand: instance closed'));
  return WebAssembly.instantiate(mod, rec.imports).then((inst) => { ready(rec, inst); });
}

function ready(rec, inst) {
  rec.imports = null;
  rec.exports = inst.exports;
  const mem = inst.exports.memory;
  if (mem instanceof WebAssembly.Memory) rec.box.mem = mem;
  if (rec.box.ownSize) rec.box.size = inst.exports['` + memsize.SizeExport + `'] ?? null;
}

function exported(id, name) {
  return live.get(id)?.exports?.[name];
}

function memory(id) {
  const mem = live.get(id)?.exports?.memory;
  return mem instanceof WebAssembly.Memory ? mem : undefined;
}

// drop forgets instance id; with recycle its memory, table and import
// object go back to the pools.
function drop(id, recycleMem) {
  const rec = live.get(id);
  if (!rec) return;
  live.delete(id);
  release(rec.set, recycleMem);
}

function getGlobal(id, name) {
  const v = live.get(id).exports[name].value;
  return Object.is(v, -0) ? '-0' : v;
}

function setGlobal(id, name, v) {
  live.get(id).exports[name].value = v;
}

// entry returns the function that enters export name of instance id:
// through WebAssembly.promising with JSPI, keeping a -0 result with
// negZero.
function entry(id, name, jspi, negZero) {
  const rec = live.get(id);
  if (!rec) throw new Error('wasmsand: instance closed');
  const key = name + (jspi ? '/p' : '/s');
  let f = rec.fns.get(key);
  if (!f) {
    f = rec.exports[name];
    if (jspi) f = WebAssembly.promising(f);
    if (negZero) f = keepNegZero(f);
    rec.fns.set(key, f);
  }
  return f;
}

// start calls the export from a microtask, so that a guest never runs
// inside a call from Go; await awaitID gets the outcome.
function start(id, name, args, negZero, awaitID) {
  watch(Promise.resolve().then(() => entry(id, name, true, negZero)(...args)), awaitID);
}

// watch hands p's outcome to await awaitID of Go through the export
// wasmsand_await_done (see await in js.go), keeping a value for
// takeAwaited, then lets Go's scheduler run the waiting goroutine.
const awaitDone = exports.wasmsand_await_done;
const awaitedValues = new Map();
function watch(p, awaitID) {
  const done = (status, v) => {
    if (go.exited) return;
    if (status === 2 || status === -1) awaitedValues.set(awaitID, v);
    awaitDone(awaitID, status);
    go._resume();
  };
  Promise.resolve(p).then(
    (v) => done(v === undefined ? 1 : 2, v),
    (e) => done(e === unwind ? -2 : -1, e));
}

function takeAwaited(awaitID) {
  const v = awaitedValues.get(awaitID);
  awaitedValues.delete(awaitID);
  return v;
}

function callSync(id, name, args, negZero) {
  return entry(id, name, false, negZero)(...args);
}

// deliver calls a listener (onStdout, onStderr) from a microtask, so that
// user code never runs inside a host call; what it throws is ignored.
function deliver(fn, s) {
  queueMicrotask(() => { try { fn(s); } catch {} });
}

// Guest memory for Go (see memory in instance.go): bytes are copied
// between a guest's memory and the core's own at an address Go passes.
// The views are kept while their buffers live (growing a memory detaches
// its buffer, which leaves a view empty); a few bytes are copied by hand,
// cheaper than making a subarray.
let coreU8 = new Uint8Array(exports.mem.buffer);
const core = () => coreU8.byteLength !== 0 ? coreU8 : (coreU8 = new Uint8Array(exports.mem.buffer));
let lastMem = null, lastU8 = null;
function guest(mem) {
  if (mem !== lastMem || lastU8.byteLength === 0) {
    lastU8 = new Uint8Array(mem.buffer);
    lastMem = mem;
  }
  return lastU8;
}

function memRead(mem, off, n, addr) {
  const src = guest(mem), dst = core();
  if (n <= 16) {
    for (let k = 0; k < n; k++) dst[addr + k] = src[off + k];
  } else {
    dst.set(src.subarray(off, off + n), addr);
  }
}

function memWrite(mem, off, addr, n) {
  const dst = guest(mem), src = core();
  if (n <= 16) {
    for (let k = 0; k < n; k++) dst[off + k] = src[addr + k];
  } else {
    dst.set(src.subarray(addr, addr + n), off);
  }
}

function memSize(mem, size) {
  return size ? size.value * 65536 : mem.buffer.byteLength;
}

return { instantiate, instantiateAsync, memory, exported, drop, getGlobal, setGlobal, callSync, settle, start, watch, takeAwaited, deliver, memRead, memWrite, memSize };
`
