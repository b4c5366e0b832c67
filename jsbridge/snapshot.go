//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"github.com/wasmsand/wasmsand/platform/browser"
	"github.com/wasmsand/wasmsand/sandbox"
)

// isAsync names the API functions that return a Promise, so that guard
// rejects it rather than returning an error.
var isAsync = map[string]bool{
	"restore": true, "fork": true, "save": true, "load": true, "list": true, "delete": true,
}

// add registers sb, made with opts, and returns its id.
func (a *api) add(sb *sandbox.Sandbox, opts sandbox.Options) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.nextID++
	a.sandboxes[a.nextID] = &jsSandbox{sb: sb, opts: opts, runs: map[*context.CancelCauseFunc]struct{}{}}
	return a.nextID
}

// snapshot(id) → Uint8Array of the sandbox's snapshot.
func (a *api) snapshot(args []js.Value) any {
	return a.sync(args, func(s *jsSandbox) (any, error) {
		b, err := s.sb.Snapshot()
		if err != nil {
			return nil, err
		}
		return bytesToJS(b), nil
	})
}

// restore(bytes, options) → Promise<id>.
func (a *api) restore(args []js.Value) any {
	b, err := bytesArg("Sandbox.restore: the snapshot", arg(args, 0))
	if err != nil {
		return jsPromise.Call("reject", a.jsErr(err))
	}
	opts, err := parseOptions(arg(args, 1))
	if err != nil {
		return jsPromise.Call("reject", a.jsErr(err))
	}
	return a.goPromise(func() (any, error) {
		sb, err := sandbox.Restore(context.Background(), b, opts)
		if err != nil {
			return nil, err
		}
		return a.add(sb, opts), nil
	})
}

// fork(id) → Promise<id>.
func (a *api) fork(args []js.Value) any {
	s, err := a.lookup(args)
	if err != nil {
		return jsPromise.Call("reject", a.jsErr(err))
	}
	return a.goPromise(func() (any, error) {
		sb, err := s.sb.Fork(context.Background())
		if err != nil {
			return nil, err
		}
		return a.add(sb, s.opts), nil
	})
}

// save(id, name) → Promise: the snapshot into the sandbox's store.
func (a *api) save(args []js.Value) any {
	s, err := a.lookup(args)
	if err != nil {
		return jsPromise.Call("reject", a.jsErr(err))
	}
	name := arg(args, 1)
	if name.Type() != js.TypeString {
		return jsPromise.Call("reject", a.jsErr(argErrorf("save: the name must be a string")))
	}
	return a.goPromise(func() (any, error) {
		return nil, s.sb.Save(context.Background(), name.String())
	})
}

// load(name, options) → Promise<id>.
func (a *api) load(args []js.Value) any {
	name := arg(args, 0)
	if name.Type() != js.TypeString {
		return jsPromise.Call("reject", a.jsErr(argErrorf("Sandbox.load: the name must be a string")))
	}
	opts, err := parseOptions(arg(args, 1))
	if err != nil {
		return jsPromise.Call("reject", a.jsErr(err))
	}
	return a.goPromise(func() (any, error) {
		sb, err := sandbox.Load(context.Background(), name.String(), opts)
		if err != nil {
			return nil, err
		}
		return a.add(sb, opts), nil
	})
}

// list(options) → Promise<[{name, size, modified}]> (modified: ms since
// the epoch).
func (a *api) list(args []js.Value) any {
	opts, err := parseOptions(arg(args, 0))
	if err != nil {
		return jsPromise.Call("reject", a.jsErr(err))
	}
	if opts.Store == nil {
		return jsPromise.Call("reject", a.jsErr(sandbox.ErrNoStore))
	}
	return a.goPromise(func() (any, error) {
		list, err := opts.Store.List(context.Background())
		if err != nil {
			return nil, err
		}
		out := make([]any, len(list))
		for i, e := range list {
			out[i] = map[string]any{"name": e.Name, "size": e.Size, "modified": e.Modified.UnixMilli()}
		}
		return out, nil
	})
}

// deleteSaved(name, options) → Promise.
func (a *api) deleteSaved(args []js.Value) any {
	name := arg(args, 0)
	if name.Type() != js.TypeString {
		return jsPromise.Call("reject", a.jsErr(argErrorf("Sandbox.delete: the name must be a string")))
	}
	opts, err := parseOptions(arg(args, 1))
	if err != nil {
		return jsPromise.Call("reject", a.jsErr(err))
	}
	if opts.Store == nil {
		return jsPromise.Call("reject", a.jsErr(sandbox.ErrNoStore))
	}
	return a.goPromise(func() (any, error) {
		return nil, opts.Store.Delete(context.Background(), name.String())
	})
}

// defaultStore is the loader's host.defaultStore(options), if it gave one.
var defaultStore = js.Undefined()

// parseStoreOptions reads options.store (an object the loader gives:
// {put, get, list, delete}, or the string "indexeddb" in a browser) and
// options.persist (a name).
func parseStoreOptions(o js.Value, opts *sandbox.Options) error {
	if p := o.Get("persist"); !p.IsUndefined() && !p.IsNull() {
		if p.Type() != js.TypeString {
			return argErrorf("Sandbox.create: options.persist must be a string")
		}
		if err := sandbox.CheckName(p.String()); err != nil {
			return &argError{err.Error()}
		}
		opts.Persist = p.String()
	}
	st := o.Get("store")
	if (st.IsUndefined() || st.IsNull()) && defaultStore.Type() == js.TypeFunction {
		// The loader's store for options that name none: files under
		// options.storeDir in Node, "indexeddb" in a browser.
		st = defaultStore.Invoke(o)
	}
	switch {
	case st.IsUndefined() || st.IsNull():
	case st.Type() == js.TypeString && st.String() == "indexeddb":
		opts.Store = browser.IDBStore("wasmsand")
	case st.Type() == js.TypeObject:
		for _, m := range []string{"put", "get", "list", "delete"} {
			if st.Get(m).Type() != js.TypeFunction {
				return argErrorf("Sandbox.create: options.store must have a %s method", m)
			}
		}
		opts.Store = jsStore{st}
	default:
		return argErrorf("Sandbox.create: options.store must be a store object")
	}
	return nil
}

// jsStore is a sandbox.Store over a JavaScript object whose methods return
// Promises: put(name, Uint8Array), get(name) → Uint8Array or null,
// list() → [{name, size, modified}], delete(name) → whether it existed.
// A rejection whose code is QUOTA_EXCEEDED (or whose name is
// QuotaExceededError) becomes sandbox.ErrQuota. The Node loader passes
// one over node:fs; nothing here touches the host's files itself.
type jsStore struct{ v js.Value }

func (s jsStore) call(op, name string, args ...any) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil { // the method threw
			err = &sandbox.StoreError{Op: op, Name: name, Err: fmt.Errorf("%v", r)}
		}
	}()
	v, err = await(jsPromise.Call("resolve", s.v.Call(op, args...)))
	if err != nil {
		var je *jsError
		if errors.As(err, &je) && isQuotaValue(je.Thrown()) {
			err = fmt.Errorf("%w (%v)", sandbox.ErrQuota, err)
		}
		return v, &sandbox.StoreError{Op: op, Name: name, Err: err}
	}
	return v, nil
}

func isQuotaValue(v js.Value) bool {
	if v.Type() != js.TypeObject {
		return false
	}
	c, n := v.Get("code"), v.Get("name")
	return c.Type() == js.TypeString && (c.String() == codeQuota || c.String() == "ENOSPC" || c.String() == "EDQUOT") ||
		n.Type() == js.TypeString && n.String() == "QuotaExceededError"
}

func (s jsStore) Put(ctx context.Context, name string, data []byte) error {
	if err := sandbox.CheckName(name); err != nil {
		return &sandbox.StoreError{Op: "put", Name: name, Err: err}
	}
	_, err := s.call("put", name, name, bytesToJS(data))
	return err
}

func (s jsStore) Get(ctx context.Context, name string) ([]byte, error) {
	if err := sandbox.CheckName(name); err != nil {
		return nil, &sandbox.StoreError{Op: "get", Name: name, Err: err}
	}
	v, err := s.call("get", name, name)
	if err != nil {
		return nil, err
	}
	if v.IsNull() || v.IsUndefined() {
		return nil, &sandbox.StoreError{Op: "get", Name: name, Err: sandbox.ErrNotFound}
	}
	if v.InstanceOf(jsArrayBuffer) {
		v = jsUint8Array.New(v)
	}
	if !v.InstanceOf(jsUint8Array) {
		return nil, &sandbox.StoreError{Op: "get", Name: name, Err: fmt.Errorf("the store gave %s, not a Uint8Array", jsString(v))}
	}
	b := make([]byte, v.Length())
	js.CopyBytesToGo(b, v)
	return b, nil
}

func (s jsStore) List(ctx context.Context) ([]sandbox.StoreEntry, error) {
	v, err := s.call("list", "")
	if err != nil {
		return nil, err
	}
	var out []sandbox.StoreEntry
	for i := 0; i < v.Length(); i++ {
		e := v.Index(i)
		out = append(out, sandbox.StoreEntry{
			Name:     e.Get("name").String(),
			Size:     int64(e.Get("size").Float()),
			Modified: time.UnixMilli(int64(e.Get("modified").Float())),
		})
	}
	return out, nil
}

func (s jsStore) Delete(ctx context.Context, name string) error {
	if err := sandbox.CheckName(name); err != nil {
		return &sandbox.StoreError{Op: "delete", Name: name, Err: err}
	}
	v, err := s.call("delete", name, name)
	if err != nil {
		return err
	}
	if v.Type() == js.TypeBoolean && !v.Bool() {
		return &sandbox.StoreError{Op: "delete", Name: name, Err: sandbox.ErrNotFound}
	}
	return nil
}
