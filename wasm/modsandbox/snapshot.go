package modsandbox

import (
	"context"
	"encoding/binary"
	"hash/crc32"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/instrument"
)

// Snapshot format, version 1, all numbers little-endian:
//
//	offset size
//	0      4    magic "WSNP"
//	4      2    version (1)
//	6      2    flags (0)
//	8      32   SHA-256 of the instrumented module
//	40     8    gas used by every execution so far
//	48     8    event timestamp
//	56     4    PRNG state
//	60     4    number of globals G
//	64     4    memory size in bytes M (a multiple of 64 KiB)
//	68     12·G globals: index u32, raw value u64, in index order
//	…      M    linear memory
//	…      4    CRC-32C of every byte before it
const (
	snapshotMagic   = "WSNP"
	SnapshotVersion = 1
	headerSize      = 68
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Snapshot returns the instance's state: memory, mutable globals, PRNG
// state, gas used and timestamp, tied to the module by its hash. The
// instance must be loaded or suspended.
func (in *Instance) Snapshot() ([]byte, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if err := in.require("snapshot", StatusLoaded, StatusSuspended); err != nil {
		return nil, err
	}
	if in.status == StatusSuspended {
		return append([]byte(nil), in.suspended...), nil
	}
	return in.snapshotLocked()
}

func (in *Instance) snapshotLocked() ([]byte, error) {
	var mem []byte
	if m := in.cur.Memory(); m != nil {
		var ok bool
		if mem, ok = m.Read(0, m.Size()); !ok {
			return nil, snapshotError("memory", "cannot read the instance's memory")
		}
	} else if in.info.hasMemory {
		return nil, snapshotError("memory", "the engine gives no access to the module's memory")
	}
	globals := in.info.globals
	b := make([]byte, headerSize+12*len(globals), headerSize+12*len(globals)+len(mem)+4)
	copy(b, snapshotMagic)
	le := binary.LittleEndian
	le.PutUint16(b[4:], SnapshotVersion)
	copy(b[8:40], in.info.hash[:])
	le.PutUint64(b[40:], in.metrics.GasUsed)
	le.PutUint64(b[48:], uint64(in.timestamp))
	le.PutUint32(b[56:], in.prng)
	le.PutUint32(b[60:], uint32(len(globals)))
	le.PutUint32(b[64:], uint32(len(mem)))
	p := headerSize
	for _, name := range globals {
		v, ok := in.cur.Global(name)
		if !ok {
			return nil, snapshotError("globals", "the instance has no global "+name)
		}
		le.PutUint32(b[p:], globalIndex(name))
		le.PutUint64(b[p+4:], v)
		p += 12
	}
	b = append(b, mem...)
	return le.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

func globalIndex(name string) uint32 {
	var n uint32
	for _, c := range name[len(instrument.GlobalPrefix):] {
		n = n*10 + uint32(c-'0')
	}
	return n
}

// Restore replaces the instance's state by a snapshot of the same module,
// in a fresh instance of it. The instance must be loaded or suspended; it
// ends loaded. A snapshot that fails a check leaves the instance as it
// was and returns CodeSnapshotError naming the check.
func (in *Instance) Restore(ctx context.Context, snap []byte) error {
	in.mu.Lock()
	if err := in.require("restore", StatusLoaded, StatusSuspended); err != nil {
		in.mu.Unlock()
		return err
	}
	return in.restore(ctx, snap, "restore")
}

// snapshotState is a parsed snapshot.
type snapshotState struct {
	gas       uint64
	timestamp int64
	prng      uint32
	globals   []byte // 12 bytes each
	mem       []byte
}

// parseSnapshot runs every check that needs only the bytes and the module.
func (in *Instance) parseSnapshot(snap []byte) (*snapshotState, *Error) {
	le := binary.LittleEndian
	if len(snap) < 4 || string(snap[:4]) != snapshotMagic {
		if len(snap) < 4 {
			return nil, snapshotError("length", "the snapshot is truncated")
		}
		return nil, snapshotError("magic", "not a wasmsand snapshot (no WSNP magic)")
	}
	if len(snap) < headerSize+4 {
		return nil, snapshotError("length", "the snapshot is truncated")
	}
	if v := le.Uint16(snap[4:]); v != SnapshotVersion {
		return nil, snapshotError("version", "snapshot version "+itoa(int(v))+", this build reads version "+itoa(SnapshotVersion))
	}
	nGlobals, memSize := uint64(le.Uint32(snap[60:])), uint64(le.Uint32(snap[64:]))
	if want := headerSize + 12*nGlobals + memSize + 4; uint64(len(snap)) != want {
		if uint64(len(snap)) < want {
			return nil, snapshotError("length", "the snapshot is truncated")
		}
		return nil, snapshotError("length", "the snapshot has trailing bytes")
	}
	body := snap[:len(snap)-4]
	if crc32.Checksum(body, castagnoli) != le.Uint32(snap[len(snap)-4:]) {
		return nil, snapshotError("checksum", "the snapshot is corrupted (CRC-32C mismatch)")
	}
	if string(snap[8:40]) != string(in.info.hash[:]) {
		return nil, snapshotError("module", "the snapshot was taken from a different module")
	}
	st := &snapshotState{
		gas:       le.Uint64(snap[40:]),
		timestamp: int64(le.Uint64(snap[48:])),
		prng:      le.Uint32(snap[56:]),
		globals:   snap[headerSize : headerSize+12*nGlobals],
		mem:       body[headerSize+12*nGlobals:],
	}
	if int(nGlobals) != len(in.info.globals) {
		return nil, snapshotError("globals", "the snapshot has "+itoa(int(nGlobals))+" globals, the module "+itoa(len(in.info.globals)))
	}
	for i, name := range in.info.globals {
		if le.Uint32(st.globals[12*i:]) != globalIndex(name) {
			return nil, snapshotError("globals", "the snapshot's globals do not match the module's")
		}
	}
	switch {
	case memSize%(1<<16) != 0:
		return nil, snapshotError("memory", "the memory size is not a whole number of 64 KiB pages")
	case memSize > in.cfg.MaxMemoryBytes:
		return nil, snapshotError("memory", "the snapshot's memory is larger than MaxMemoryBytes")
	case memSize < uint64(in.info.minPages)<<16:
		return nil, snapshotError("memory", "the snapshot's memory is smaller than the module's minimum")
	case memSize > 0 && !in.info.hasMemory:
		return nil, snapshotError("memory", "the snapshot has a memory, the module none")
	}
	return st, nil
}

// restore runs Restore or Resume (op) once in.mu is held and the status
// checked. It releases in.mu while the engine works.
func (in *Instance) restore(ctx context.Context, snap []byte, op string) error {
	st, err := in.parseSnapshot(snap)
	if err != nil {
		in.mu.Unlock()
		return err
	}
	in.busy = op
	mod := in.mod
	in.mu.Unlock()

	cur, rerr := in.fresh(ctx, mod, st)

	in.mu.Lock()
	defer in.mu.Unlock()
	in.busy = ""
	if in.destroyed.Load() {
		if cur != nil {
			_ = cur.Close(ctx)
		}
		in.releaseLocked()
		return newError(CodeInstanceDestroyed, "the instance was destroyed during the "+op)
	}
	if rerr != nil {
		return rerr
	}
	if in.cur != nil {
		_ = in.cur.Close(ctx)
	}
	in.cur = cur
	in.suspended = nil
	in.prng, in.timestamp = st.prng, st.timestamp
	in.metrics.GasUsed = st.gas
	in.status = StatusLoaded
	in.updateMemoryLocked()
	return nil
}

// fresh makes a new instance of mod holding the state st.
func (in *Instance) fresh(ctx context.Context, mod wasm.Module, st *snapshotState) (wasm.Instance, error) {
	cur, ierr := in.instantiate(ctx, mod)
	if ierr != nil {
		return nil, &Error{Code: CodeSnapshotError, Check: "instantiate", Message: "cannot create a fresh instance: " + ierr.Error(), Err: ierr}
	}
	fail := func(check, msg string) (wasm.Instance, error) {
		_ = cur.Close(ctx)
		return nil, snapshotError(check, msg)
	}
	if mem := cur.Memory(); mem != nil {
		if size := uint64(mem.Size()); size < uint64(len(st.mem)) {
			pages := (uint64(len(st.mem)) - size) >> 16
			res, cerr := cur.Call(ctx, instrument.GrowFunc, pages)
			if cerr != nil || int32(res[0]) < 0 {
				return fail("memory", "cannot grow the fresh instance's memory to the snapshot's size")
			}
		}
		if uint64(mem.Size()) != uint64(len(st.mem)) {
			return fail("memory", "the fresh instance's memory is larger than the snapshot's")
		}
		if !mem.Write(0, st.mem) {
			return fail("memory", "cannot write the fresh instance's memory")
		}
	}
	le := binary.LittleEndian
	for i, name := range in.info.globals {
		if !cur.SetGlobal(name, le.Uint64(st.globals[12*i+4:])) {
			return fail("globals", "cannot set global "+name)
		}
	}
	return cur, nil
}
