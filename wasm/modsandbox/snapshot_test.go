package modsandbox

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"reflect"
	"testing"
)

// resign fixes the CRC of a hand-edited snapshot.
func resign(b []byte) []byte {
	body := b[:len(b)-4]
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(body, castagnoli))
	return b
}

func TestSnapshotRoundTrip(t *testing.T) {
	ctx := context.Background()
	cfg := baseConfig()
	cfg.DeterministicSeed = 7
	orig := loaded(t, cfg)
	for range 3 {
		orig.Execute(ctx, "bump", nil)
	}
	orig.Execute(ctx, "poke", []int{64, 0x5eed})
	orig.Execute(ctx, "growmem", 2)
	orig.Execute(ctx, "poke", []int{2<<16 + 8, 77}) // in a grown page
	orig.Execute(ctx, "rand", nil)
	snap, err := orig.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if string(snap[:4]) != "WSNP" || binary.LittleEndian.Uint16(snap[4:]) != SnapshotVersion {
		t.Fatalf("header % x", snap[:8])
	}

	restored := loaded(t, cfg)
	if err := restored.Restore(ctx, snap); err != nil {
		t.Fatal(err)
	}
	if m, o := restored.Metrics(), orig.Metrics(); m.GasUsed != o.GasUsed || m.MemoryBytes != o.MemoryBytes {
		t.Errorf("restored metrics %+v, original %+v", m, o)
	}
	// The same actions give the same results, gas and logs on both.
	for _, a := range []struct {
		action  string
		payload any
	}{{"bump", nil}, {"wide", nil}, {"peek", 64}, {"peek", 2<<16 + 8}, {"rand", nil}, {"mix", nil}, {"now", nil}, {"echo", "x"}} {
		ro, rr := orig.Execute(ctx, a.action, a.payload), restored.Execute(ctx, a.action, a.payload)
		if !ro.OK || !reflect.DeepEqual(ro.Value, rr.Value) || ro.GasUsed != rr.GasUsed || !reflect.DeepEqual(ro.HostCalls, rr.HostCalls) {
			t.Errorf("%s: original %+v, restored %+v", a.action, ro, rr)
		}
	}
	s1, _ := orig.Snapshot()
	s2, _ := restored.Snapshot()
	if !bytes.Equal(s1, s2) {
		t.Error("snapshots differ after the same actions")
	}

	// Suspend and resume keep the state.
	if err := restored.Suspend(); err != nil {
		t.Fatal(err)
	}
	s3, err := restored.Snapshot()
	if err != nil || !bytes.Equal(s3, s2) {
		t.Errorf("snapshot of a suspended instance: %v", err)
	}
	if err := restored.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if r := restored.Execute(ctx, "peek", 64); r.Value != int32(0x5eed) {
		t.Errorf("after resume peek(64) = %v", r.Value)
	}

	// Restoring rolls an instance back.
	if err := orig.Restore(ctx, snap); err != nil {
		t.Fatal(err)
	}
	if r := orig.Execute(ctx, "bump", nil); r.Value != int32(4) {
		t.Errorf("after rollback bump = %v, want 4", r.Value)
	}
}

func TestSnapshotChecks(t *testing.T) {
	ctx := context.Background()
	in := loaded(t, baseConfig())
	in.Execute(ctx, "bump", nil)
	snap, err := in.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	other, err := sharedRuntime().Create(baseConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Destroy()
	if err := other.Load(ctx, readTestdata(t, "small.wasm")); err != nil {
		t.Fatal(err)
	}
	otherSnap, err := other.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(snap)) }
	tests := []struct {
		name  string
		snap  []byte
		check string
	}{
		{"empty", nil, "length"},
		{"three bytes", snap[:3], "length"},
		{"header only", snap[:40], "length"},
		{"truncated memory", snap[:len(snap)-100], "length"},
		{"one byte short", snap[:len(snap)-1], "length"},
		{"trailing bytes", append(bytes.Clone(snap), 0), "length"},
		{"magic", edit(func(b []byte) []byte { b[0] = 'X'; return b }), "magic"},
		{"version", edit(func(b []byte) []byte { b[4] = 2; return b }), "version"},
		{"flipped memory bit", edit(func(b []byte) []byte { b[len(b)-10] ^= 1; return b }), "checksum"},
		{"other module", otherSnap, "module"},
		{"global index", edit(func(b []byte) []byte { b[headerSize] ^= 0x40; return resign(b) }), "globals"},
		{"global count", edit(func(b []byte) []byte {
			n := binary.LittleEndian.Uint32(b[60:])
			binary.LittleEndian.PutUint32(b[60:], n-1)
			mem := binary.LittleEndian.Uint32(b[64:])
			binary.LittleEndian.PutUint32(b[64:], mem+12)
			return resign(b)
		}), "globals"},
		{"partial page", edit(func(b []byte) []byte {
			mem := binary.LittleEndian.Uint32(b[64:])
			binary.LittleEndian.PutUint32(b[64:], mem+4)
			b = append(b, 0, 0, 0, 0)
			return resign(b)
		}), "memory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := in.Restore(ctx, tt.snap)
			wantCode(t, tt.name, err, CodeSnapshotError)
			if e := err.(*Error); e.Check != tt.check {
				t.Errorf("failed check %q (%v), want %q", e.Check, e, tt.check)
			}
			// The instance is untouched.
			if r := in.Execute(ctx, "peek", 0); !r.OK || in.Status() != StatusLoaded {
				t.Errorf("instance broken after a refused restore: %+v", r)
			}
		})
	}
	if r := in.Execute(ctx, "bump", nil); r.Value != int32(2) {
		t.Errorf("state changed by refused restores: bump = %v", r.Value)
	}
	// A snapshot bigger than the memory cap.
	big := loaded(t, baseConfig())
	big.Execute(ctx, "growmem", 10)
	bigSnap, _ := big.Snapshot()
	cfg := baseConfig()
	cfg.MaxMemoryBytes = 4 << 16
	small := loaded(t, cfg)
	err = small.Restore(ctx, bigSnap)
	wantCode(t, "snapshot over the cap", err, CodeSnapshotError)
}

func FuzzRestore(f *testing.F) {
	ctx := context.Background()
	in := loaded(f, baseConfig())
	in.Execute(ctx, "bump", nil)
	snap, err := in.Snapshot()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(snap)
	f.Add(snap[:100])
	f.Add([]byte("WSNP\x01\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		err := in.Restore(ctx, b)
		if err == nil {
			return // a valid snapshot of this module
		}
		wantCode(t, "restore", err, CodeSnapshotError)
		if in.Status() != StatusLoaded {
			t.Fatalf("status %s", in.Status())
		}
	})
}

func FuzzLoad(f *testing.F) {
	for _, name := range []string{"guest.wasm", "small.wasm", "wasi.wasm", "start.wasm", "badtype.wasm"} {
		f.Add(readTestdata(f, name))
	}
	f.Add([]byte("(module)"))
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, b []byte) {
		cfg := baseConfig()
		cfg.MaxExecutionMs = 200
		in, err := sharedRuntime().Create(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Destroy()
		err = in.Load(ctx, b)
		if err == nil {
			if in.Status() != StatusLoaded {
				t.Fatalf("status %s", in.Status())
			}
			return
		}
		e, ok := err.(*Error)
		if !ok {
			t.Fatalf("error %T %v", err, err)
		}
		switch e.Code {
		case CodeInvalidModule, CodeGasExhausted, CodeTimeout, CodeHostFunctionError, CodeMemoryExceeded:
		default:
			t.Fatalf("unexpected code %s: %v", e.Code, e)
		}
		if in.Status() != StatusCreated {
			t.Fatalf("status %s after a failed load", in.Status())
		}
	})
}
