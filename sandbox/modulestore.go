package sandbox

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"

	"github.com/wasmsand/wasmsand/wasm"
)

// ModuleStore keeps instrumented guest modules across processes or page
// loads, so that a tool is instrumented once per machine or browser
// profile rather than once per process. On an engine that is a
// wasm.Preparer it keeps the engine's prepared form of the instrumented
// module, under a variant that names that form too. Options.CacheDir is the native
// one (files on disk); the browser loader passes one over the Cache API.
// A store is an optimisation: a failed Load is a miss, a failed Store is
// ignored.
//
// Keys are not computed by the core: hashing tens of megabytes in the
// js/wasm build takes most of a second, where the host's own digest (Web
// Crypto) takes milliseconds. A store derives the key from raw (for
// example its SHA-256) and variant, which names everything else the
// instrumented bytes depend on (the memory cap and the instrumenter's
// version).
type ModuleStore interface {
	// Load returns the instrumented module stored for raw and variant.
	Load(ctx context.Context, raw []byte, variant string) ([]byte, bool)
	// Store keeps instrumented, the module made from raw for variant.
	Store(ctx context.Context, raw []byte, variant string, instrumented []byte)
}

// A ModuleLoader is a ModuleStore that can hand a module it keeps to the
// engine itself, compiled, so that its bytes never pass through the core:
// in the JavaScript hosts, copying a ten-megabyte module into the core's
// memory and back costs more than reading it. LoadModule returns false for
// a miss, an engine it cannot hand modules to, or a kept module that does
// not compile; the sandbox then uses Load.
type ModuleLoader interface {
	LoadModule(ctx context.Context, eng wasm.Engine, raw []byte, variant string) (wasm.Module, bool)
}

// A DigestStore is a ModuleStore that also finds what it keeps by the
// SHA-256 of the raw module (the key its Load derives from raw) instead of
// by the module itself. For a tool whose source declares that digest (see
// ToolDigester), a store hit then reads no byte of the tool: in the
// JavaScript hosts that is a file read or a download of up to 30 MB and two
// copies through the core, about half of a tool's first start in a process
// or page.
type DigestStore interface {
	ModuleStore
	// LoadDigest is Load for the raw module whose SHA-256 is sum.
	LoadDigest(ctx context.Context, sum [sha256.Size]byte, variant string) ([]byte, bool)
	// LoadModuleDigest is ModuleLoader's LoadModule for the raw module
	// whose SHA-256 is sum; false where the store cannot hand modules to
	// eng.
	LoadModuleDigest(ctx context.Context, eng wasm.Engine, sum [sha256.Size]byte, variant string) (wasm.Module, bool)
}

// A DigestReaderStore is a DigestStore that can also give what it keeps
// to be read where it lies rather than copied into the core whole: the
// files a tool carries (python3's 22 MB library), of which the core then
// copies only those that commands open.
type DigestReaderStore interface {
	DigestStore
	// LoadDigestReader is LoadDigest as a reader of size bytes. The
	// reader must stay valid for as long as it is referenced, whatever
	// the store does afterwards.
	LoadDigestReader(ctx context.Context, sum [sha256.Size]byte, variant string) (r io.ReaderAt, size int64, ok bool)
}

// ToolDigester may be implemented by the fs.FS of Options.Tools to declare
// the SHA-256 of a tool module file without it being read (the npm
// package's loaders declare what its build wrote in tools/sha256.json). A
// DigestStore then gives the tool's module by that digest. A wrong digest
// only misses: what the store is searched by is kept under the digest that
// the store itself computed from the bytes the module was made from.
type ToolDigester interface {
	ToolDigest(name string) (sum [sha256.Size]byte, ok bool)
}

// toolInfoVariant is the variant under which a DigestStore keeps, for a
// tool file, what the sandbox would otherwise learn by reading it: whether
// Go built it, and whether it carries files (see toolfiles.go), which are
// then kept beside it under toolFilesVariant. Its bytes are toolInfoVersion
// and a flags byte. It is stored last, once the module and the files are
// kept: a process that finds it finds the rest, unless the store has since
// dropped an entry, which is a miss.
const (
	toolInfoVariant  = "toolinfo-v1"
	toolFilesVariant = "toolfiles-v1"
	toolInfoVersion  = 1
	infoGoRuntime    = 1 << 0
	infoFiles        = 1 << 1
)

// fromDigest returns the module kept in ds for the tool file whose
// SHA-256 is sum, the files it carries (nil for none) and whether Go
// built it, or false for a miss.
func (c *moduleCache) fromDigest(ctx context.Context, ds DigestStore, eng wasm.Engine, sum [sha256.Size]byte, memPages uint32) (m wasm.Module, files *toolFiles, goRuntime, ok bool) {
	info, ok := ds.LoadDigest(ctx, sum, toolInfoVariant)
	if !ok || len(info) != 2 || info[0] != toolInfoVersion || info[1]&^(infoGoRuntime|infoFiles) != 0 {
		return nil, nil, false, false
	}
	goRuntime = info[1]&infoGoRuntime != 0
	if info[1]&infoFiles != 0 {
		// The files first: a miss there spares compiling the module.
		if files, ok = loadFiles(ctx, ds, sum); !ok {
			return nil, nil, false, false
		}
	}
	if p, ok := eng.(wasm.Preparer); ok {
		variant := storeVariant(memPages) + "-" + p.PreparedFormat()
		if m, ok := ds.LoadModuleDigest(ctx, p, sum, variant); ok {
			return m, files, goRuntime, true
		}
		if b, ok := ds.LoadDigest(ctx, sum, variant); ok {
			if m, err := p.CompilePrepared(ctx, b); err == nil {
				return m, files, goRuntime, true
			}
		}
		return nil, nil, false, false
	}
	b, ok := ds.LoadDigest(ctx, sum, storeVariant(memPages))
	if !ok {
		return nil, nil, false, false
	}
	if m, err := eng.Compile(ctx, b); err == nil {
		return m, files, goRuntime, true
	}
	return nil, nil, false, false
}

// loadFiles returns the files kept for the tool file whose SHA-256 is sum:
// read in place where ds can give them so. Kept files whose directory does
// not read (a damaged entry) are a miss: the tool is then read, and its
// files kept again over them.
func loadFiles(ctx context.Context, ds DigestStore, sum [sha256.Size]byte) (*toolFiles, bool) {
	var tf *toolFiles
	if rs, ok := ds.(DigestReaderStore); ok {
		r, n, ok := rs.LoadDigestReader(ctx, sum, toolFilesVariant)
		if !ok {
			return nil, false
		}
		tf = &toolFiles{r: r, n: n}
	} else {
		b, ok := ds.LoadDigest(ctx, sum, toolFilesVariant)
		if !ok {
			return nil, false
		}
		tf = filesOfBytes(b)
	}
	if _, _, err := tf.list(); err != nil {
		return nil, false
	}
	return tf, true
}

// storeToolInfo keeps, for a tool file read in full (file) whose module
// is kept, what fromDigest needs to find it by digest later: the files it
// carries (from splitToolFiles; nil for none), then its description.
func (c *moduleCache) storeToolInfo(ctx context.Context, file, files []byte, goRuntime bool) {
	flags := byte(0)
	if goRuntime {
		flags |= infoGoRuntime
	}
	if files != nil {
		c.store.Store(ctx, file, toolFilesVariant, files)
		flags |= infoFiles
	}
	c.store.Store(ctx, file, toolInfoVariant, []byte{toolInfoVersion, flags})
}

// storeVariant names what instrumented bytes depend on besides the raw
// module.
func storeVariant(memPages uint32) string {
	return fmt.Sprintf("%d-v%s", memPages, instrumentVersion)
}
