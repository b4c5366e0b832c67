//go:build js && wasm

package hostwasm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"runtime"
	"syscall/js"

	"github.com/wasmsand/wasmsand/wasm"
)

// jsModuleStore is a sandbox.ModuleStore over a JavaScript object with
//
//	load(raw: Uint8Array, variant: string) → Promise<Uint8Array | null>
//	store(raw: Uint8Array, variant: string, bytes: Uint8Array) → Promise
//
// and optionally, for sandbox.DigestStore (and DigestReaderStore),
//
//	loadDigest(sha256: string, variant: string) → Promise<Uint8Array | null>
//
// where sha256 is the lowercase hex SHA-256 of the raw module, the key load
// derives from raw. The browser loader's keeps modules in the Cache API,
// keyed by the SHA-256 of raw computed with Web Crypto (see
// sandbox.ModuleStore). Failures are misses: the store is an optimisation.
type jsModuleStore struct{ obj js.Value }

func (s jsModuleStore) Load(_ context.Context, raw []byte, variant string) (b []byte, ok bool) {
	defer releaseCopies(len(raw))
	return s.bytes(func() js.Value { return s.obj.Call("load", bytesToJS(raw), variant) })
}

// LoadDigest implements sandbox.DigestStore with the object's loadDigest;
// false if it has none.
func (s jsModuleStore) LoadDigest(_ context.Context, sum [sha256.Size]byte, variant string) ([]byte, bool) {
	call, ok := s.byDigest(sum, variant)
	if !ok {
		return nil, false
	}
	return s.bytes(call)
}

// LoadModuleDigest is LoadModule by digest, with the object's loadDigest.
func (s jsModuleStore) LoadModuleDigest(_ context.Context, eng wasm.Engine, sum [sha256.Size]byte, variant string) (wasm.Module, bool) {
	call, ok := s.byDigest(sum, variant)
	if !ok {
		return nil, false
	}
	return s.module(eng, call)
}

// byDigest returns the call of loadDigest for sum and variant, or false
// if the object has no loadDigest.
func (s jsModuleStore) byDigest(sum [sha256.Size]byte, variant string) (call func() js.Value, ok bool) {
	defer func() {
		if recover() != nil { // a getter that threw
			ok = false
		}
	}()
	if jsGlobal.Get("Reflect").Call("get", s.obj, "loadDigest").Type() != js.TypeFunction {
		return nil, false
	}
	return func() js.Value { return s.obj.Call("loadDigest", hex.EncodeToString(sum[:]), variant) }, true
}

// bytes copies into Go the bytes that call's Promise resolves to.
func (s jsModuleStore) bytes(call func() js.Value) (b []byte, ok bool) {
	u, ok := s.array(call)
	if !ok {
		return nil, false
	}
	defer func() {
		if recover() != nil {
			b, ok = nil, false
		}
	}()
	b = make([]byte, u.Length())
	js.CopyBytesToGo(b, u)
	return b, true
}

// array returns the Uint8Array that call's Promise resolves to (or a view
// of its ArrayBuffer).
func (s jsModuleStore) array(call func() js.Value) (u js.Value, ok bool) {
	defer func() {
		if recover() != nil { // load threw
			u, ok = js.Undefined(), false
		}
	}()
	v, err := await(jsPromise.Call("resolve", call()))
	if err != nil {
		return js.Undefined(), false
	}
	if v.InstanceOf(jsArrayBuffer) {
		v = jsUint8Array.New(v)
	}
	if !v.InstanceOf(jsUint8Array) {
		return js.Undefined(), false
	}
	return v, true
}

// LoadDigestReader implements sandbox.DigestReaderStore with the object's
// loadDigest: the bytes stay in JavaScript, and the reader copies into Go
// only what is read (python3's library is 22 MB, of which a first run
// reads a megabyte or two).
func (s jsModuleStore) LoadDigestReader(_ context.Context, sum [sha256.Size]byte, variant string) (io.ReaderAt, int64, bool) {
	call, ok := s.byDigest(sum, variant)
	if !ok {
		return nil, 0, false
	}
	u, ok := s.array(call)
	if !ok {
		return nil, 0, false
	}
	r := jsArrayReader{u: u, n: int64(u.Length())}
	return r, r.n, true
}

// jsArrayReader reads a JavaScript Uint8Array of n bytes in place.
type jsArrayReader struct {
	u js.Value
	n int64
}

var errJSRead = errors.New("hostwasm: reading bytes kept in JavaScript failed")

func (b jsArrayReader) ReadAt(p []byte, off int64) (n int, err error) {
	if off < 0 || off > b.n {
		return 0, io.EOF
	}
	end := min(off+int64(len(p)), b.n)
	defer func() {
		if recover() != nil {
			n, err = 0, errJSRead
		}
	}()
	n = js.CopyBytesToGo(p[:end-off], b.u.Call("subarray", off, end))
	if n < len(p) {
		err = io.EOF
	}
	return n, err
}

// LoadModule compiles the prepared module the store keeps for raw and
// variant where the store handed it over, without copying it into Go: only
// its description (preparedSection) is read, from the compiled module.
func (s jsModuleStore) LoadModule(_ context.Context, eng wasm.Engine, raw []byte, variant string) (m wasm.Module, ok bool) {
	defer releaseCopies(len(raw))
	return s.module(eng, func() js.Value { return s.obj.Call("load", bytesToJS(raw), variant) })
}

// module compiles the prepared module that call's Promise resolves to.
func (s jsModuleStore) module(eng wasm.Engine, call func() js.Value) (m wasm.Module, ok bool) {
	e, isHost := eng.(*Engine)
	if !isHost || e.isClosed() {
		return nil, false
	}
	defer func() {
		if recover() != nil { // load threw
			m, ok = nil, false
		}
	}()
	v, err := await(jsPromise.Call("resolve", call()))
	if err != nil || !(v.InstanceOf(jsArrayBuffer) || v.InstanceOf(jsUint8Array)) {
		return nil, false
	}
	mod, err := jsCompiler(!e.jspi && nested.depth() > 0)(v)
	if err != nil {
		return nil, false
	}
	secs := jsWebAssembly.Get("Module").Call("customSections", mod, preparedSection)
	if secs.Length() != 1 {
		return nil, false
	}
	u := jsUint8Array.New(secs.Index(0))
	desc := make([]byte, u.Length())
	js.CopyBytesToGo(desc, u)
	meta, err := decodeMeta(desc)
	if err != nil {
		return nil, false
	}
	if m, err = e.preparedModule(meta, mod); err != nil {
		return nil, false
	}
	return m, true
}

func (s jsModuleStore) Store(_ context.Context, raw []byte, variant string, b []byte) {
	defer releaseCopies(len(raw) + len(b))
	defer func() { _ = recover() }() // store threw
	_, _ = await(jsPromise.Call("resolve", s.obj.Call("store", bytesToJS(raw), variant, bytesToJS(b))))
}

// releaseMin is the size of the copies in JavaScript from which
// releaseCopies collects.
const releaseMin = 1 << 20

// releaseCopies lets JavaScript free the copies of a module's bytes that a
// finished call made there (n bytes in all), by collecting Go's garbage:
// a js.Value keeps its object alive until Go's collector finds it
// unreachable, and the core's small heap may go long without a cycle, so
// each tool module used to leave its bytes two or three times over in
// JavaScript (95 MB for python3). Modules are compiled once per engine,
// so this runs once per module, not per process.
func releaseCopies(n int) {
	if n >= releaseMin {
		runtime.GC()
	}
}

// digestMin is the size from which moduleSum hashes with Web Crypto: Go's
// SHA-256 compiled to WebAssembly takes about 28 ms per MB (a quarter of a
// second for python3's code), the host's native digest a few.
const digestMin = 1 << 20

// moduleSum returns the SHA-256 of bin, from the host's crypto.subtle
// when bin is large and the caller may wait for a Promise (not sync).
func moduleSum(bin []byte, sync bool) [sha256.Size]byte {
	if len(bin) >= digestMin && !sync {
		if sum, ok := subtleSum(bin); ok {
			return sum
		}
	}
	return sha256.Sum256(bin)
}

func subtleSum(bin []byte) (sum [sha256.Size]byte, ok bool) {
	defer func() {
		if recover() != nil { // no crypto.subtle, or digest threw
			ok = false
		}
	}()
	subtle := jsGlobal.Get("crypto").Get("subtle")
	if subtle.Type() != js.TypeObject {
		return sum, false
	}
	v, err := await(subtle.Call("digest", "SHA-256", bytesToJS(bin)))
	if err != nil || !v.InstanceOf(jsArrayBuffer) {
		return sum, false
	}
	u := jsUint8Array.New(v)
	if u.Length() != sha256.Size {
		return sum, false
	}
	js.CopyBytesToGo(sum[:], u)
	return sum, true
}
