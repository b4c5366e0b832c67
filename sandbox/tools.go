package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/wasmsand/wasmsand/wasm"
)

// manifestName is the file in a tools directory that maps each multi-call
// module to the commands it provides.
const manifestName = "manifest.json"

// toolSet knows which module provides each command, and loads modules
// lazily: the bytes are read the first time one of their commands runs.
type toolSet struct {
	fsys     fs.FS             // the tools; nil for none
	where    string            // how to name fsys in errors
	commands map[string]string // command name → module file name

	mu     sync.Mutex
	keys   map[string]moduleKey // module file name → its key in the module cache, less the memory cap
	placed map[string]bool      // module file name → its files are in the sandbox (toolfiles.go)
}

// loadToolSet reads the manifest of the tools in opts.Tools, or else in
// the host directory opts.ToolsDir, or else the platform's, and lists
// every other NAME.wasm as command NAME. No tools give an empty set (only
// shell builtins work).
func loadToolSet(ctx context.Context, opts Options, p Platform) (*toolSet, error) {
	ts := &toolSet{fsys: opts.Tools, where: "Options.Tools", commands: map[string]string{},
		keys: map[string]moduleKey{}, placed: map[string]bool{}}
	switch {
	case ts.fsys != nil:
	case opts.ToolsDir != "":
		// An absolute directory: the FS names the tools' identity in the
		// module cache (toolSet.key), which a relative name would not
		// once the process changes directory.
		dir, err := filepath.Abs(opts.ToolsDir)
		if err != nil {
			return nil, fmt.Errorf("sandbox: Options.ToolsDir: %w", err)
		}
		ts.fsys, ts.where = os.DirFS(dir), opts.ToolsDir
	default:
		fsys, err := p.Tools(ctx)
		if err != nil {
			return nil, fmt.Errorf("sandbox: the platform's tools: %w", err)
		}
		if fsys == nil {
			return ts, nil
		}
		ts.fsys, ts.where = fsys, "the platform's tools"
	}
	entries, err := fs.ReadDir(ts.fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("reading tools directory %s: %w (build the tools with `make build`, or set Options.ToolsDir)", ts.where, err)
	}
	inManifest := map[string]bool{}
	if b, err := fs.ReadFile(ts.fsys, manifestName); err == nil {
		m, ok := parseManifest(b)
		if !ok {
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, fmt.Errorf("tools manifest %s: %w", path.Join(ts.where, manifestName), err)
			}
		}
		for file, cmds := range m {
			inManifest[file] = true
			for _, c := range cmds {
				ts.commands[c] = file
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".wasm") || inManifest[name] {
			continue
		}
		ts.commands[strings.TrimSuffix(name, ".wasm")] = name
	}
	return ts, nil
}

// parseManifest reads a manifest written as the tool builders write it: an
// object of arrays of plain strings (no escapes, ASCII). It reports false
// for anything else, which json.Unmarshal then reads or words an error
// for. It exists for the js/wasm core, where the first json.Unmarshal
// (compiling encoding/json's decoder) is a few milliseconds of every
// start.
func parseManifest(b []byte) (map[string][]string, bool) {
	i := 0
	space := func() {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
			i++
		}
	}
	next := func(c byte) bool {
		space()
		if i < len(b) && b[i] == c {
			i++
			return true
		}
		return false
	}
	str := func() (string, bool) {
		if !next('"') {
			return "", false
		}
		start := i
		for ; i < len(b) && b[i] != '"'; i++ {
			if b[i] < 0x20 || b[i] >= 0x80 || b[i] == '\\' {
				return "", false
			}
		}
		if i == len(b) {
			return "", false
		}
		i++
		return string(b[start : i-1]), true
	}
	m := map[string][]string{}
	if !next('{') {
		return nil, false
	}
	for first := true; !next('}'); first = false {
		if !first && !next(',') {
			return nil, false
		}
		file, ok := str()
		if !ok || !next(':') || !next('[') {
			return nil, false
		}
		cmds := []string{}
		for firstCmd := true; !next(']'); firstCmd = false {
			if !firstCmd && !next(',') {
				return nil, false
			}
			c, ok := str()
			if !ok {
				return nil, false
			}
			cmds = append(cmds, c)
		}
		if _, dup := m[file]; dup {
			return nil, false
		}
		m[file] = cmds
	}
	space()
	return m, i == len(b)
}

// empty reports that the set has no commands at all.
func (ts *toolSet) empty() bool { return len(ts.commands) == 0 }

// names lists the commands, sorted.
func (ts *toolSet) names() []string {
	out := make([]string, 0, len(ts.commands))
	for c := range ts.commands {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// moduleBytes returns the raw bytes of the module providing command.
func (ts *toolSet) moduleBytes(command string) ([]byte, bool, error) {
	file, ok := ts.commands[command]
	if !ok {
		return nil, false, nil
	}
	b, err := ts.fileBytes(file)
	if err != nil {
		return nil, true, fmt.Errorf("loading tool %s: %w", command, err)
	}
	return b, true, nil
}

// fileBytes reads the module file. Its bytes are not kept: the module
// cache reads a module only to compile it, once per engine, and a tool
// set that held what it read would keep every module used (python3's is
// 30 MB) for the sandbox's life.
func (ts *toolSet) fileBytes(file string) ([]byte, error) {
	return fs.ReadFile(ts.fsys, file)
}

// ToolIdentifier may be implemented by the fs.FS of Options.Tools to name
// the bytes of a tool module without the sandbox reading them. Sandboxes
// in one process share the module compiled for a tool when their tools
// give it the same ID, so an ID must change whenever the bytes do. Without
// it, a comparable FS (os.DirFS, embed.FS) is named by its value and the
// file's size and modification time, and any other FS by the SHA-256 of
// the file's bytes, which costs a read and a hash per sandbox.
type ToolIdentifier interface {
	ToolID(name string) (string, error)
}

// key returns the module cache's key for the tool module file (its memory
// cap unset): sandboxes share a compiled module only when their tools
// hold the same bytes under that name, not merely the same name.
func (ts *toolSet) key(file string, memPages uint32) (moduleKey, error) {
	ts.mu.Lock()
	k, ok := ts.keys[file]
	ts.mu.Unlock()
	if !ok {
		var err error
		if k, err = ts.identify(file); err != nil {
			return moduleKey{}, fmt.Errorf("loading tool module %s: %w", file, err)
		}
		ts.mu.Lock()
		ts.keys[file] = k
		ts.mu.Unlock()
	}
	k.memPages = memPages
	return k, nil
}

func (ts *toolSet) identify(file string) (moduleKey, error) {
	k, err := ts.identifyBytes(file)
	if td, ok := ts.fsys.(ToolDigester); ok && err == nil {
		k.sum, k.declared = td.ToolDigest(file)
	}
	return k, err
}

func (ts *toolSet) identifyBytes(file string) (moduleKey, error) {
	name := "tool:" + file + "\x00"
	if ti, ok := ts.fsys.(ToolIdentifier); ok {
		id, err := ti.ToolID(file)
		if err != nil {
			return moduleKey{}, err
		}
		return moduleKey{src: reflect.TypeOf(ts.fsys), name: name + id}, nil
	}
	if reflect.ValueOf(ts.fsys).Comparable() {
		info, err := fs.Stat(ts.fsys, file)
		if err != nil {
			return moduleKey{}, err
		}
		return moduleKey{src: ts.fsys, name: fmt.Sprintf("%s%d.%d", name, info.Size(), info.ModTime().UnixNano())}, nil
	}
	b, err := ts.fileBytes(file)
	if err != nil {
		return moduleKey{}, err
	}
	sum := sha256.Sum256(b)
	return moduleKey{name: name + "sha256:" + hex.EncodeToString(sum[:])}, nil
}

// moduleName is the name a key gives its module in messages.
func moduleName(k moduleKey) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(k.name, "tool:"), "\x00")
	return name
}

// moduleCache compiles instrumented modules once per (bytes, options) and
// shares them between processes and sandboxes.
type moduleCache struct {
	store   ModuleStore // instrumented modules across processes; nil for none
	mu      sync.Mutex
	entries map[moduleKey]*moduleEntry
}

// instrumentVersion changes whenever the instrumenter's output for the same
// input may change, so stale cache files are never used.
const instrumentVersion = "6"

// instrumented returns raw instrumented, from the store when it has it
// under key (raw itself, or the tool file raw came from; see get):
// instrumenting a multi-megabyte tool takes a few hundred milliseconds,
// reading it back a few.
func (c *moduleCache) instrumented(ctx context.Context, key, raw []byte, memPages uint32, instrumentFn func([]byte) ([]byte, error)) ([]byte, error) {
	if c.store == nil {
		return instrumentFn(raw)
	}
	variant := storeVariant(memPages)
	if b, ok := c.store.Load(ctx, key, variant); ok {
		return b, nil
	}
	out, err := instrumentFn(raw)
	if err == nil {
		c.store.Store(ctx, key, variant, out)
	}
	return out, err
}

// compilePrepared compiles raw instrumented on an engine with a prepared
// form, which the store keeps under key (as instrumented does) in place
// of the instrumented bytes: a process that finds it there neither
// instruments nor prepares. A kept module that no longer compiles
// (damaged, or from a build whose checks have changed) is a miss.
func (c *moduleCache) compilePrepared(ctx context.Context, p wasm.Preparer, key, raw []byte, memPages uint32, instrumentFn func([]byte) ([]byte, error)) (wasm.Module, error) {
	variant := storeVariant(memPages) + "-" + p.PreparedFormat()
	if l, ok := c.store.(ModuleLoader); ok {
		if m, ok := l.LoadModule(ctx, p, key, variant); ok {
			return m, nil
		}
	}
	if c.store != nil {
		if b, ok := c.store.Load(ctx, key, variant); ok {
			if m, err := p.CompilePrepared(ctx, b); err == nil {
				return m, nil
			}
		}
	}
	inst, err := instrumentFn(raw)
	if err != nil {
		return nil, err
	}
	prepared, err := p.Prepare(ctx, inst)
	if err != nil {
		return nil, err
	}
	m, err := p.CompilePrepared(ctx, prepared)
	if err == nil && c.store != nil {
		c.store.Store(ctx, key, variant, prepared)
	}
	return m, err
}

// moduleKey names a module's bytes: a tool file and what identifies its
// bytes in its source of tools (toolSet.key), or the SHA-256 of bytes read
// from the VFS, plus the memory cap baked in by the instrumenter.
type moduleKey struct {
	src      any    // the tools' fs.FS, or its type for a ToolIdentifier; else nil
	name     string // "tool:FILE\x00ID" or "sha256:SUM"
	memPages uint32
	// sum is the SHA-256 of a tool file its source declares (declared;
	// see ToolDigester).
	sum      [sha256.Size]byte
	declared bool
}

func bytesKey(bin []byte, memPages uint32) moduleKey {
	sum := sha256.Sum256(bin)
	return moduleKey{name: "sha256:" + string(sum[:]), memPages: memPages}
}

type moduleEntry struct {
	once  sync.Once
	mod   wasm.Module
	files *toolFiles // the files the module carries (toolfiles.go), shared by every sandbox; nil for none
	// goRuntime is set for a module built by Go, whose runtime reports
	// running out of memory as a crash (see oomWatch).
	goRuntime bool
	err       error
}

func (c *moduleCache) get(ctx context.Context, eng wasm.Engine, key moduleKey, bin func() ([]byte, error), instrumentFn func([]byte) ([]byte, error)) (*moduleEntry, error) {
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[moduleKey]*moduleEntry{}
	}
	e, ok := c.entries[key]
	if !ok {
		e = &moduleEntry{}
		c.entries[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		ds, byDigest := c.store.(DigestStore)
		byDigest = byDigest && key.declared
		if byDigest {
			var ok bool
			if e.mod, e.files, e.goRuntime, ok = c.fromDigest(ctx, ds, eng, key.sum, key.memPages); ok {
				return
			}
		}
		file, err := bin()
		if err != nil {
			e.err = err
			return
		}
		raw, files := splitToolFiles(file)
		if files != nil {
			e.files = filesOfBytes(files)
		}
		e.goRuntime = builtByGo(raw)
		// The store keeps a module under the module's own bytes, so that a
		// tool rebuilt with other files still finds it; but a tool found by
		// digest has its module, files and description all kept under the
		// whole file, whose digest is the one declared.
		storeKey := raw
		if byDigest {
			if files != nil {
				storeKey = file
			}
			// Once the module is kept, a later process finds it by the
			// file's digest.
			defer func() {
				if e.err == nil {
					c.storeToolInfo(ctx, file, files, e.goRuntime)
				}
			}()
		}
		if p, ok := eng.(wasm.Preparer); ok {
			e.mod, e.err = c.compilePrepared(ctx, p, storeKey, raw, key.memPages, instrumentFn)
			return
		}
		inst, err := c.instrumented(ctx, storeKey, raw, key.memPages, instrumentFn)
		if err != nil {
			e.err = err
			return
		}
		e.mod, e.err = eng.Compile(ctx, inst)
	})
	if e.err != nil {
		// Do not cache failures caused by a cancelled context.
		if ctx.Err() != nil {
			c.mu.Lock()
			delete(c.entries, key)
			c.mu.Unlock()
		}
		return nil, e.err
	}
	return e, nil
}
