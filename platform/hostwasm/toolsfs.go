//go:build js && wasm

package hostwasm

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"time"
)

// toolsFS is a flat, read-only fs.FS over a JavaScript object mapping file
// names to Uint8Array (or ArrayBuffer) contents, or to functions returning
// a Promise of them. Bytes are copied into Go only when a file is read,
// and a function is called only then, so tools that never run cost
// nothing: the browser loader passes functions that fetch the module on
// first use.
//
// It names its files' bytes for the sandbox's module cache (ToolID) by
// the identity of the JavaScript object holding them, so sandboxes given
// the same Uint8Array or ArrayBuffer share the module compiled from it; a
// loader function with an id property (a non-empty string) is named by
// that instead, without calling it. The package's loaders carry one (the
// file's URL, size and modification time): their bytes are then not kept
// once read, since the module cache reads a module only to compile it,
// where holding them kept every tool used in memory twice (87 MB for
// python3, yq and node).
type toolsFS struct {
	mu     sync.Mutex
	files  map[string]js.Value // name → Uint8Array, or loader function until called (always, with an id)
	origin map[string]js.Value // name → the object given (Uint8Array or ArrayBuffer), once known
	ids    map[string]string   // name → its loader's id ("" for none), once read (loaderID)
	names  []string            // sorted
}

// bytesIDs numbers the objects holding tool bytes, for ToolID: a WeakMap
// from each Uint8Array or ArrayBuffer to its number, so a number is never
// reused while its object lives and an object dropped costs nothing.
var bytesIDs struct {
	sync.Mutex
	m    js.Value
	last int
}

// newToolsFS snapshots obj's own enumerable properties. It reports the
// first value that is neither bytes nor a function.
func newToolsFS(obj js.Value) (*toolsFS, string) {
	t := &toolsFS{files: map[string]js.Value{}, origin: map[string]js.Value{}, ids: map[string]string{}}
	keys := jsObject.Call("keys", obj)
	for k := range keys.Length() {
		name := keys.Index(k).String()
		v := obj.Get(name)
		orig := v
		switch {
		case v.InstanceOf(jsUint8Array):
		case v.InstanceOf(jsArrayBuffer):
			v = jsUint8Array.New(v)
		case v.Type() == js.TypeFunction:
		default:
			return nil, name
		}
		if !fs.ValidPath(name) || name == "." {
			return nil, name
		}
		t.files[name] = v
		if v.Type() != js.TypeFunction {
			t.origin[name] = orig
		}
		t.names = append(t.names, name)
	}
	slices.Sort(t.names)
	return t, ""
}

// ReadFile returns a copy of the file's bytes. For a loader function it
// awaits the function's Promise, so it must not be called from a js.FuncOf
// callback (the sandbox reads tools on its own goroutines).
func (t *toolsFS) ReadFile(name string) ([]byte, error) {
	v, _, err := t.bytes(name)
	if err != nil {
		return nil, err
	}
	b := make([]byte, v.Length())
	js.CopyBytesToGo(b, v)
	return b, nil
}

// ToolID implements sandbox.ToolIdentifier: the id of the file's loader
// function if it has one, else the number of the JavaScript object holding
// the file's bytes. Like ReadFile it then calls a loader function, once:
// both then see the bytes it gave.
func (t *toolsFS) ToolID(name string) (string, error) {
	if named := t.loaderID(name); named != "" {
		return "id:" + named, nil
	}
	_, orig, err := t.bytes(name)
	if err != nil {
		return "", err
	}
	bytesIDs.Lock()
	defer bytesIDs.Unlock()
	if bytesIDs.m.IsUndefined() {
		bytesIDs.m = js.Global().Get("WeakMap").New()
	}
	id := bytesIDs.m.Call("get", orig)
	if id.IsUndefined() {
		bytesIDs.last++
		id = js.ValueOf(bytesIDs.last)
		bytesIDs.m.Call("set", orig, id)
	}
	return strconv.Itoa(id.Int()), nil
}

// ToolDigest implements sandbox.ToolDigester: the sha256 property of the
// file's loader function, a lowercase hex SHA-256 (the package's loaders
// set it from tools/sha256.json), so that a store can give the tool's
// module without the loader being called.
func (t *toolsFS) ToolDigest(name string) (sum [sha256.Size]byte, ok bool) {
	t.mu.Lock()
	v := t.files[name]
	t.mu.Unlock()
	if v.Type() != js.TypeFunction {
		return sum, false
	}
	s := jsStringProperty(v, "sha256")
	if len(s) != hex.EncodedLen(sha256.Size) || strings.ToLower(s) != s {
		return sum, false
	}
	if _, err := hex.Decode(sum[:], []byte(s)); err != nil {
		return sum, false
	}
	return sum, true
}

// loaderID returns the id of the file's loader function, or "" if it has
// none (or the file is bytes). It reads the property once, when the file
// is first named or read, so a loader may compute it on demand (the
// package's stat the file then).
func (t *toolsFS) loaderID(name string) string {
	t.mu.Lock()
	id, ok := t.ids[name]
	v := t.files[name]
	t.mu.Unlock()
	if ok || v.Type() != js.TypeFunction {
		return id
	}
	id = jsLoaderID(v)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ids[name] = id
	return id
}

// jsLoaderID reads fn.id: a string, else "" (also when reading it threw).
// It reads through Reflect.get: js.Value.Get does not catch what a getter
// throws, which would end the whole core.
func jsLoaderID(fn js.Value) string { return jsStringProperty(fn, "id") }

// jsStringProperty reads fn[key]: a string, else "" (also when reading it
// threw).
func jsStringProperty(fn js.Value, key string) (s string) {
	defer func() {
		if recover() != nil { // a getter that threw
			s = ""
		}
	}()
	if p := jsGlobal.Get("Reflect").Call("get", fn, key); p.Type() == js.TypeString {
		return p.String()
	}
	return ""
}

// bytes returns the file's Uint8Array and the object it came as, calling
// its loader function the first time.
func (t *toolsFS) bytes(name string) (v, orig js.Value, err error) {
	t.mu.Lock()
	v, ok := t.files[name]
	orig = t.origin[name]
	t.mu.Unlock()
	if !ok {
		return v, orig, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if v.Type() != js.TypeFunction {
		return v, orig, nil
	}
	// The loader is called outside the lock (it awaits); if two callers
	// race, the first to finish is kept.
	if v, orig, err = loadTool(v, name); err != nil {
		return v, orig, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if t.loaderID(name) != "" {
		return v, orig, nil // named by its id: not kept
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if cur := t.files[name]; cur.Type() != js.TypeFunction {
		return cur, t.origin[name], nil
	}
	t.files[name], t.origin[name] = v, orig
	return v, orig, nil
}

// loadTool calls a loader function and awaits the bytes it gives: a
// Uint8Array, and the object it gave them as.
func loadTool(fn js.Value, name string) (v, orig js.Value, err error) {
	defer func() {
		if r := recover(); r != nil { // the function threw
			err = fmt.Errorf("%v", r)
		}
	}()
	if v, err = await(jsPromise.Call("resolve", fn.Invoke(name))); err != nil {
		return v, v, err
	}
	orig = v
	switch {
	case v.InstanceOf(jsUint8Array):
	case v.InstanceOf(jsArrayBuffer):
		v = jsUint8Array.New(v)
	default:
		return v, v, fmt.Errorf("the tool loader gave %s, not a Uint8Array or ArrayBuffer", jsString(v))
	}
	return v, orig, nil
}

// ReadDir lists the files; a file not loaded yet has size 0.
func (t *toolsFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name != "." {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	out := make([]fs.DirEntry, len(t.names))
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, n := range t.names {
		var size int64
		if v := t.files[n]; v.Type() != js.TypeFunction {
			size = int64(v.Length())
		}
		out[k] = toolInfo{name: n, size: size}
	}
	return out, nil
}

func (t *toolsFS) Open(name string) (fs.File, error) {
	if name == "." {
		ents, _ := t.ReadDir(".")
		return &toolDir{ents: ents}, nil
	}
	b, err := t.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return &toolFile{info: toolInfo{name: name, size: int64(len(b))}, data: b}, nil
}

// toolInfo describes one file, or the root when isDir.
type toolInfo struct {
	name  string
	size  int64
	isDir bool
}

func (i toolInfo) Name() string               { return i.name }
func (i toolInfo) Size() int64                { return i.size }
func (i toolInfo) ModTime() time.Time         { return time.Time{} }
func (i toolInfo) IsDir() bool                { return i.isDir }
func (i toolInfo) Sys() any                   { return nil }
func (i toolInfo) Type() fs.FileMode          { return i.Mode().Type() }
func (i toolInfo) Info() (fs.FileInfo, error) { return i, nil }
func (i toolInfo) Mode() fs.FileMode {
	if i.isDir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}

type toolFile struct {
	info toolInfo
	data []byte
	off  int
}

func (f *toolFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *toolFile) Close() error               { return nil }
func (f *toolFile) Read(p []byte) (int, error) {
	if f.off >= len(f.data) {
		return 0, io.EOF
	}
	n := copy(p, f.data[f.off:])
	f.off += n
	return n, nil
}

type toolDir struct {
	ents []fs.DirEntry
	off  int
}

func (d *toolDir) Stat() (fs.FileInfo, error) { return toolInfo{name: ".", isDir: true}, nil }
func (d *toolDir) Close() error               { return nil }
func (d *toolDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: ".", Err: fs.ErrInvalid}
}

func (d *toolDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.ents[d.off:]
	if n <= 0 {
		d.off = len(d.ents)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	rest = rest[:min(n, len(rest))]
	d.off += len(rest)
	return rest, nil
}
