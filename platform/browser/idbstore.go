//go:build js && wasm

package browser

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/hack-pad/safejs"

	"github.com/wasmsand/wasmsand/sandbox"
)

// idbStore is a sandbox.Store in the browser's IndexedDB: database
// "wasmsand", object store "snapshots", one record {data, size, modified}
// per name. A Put is one readwrite transaction, which IndexedDB commits
// whole or not at all, so a failed Put (QuotaExceededError included)
// leaves the previous record as it was.
type idbStore struct {
	dbName string
	once   sync.Once
	db     safejs.Value
	err    error
}

const idbObjects = "snapshots"

var (
	idbMu     sync.Mutex
	idbStores = map[string]*idbStore{}
)

// IDBStore returns the sandbox.Store over the IndexedDB database name
// (one per name and process).
func IDBStore(name string) sandbox.Store {
	idbMu.Lock()
	defer idbMu.Unlock()
	s := idbStores[name]
	if s == nil {
		s = &idbStore{dbName: name}
		idbStores[name] = s
	}
	return s
}

// idbWait waits for one of the events ok or "error"/"abort" on target and
// returns the target's error for the latter.
func idbWait(target safejs.Value, ok string, setup func() error) error {
	ch := make(chan string, 1)
	var funcs []safejs.Func
	for _, ev := range []string{ok, "error", "abort"} {
		ev := ev
		f, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
			select {
			case ch <- ev:
			default:
			}
			return nil
		})
		if err != nil {
			return err
		}
		funcs = append(funcs, f)
		if err := target.Set("on"+ev, f.Value()); err != nil {
			return err
		}
	}
	defer func() {
		for _, f := range funcs {
			f.Release()
		}
	}()
	if setup != nil {
		if err := setup(); err != nil {
			return err
		}
	}
	if ev := <-ch; ev != ok {
		return idbError(target)
	}
	return nil
}

// idbError describes the error of a failed request or transaction,
// matching sandbox.ErrQuota for a QuotaExceededError.
func idbError(target safejs.Value) error {
	e, err := target.Get("error")
	if err != nil || e.IsNull() || e.IsUndefined() {
		return errors.New("IndexedDB: the operation failed")
	}
	name, _ := e.Get("name")
	msg, _ := e.Get("message")
	n, _ := name.String()
	m, _ := msg.String()
	if n == "QuotaExceededError" {
		return fmt.Errorf("%w (IndexedDB: %s)", sandbox.ErrQuota, m)
	}
	return fmt.Errorf("IndexedDB %s: %s", n, m)
}

func (s *idbStore) open() (safejs.Value, error) {
	s.once.Do(func() {
		s.err = func() error {
			idb, err := safejs.Global().Get("indexedDB")
			if err != nil || idb.IsUndefined() || idb.IsNull() {
				return errors.New("IndexedDB is not available here")
			}
			req, err := idb.Call("open", s.dbName, 1)
			if err != nil {
				return err
			}
			upgrade, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
				if db, err := req.Get("result"); err == nil {
					db.Call("createObjectStore", idbObjects)
				}
				return nil
			})
			if err != nil {
				return err
			}
			defer upgrade.Release()
			if err := req.Set("onupgradeneeded", upgrade.Value()); err != nil {
				return err
			}
			if err := idbWait(req, "success", nil); err != nil {
				return err
			}
			s.db, err = req.Get("result")
			return err
		}()
	})
	return s.db, s.err
}

// tx runs fn in a transaction over the object store and waits for it to
// complete; fn returns the request whose result is wanted (or a zero
// Value).
func (s *idbStore) tx(mode string, fn func(objs safejs.Value) (safejs.Value, error)) (safejs.Value, error) {
	db, err := s.open()
	if err != nil {
		return safejs.Undefined(), err
	}
	t, err := db.Call("transaction", idbObjects, mode)
	if err != nil {
		return safejs.Undefined(), err
	}
	var req safejs.Value
	err = idbWait(t, "complete", func() error {
		objs, err := t.Call("objectStore", idbObjects)
		if err != nil {
			return err
		}
		req, err = fn(objs)
		return err
	})
	if err != nil {
		return safejs.Undefined(), err
	}
	if req.IsUndefined() {
		return req, nil
	}
	return req.Get("result")
}

func storeErrOf(op, name string, err error) error {
	if err == nil {
		return nil
	}
	return &sandbox.StoreError{Op: op, Name: name, Err: err}
}

func (s *idbStore) Put(ctx context.Context, name string, data []byte) error {
	if err := sandbox.CheckName(name); err != nil {
		return storeErrOf("put", name, err)
	}
	_, err := s.tx("readwrite", func(objs safejs.Value) (safejs.Value, error) {
		rec, err := safejs.Global().Get("Object")
		if err != nil {
			return safejs.Undefined(), err
		}
		if rec, err = rec.New(); err != nil {
			return safejs.Undefined(), err
		}
		arr, err := safejs.Global().Get("Uint8Array")
		if err != nil {
			return safejs.Undefined(), err
		}
		if arr, err = arr.New(len(data)); err != nil {
			return safejs.Undefined(), err
		}
		if _, err := safejs.CopyBytesToJS(arr, data); err != nil {
			return safejs.Undefined(), err
		}
		rec.Set("data", arr)
		rec.Set("size", len(data))
		rec.Set("modified", float64(time.Now().UnixMilli()))
		_, err = objs.Call("put", rec, name)
		return safejs.Undefined(), err
	})
	return storeErrOf("put", name, err)
}

func (s *idbStore) Get(ctx context.Context, name string) ([]byte, error) {
	if err := sandbox.CheckName(name); err != nil {
		return nil, storeErrOf("get", name, err)
	}
	rec, err := s.tx("readonly", func(objs safejs.Value) (safejs.Value, error) {
		return objs.Call("get", name)
	})
	if err != nil {
		return nil, storeErrOf("get", name, err)
	}
	if rec.IsUndefined() || rec.IsNull() {
		return nil, storeErrOf("get", name, sandbox.ErrNotFound)
	}
	data, err := rec.Get("data")
	if err != nil {
		return nil, storeErrOf("get", name, err)
	}
	n, err := data.Length()
	if err != nil {
		return nil, storeErrOf("get", name, err)
	}
	b := make([]byte, n)
	if _, err := safejs.CopyBytesToGo(b, data); err != nil {
		return nil, storeErrOf("get", name, err)
	}
	return b, nil
}

func (s *idbStore) List(ctx context.Context) ([]sandbox.StoreEntry, error) {
	var keys, recs safejs.Value
	_, err := s.tx("readonly", func(objs safejs.Value) (safejs.Value, error) {
		var err error
		if keys, err = objs.Call("getAllKeys"); err != nil {
			return safejs.Undefined(), err
		}
		recs, err = objs.Call("getAll")
		return safejs.Undefined(), err
	})
	if err != nil {
		return nil, storeErrOf("list", "", err)
	}
	kv, _ := keys.Get("result")
	rv, _ := recs.Get("result")
	n, _ := kv.Length()
	var out []sandbox.StoreEntry
	for i := 0; i < n; i++ {
		k, _ := kv.Index(i)
		r, _ := rv.Index(i)
		name, _ := k.String()
		size, _ := r.Get("size")
		mod, _ := r.Get("modified")
		sz, _ := size.Float()
		ms, _ := mod.Float()
		out = append(out, sandbox.StoreEntry{Name: name, Size: int64(sz), Modified: time.UnixMilli(int64(ms))})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (s *idbStore) Delete(ctx context.Context, name string) error {
	if err := sandbox.CheckName(name); err != nil {
		return storeErrOf("delete", name, err)
	}
	var count safejs.Value
	_, err := s.tx("readwrite", func(objs safejs.Value) (safejs.Value, error) {
		var err error
		if count, err = objs.Call("count", name); err != nil {
			return safejs.Undefined(), err
		}
		_, err = objs.Call("delete", name)
		return safejs.Undefined(), err
	})
	if err != nil {
		return storeErrOf("delete", name, err)
	}
	if c, _ := count.Get("result"); c.Type() == safejs.TypeNumber {
		if n, _ := c.Int(); n == 0 {
			return storeErrOf("delete", name, sandbox.ErrNotFound)
		}
	}
	return nil
}
