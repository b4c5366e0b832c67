package binary

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/internal/gobuild"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// goHelloWasm builds a Go hello world for wasip1 (once per test binary).
func goHelloWasm(t testing.TB) []byte {
	return gobuild.Wasip1(t, "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello, world\") }\n")
}

// withCustom inserts a custom section right after the first section of bin.
func withCustom(bin []byte, name, data string) []byte {
	_, p := readU32(bin, 9)
	size, _ := readU32(bin, 9)
	end := p + int(size)
	var c []byte
	c = append(c, 0)
	c = AppendU32(c, uint32(1+len(name)+len(data)))
	c = appendName(c, name)
	c = append(c, data...)
	out := append([]byte{}, bin[:end]...)
	out = append(out, c...)
	return append(out, bin[end:]...)
}

func checkBodies(t testing.TB, m *Module) int {
	t.Helper()
	n := 0
	for i := range m.Codes {
		var r Reader
		r.Reset(m.Codes[i].Body, m.Codes[i].BodyOffset)
		var in Instr
		for r.More() {
			if err := r.Next(&in); err != nil {
				t.Fatalf("function %d: %v", i, err)
			}
			n++
		}
		if r.Pos() != len(m.Codes[i].Body) {
			t.Fatalf("function %d: stopped at %d of %d", i, r.Pos(), len(m.Codes[i].Body))
		}
	}
	return n
}

func TestRoundTrip(t *testing.T) {
	features := readTestdata(t, "features.wasm")
	tests := []struct {
		name  string
		bin   []byte
		exact bool // the input is in canonical form: Encode gives it back
	}{
		{"features", features, true},
		{"custom in the middle", withCustom(features, "middle", "\x01\x02\x03"), true},
		{"minimal", []byte(Magic + Version), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Decode(tt.bin)
			if err != nil {
				t.Fatal(err)
			}
			checkBodies(t, m)
			out := m.Encode()
			if tt.exact && !bytes.Equal(out, tt.bin) {
				t.Fatalf("Encode differs from the input:\n got % x\nwant % x", out, tt.bin)
			}
		})
	}
	t.Run("go hello", func(t *testing.T) {
		bin := goHelloWasm(t)
		m, err := Decode(bin)
		if err != nil {
			t.Fatal(err)
		}
		n := checkBodies(t, m)
		out := m.Encode()
		m2, err := Decode(out)
		if err != nil {
			t.Fatal(err)
		}
		if out2 := m2.Encode(); !bytes.Equal(out, out2) {
			t.Fatal("encoding is not stable")
		}
		if len(m2.Codes) != len(m.Codes) || len(m2.Datas) != len(m.Datas) || len(m2.Customs) != len(m.Customs) {
			t.Fatal("sections lost")
		}
		t.Logf("%d bytes, %d functions, %d instructions, re-encoded in %d bytes", len(bin), len(m.Codes), n, len(out))
	})
}

func TestDecodeFeatures(t *testing.T) {
	m, err := Decode(withCustom(readTestdata(t, "features.wasm"), "middle", "xyz"))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.NumImported(ExternFunc); got != 1 {
		t.Errorf("imported functions = %d", got)
	}
	if im := m.Imports[2]; im.Kind != ExternMemory || im.Memory != (Limits{Min: 1, Max: 2, HasMax: true}) {
		t.Errorf("memory import = %+v", im)
	}
	if len(m.Elements) != 5 {
		t.Fatalf("%d element segments", len(m.Elements))
	}
	var flags []uint32
	for _, e := range m.Elements {
		flags = append(flags, e.Flags)
	}
	// active table 0 / passive exprs / declarative / passive funcs / active other table exprs
	if want := []uint32{0, 5, 3, 1, 6}; !equalU32(flags, want) {
		t.Errorf("element flags = %v, want %v", flags, want)
	}
	if !m.HasStart || m.Start != 1 {
		t.Errorf("start = %v %d", m.HasStart, m.Start)
	}
	if !m.HasDataCount || m.DataCount != 2 || m.Datas[1].Mode != SegmentPassive || string(m.Datas[1].Init) != "passive" {
		t.Errorf("data: count %v %d, %+v", m.HasDataCount, m.DataCount, m.Datas)
	}
	if m.Customs[0].Name != "middle" || m.Customs[0].After != SectionType || string(m.Customs[0].Data) != "xyz" {
		t.Errorf("custom = %+v", m.Customs[0])
	}
	if g := m.Globals[0]; !g.Type.Mutable || g.Type.Type != I64 {
		t.Errorf("global 0 = %+v", g)
	}
}

func equalU32(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// mod builds a module from raw sections.
func mod(sections ...string) []byte {
	return []byte(Magic + Version + strings.Join(sections, ""))
}

// section encodes one section.
func section(id byte, content string) string {
	return string(append(AppendU32([]byte{id}, uint32(len(content))), content...))
}

// withBody is a module with one function () -> () and the given body
// (without the final end).
func withBody(body string) []byte {
	code := "\x00" + body + "\x0b"
	return mod(section(1, "\x01\x60\x00\x00"), section(3, "\x01\x00"), section(5, "\x01\x00\x01"),
		section(10, "\x01"+string(AppendU32(nil, uint32(len(code))))+code))
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		bin  []byte
		want string
	}{
		{"empty", nil, "bad magic"},
		{"bad magic", []byte("\x00asn\x01\x00\x00\x00"), "bad magic"},
		{"component", []byte("\x00asm\x0d\x00\x01\x00"), "unsupported binary version"},
		{"truncated section", mod("\x01\x05\x01"), "exceeds the module"},
		{"bad section size", mod("\x01\xff\xff\xff\xff\xff"), "malformed size"},
		{"unknown section", mod(section(14, "")), "unknown section id 14"},
		{"out of order", mod(section(3, "\x00"), section(1, "\x00")), "out of order"},
		{"repeated", mod(section(1, "\x00"), section(1, "\x00")), "out of order or repeated"},
		{"huge count", mod(section(1, "\xff\xff\xff\xff\x0f")), "exceeds the section size"},
		{"trailing bytes", mod(section(1, "\x00\x00")), "unread bytes"},
		{"gc type", mod(section(1, "\x01\x5f\x00\x00")), "not a function type"},
		{"bad value type", mod(section(1, "\x01\x60\x01\x40\x00")), "unknown value type 0x40"},
		{"shared memory", mod(section(5, "\x01\x03\x01\x02")), "shared memory"},
		{"memory64", mod(section(5, "\x01\x04\x01")), "memory64"},
		{"tag section", mod(section(13, "\x00")), "exception handling"},
		{"tag import", mod(section(2, "\x01\x01m\x01n\x04\x00\x00")), "tags"},
		{"bad utf8 name", mod(section(0, "\x02\xff\xfe")), "UTF-8"},
		{"missing code", mod(section(1, "\x01\x60\x00\x00"), section(3, "\x01\x00")), "no code section"},
		{"code count mismatch", mod(section(1, "\x01\x60\x00\x00"), section(3, "\x02\x00\x00"), section(10, "\x01\x02\x00\x0b")), "2 functions"},
		{"data count mismatch", mod(section(12, "\x02"), section(11, "\x01\x01\x00")), "data count section says 2"},
		{"function type out of range", mod(section(1, "\x01\x60\x00\x00"), section(3, "\x01\x01")), "type index 1 out of range"},
		{"import type out of range", mod(section(2, "\x01\x01m\x01n\x00\x00")), "type index 0 out of range"},
		{"bad element flags", mod(section(9, "\x01\x08\x00")), "unknown flags 8"},
		{"bad export kind", mod(section(7, "\x01\x01e\x05\x00")), "unknown kind 5"},
		{"too many locals", mod(section(1, "\x01\x60\x00\x00"), section(3, "\x01\x00"), section(10, "\x01\x07\x02\xff\xff\x03\x7f\x01\x7f\x0b")), "more than 50000 locals"},
		{"unterminated const expr", mod(section(6, "\x01\x7f\x00\x41\x00")), "without its final end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(tt.bin)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, wasm.ErrInvalidModule) {
				t.Errorf("%v does not wrap ErrInvalidModule", err)
			}
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), "at offset") {
				t.Errorf("%v is not an *Error with an offset", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
		})
	}
}

func TestBodyErrors(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"atomics", "\xfe\x00\x00\x00", "threads and atomics"},
		{"try", "\x06\x40\x0b", "exception handling"},
		{"call_ref", "\x14\x00", "typed function references"},
		{"unknown opcode", "\x27", "unknown opcode 0x27"},
		{"unknown misc", "\xfc\x12", "unknown opcode 0xfc 18"},
		{"unknown simd", "\xfd\x9a\x01", "unknown SIMD opcode 0xfd 0x9a"},
		{"simd past relaxed", "\xfd\x94\x02", "unknown SIMD opcode 0xfd 0x114"},
		{"i32 const sign bits", "\x41\xff\xff\xff\xff", "malformed i32.const"},
		{"i32 const too long", "\x41\x80\x80\x80\x80\x10", "malformed i32.const"},
		{"truncated f64", "\x44\x00\x00", "truncated f64.const"},
		{"negative block type", "\x02\x7a", "malformed block type"},
		{"huge br_table", "\x0e\xff\xff\xff\xff\x0f", "exceeds the body"},
		{"memarg alignment", "\x28\x80\x01\x00", "too large"},
		{"bad ref.null", "\xd0\x7f", "ref.null"},
		{"missing end", "\x02\x40", "without its final end"},
		{"trailing code", "\x0b\x01", "after the function's final end"},
		{"truncated v128.const", "\xfd\x0c\x00", "truncated 16-byte"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Decode(withBody(tt.body))
			if err == nil {
				err = CheckBody(m.Codes[0].Body, m.Codes[0].BodyOffset)
			}
			if err == nil || !errors.Is(err, wasm.ErrInvalidModule) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

func TestReader(t *testing.T) {
	tests := []struct {
		name, code string
		want       Instr // Pos is 0; End is len(code) unless set
	}{
		{"block empty", "\x02\x40", Instr{Op: OpBlock, BlockType: BlockTypeEmpty}},
		{"loop i32", "\x03\x7f", Instr{Op: OpLoop, BlockType: -1}},
		{"if type index", "\x04\x85\x01", Instr{Op: OpIf, BlockType: 133}},
		{"br", "\x0c\x03", Instr{Op: OpBr, Index: 3}},
		{"br_table", "\x0e\x02\x00\x01\x05", Instr{Op: OpBrTable, Index: 5, Index2: 2}},
		{"call", "\x10\xe5\x8e\x26", Instr{Op: OpCall, Index: 624485}},
		{"call_indirect", "\x11\x02\x01", Instr{Op: OpCallIndirect, Index: 2, Index2: 1}},
		{"return_call", "\x12\x07", Instr{Op: OpReturnCall, Index: 7}},
		{"select t", "\x1c\x01\x7e", Instr{Op: OpSelectT}},
		{"local.tee", "\x22\x04", Instr{Op: OpLocalTee, Index: 4}},
		{"i64.load memarg", "\x29\x03\x10", Instr{Op: OpI64Load, Align: 3, Offset: 16}},
		{"multi-memory memarg", "\x28\x42\x01\x08", Instr{Op: OpI32Load, Align: 2, Memory: 1, Offset: 8}},
		{"memory.grow", "\x40\x00", Instr{Op: OpMemoryGrow}},
		{"i32.const -1", "\x41\x7f", Instr{Op: OpI32Const, Const: 0xffffffffffffffff}},
		{"i32.const min", "\x41\x80\x80\x80\x80\x78", Instr{Op: OpI32Const, Const: 0xffffffff80000000}},
		{"i64.const min", "\x42\x80\x80\x80\x80\x80\x80\x80\x80\x80\x7f", Instr{Op: OpI64Const, Const: 1 << 63}},
		{"i64.const max", "\x42\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00", Instr{Op: OpI64Const, Const: 1<<63 - 1}},
		{"f32.const", "\x43\x00\x00\x80\x3f", Instr{Op: OpF32Const, Const: 0x3f800000}},
		{"f64.const", "\x44\x00\x00\x00\x00\x00\x00\xf0\x3f", Instr{Op: OpF64Const, Const: 0x3ff0000000000000}},
		{"ref.null", "\xd0\x6f", Instr{Op: OpRefNull, Index: 0x6f}},
		{"ref.func", "\xd2\x09", Instr{Op: OpRefFunc, Index: 9}},
		{"i32.trunc_sat_f32_s", "\xfc\x00", Instr{Op: 0xfc << 16}},
		{"memory.init", "\xfc\x08\x03\x00", Instr{Op: OpMemoryInit, Index: 3}},
		{"memory.copy", "\xfc\x0a\x00\x01", Instr{Op: OpMemoryCopy, Index2: 1}},
		{"table.copy", "\xfc\x0e\x02\x03", Instr{Op: OpTableCopy, Index: 2, Index2: 3}},
		{"table.fill", "\xfc\x11\x01", Instr{Op: OpTableFill, Index: 1}},
		{"v128.load", "\xfd\x00\x04\x08", Instr{Op: 0xfd << 16, Align: 4, Offset: 8}},
		{"v128.const", "\xfd\x0c" + strings.Repeat("\x01", 16), Instr{Op: OpV128Const}},
		{"i8x16.shuffle", "\xfd\x0d" + strings.Repeat("\x1f", 16), Instr{Op: OpI8x16Shuffle}},
		{"extract_lane", "\xfd\x15\x0f", Instr{Op: 0xfd<<16 | 0x15, Index: 15}},
		{"load8_lane", "\xfd\x54\x00\x02\x0e", Instr{Op: 0xfd<<16 | 0x54, Offset: 2, Index2: 14}},
		{"store64_lane", "\xfd\x5b\x03\x00\x01", Instr{Op: 0xfd<<16 | 0x5b, Align: 3, Index2: 1}},
		{"two-byte simd op", "\xfd\xff\x01", Instr{Op: 0xfd<<16 | 0xff}},
		{"relaxed simd", "\xfd\x93\x02", Instr{Op: 0xfd<<16 | 0x113}},
		{"i32.extend8_s", "\xc0", Instr{Op: 0xc0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Reader
			r.Reset([]byte(tt.code+"\x0b"), 0)
			var in Instr
			if err := r.Next(&in); err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.End = len(tt.code)
			in.Imm = 0
			if in != want {
				t.Errorf("got  %+v\nwant %+v", in, want)
			}
		})
	}
}

func TestBrTableLabels(t *testing.T) {
	body := []byte("\x0e\x03\x00\x81\x01\x02\x04\x0b")
	var r Reader
	r.Reset(body, 0)
	var in Instr
	if err := r.Next(&in); err != nil {
		t.Fatal(err)
	}
	if got := BrTableLabels(nil, body, &in); !equalU32(got, []uint32{0, 129, 2}) || in.Index != 4 {
		t.Errorf("labels %v default %d", got, in.Index)
	}
}

// TestSIMDOpcodes checks every 0xFD sub-opcode up to the end of relaxed
// SIMD against the gaps in the opcode space (checked once against wabt).
func TestSIMDOpcodes(t *testing.T) {
	gaps := map[uint32]bool{0x9a: true, 0xa2: true, 0xa5: true, 0xa6: true, 0xaf: true, 0xb0: true,
		0xb2: true, 0xb3: true, 0xb4: true, 0xbb: true, 0xc2: true, 0xc5: true, 0xc6: true,
		0xcf: true, 0xd0: true, 0xd2: true, 0xd3: true, 0xd4: true, 0xe2: true, 0xee: true}
	for sub := uint32(0); sub < 0x120; sub++ {
		code := AppendU32([]byte{0xfd}, sub)
		code = append(code, make([]byte, 17)...) // room for any immediate
		var r Reader
		r.Reset(code, 0)
		var in Instr
		err := r.Next(&in)
		if valid := sub < 0x114 && !gaps[sub]; valid != (err == nil) {
			t.Errorf("0xfd %#x: valid %v, got %v", sub, valid, err)
		}
	}
}

func TestLEB(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 63, 64, -64, -65, 1 << 31, -1 << 31, 1<<63 - 1, -1 << 63} {
		b := AppendS64(nil, v)
		got, p := readS64(b, 0)
		if p != len(b) || got != v {
			t.Errorf("s64 %d: got %d at %d", v, got, p)
		}
		if v >= -1<<31 && v < 1<<31 {
			got, p := readS32(b, 0)
			if p != len(b) || int64(got) != v {
				t.Errorf("s32 %d: got %d at %d", v, got, p)
			}
		}
	}
	for _, v := range []uint32{0, 127, 128, 1<<32 - 1} {
		b := AppendU32(nil, v)
		if got, p := readU32(b, 0); p != len(b) || got != v || sizeU32(v) != len(b) {
			t.Errorf("u32 %d: got %d at %d", v, got, p)
		}
	}
	// Padded encodings are accepted, too-long ones are not.
	if v, p := readU32([]byte{0x81, 0x80, 0x80, 0x80, 0x00}, 0); v != 1 || p != 5 {
		t.Errorf("padded u32: %d %d", v, p)
	}
	for _, b := range [][]byte{{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, {0xff, 0xff, 0xff, 0xff, 0x1f}, {0x80}} {
		if _, p := readU32(b, 0); p >= 0 {
			t.Errorf("u32 % x accepted", b)
		}
	}
	if _, p := readS33([]byte{0x80, 0x80, 0x80, 0x80, 0x20}, 0); p >= 0 {
		t.Error("s33 with bad sign bits accepted")
	}
}

func TestDecodeEncodeSpeed(t *testing.T) {
	bin := goHelloWasm(t)
	best := time.Duration(1 << 62)
	for range 5 {
		start := time.Now()
		m, err := Decode(bin)
		if err != nil {
			t.Fatal(err)
		}
		m.Encode()
		best = min(best, time.Since(start))
	}
	t.Logf("decode+encode of %d bytes: %v", len(bin), best)
	if best > 100*time.Millisecond {
		t.Errorf("decode+encode took %v", best)
	}
}

func BenchmarkDecodeEncode(b *testing.B) {
	bin := goHelloWasm(b)
	b.SetBytes(int64(len(bin)))
	b.ReportAllocs()
	for b.Loop() {
		m, err := Decode(bin)
		if err != nil {
			b.Fatal(err)
		}
		m.Encode()
	}
}

func BenchmarkWalk(b *testing.B) {
	m, err := Decode(goHelloWasm(b))
	if err != nil {
		b.Fatal(err)
	}
	size := 0
	for i := range m.Codes {
		size += len(m.Codes[i].Body)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for i := range m.Codes {
			if err := CheckBody(m.Codes[i].Body, 0); err != nil {
				b.Fatal(err)
			}
		}
	}
}
