// Package jumpthread makes the jumps of Go-compiled WebAssembly branch
// straight to their target where the structure allows it.
//
// Go's wasm backend cannot express its control flow with WebAssembly's
// structured branches, so it makes each function that jumps a dispatch
// loop: the body opens a loop, then one block per resume point (a jump
// target or the return point of a call), then reads the resume point
// from local 0 (PC_B) with a br_table. The code of resume point i follows
// the end of the i-th innermost block. Every jump inside the function,
// including every taken if and every case of a switch, is then
//
//	i32.const PC; local.set 0; br $loop
//
// which goes back to the top, through the br_table's indirect jump, and
// on to the target: one mispredicted indirect branch per jump on every
// engine. GoAWK's interpreter function has 2,147 resume points.
//
// A jump to a resume point after the current one (a forward jump) does
// not need the loop: the target block encloses the jump, so a br to it
// lands on the target's code directly. Module rewrites those br
// instructions and leaves the i32.const and local.set in place, so PC_B
// holds the same value as before at every instruction and the resume
// machinery (the br_table, calls returning through it after a goroutine
// switch) is unchanged. Backward jumps keep going through the loop.
package jumpthread

import (
	"github.com/wasmsand/wasmsand/wasm/binary"
)

// Module rewrites every function of m that has Go's dispatch prologue
// and returns the number of branches it made direct. Functions that do
// not have the prologue exactly are left alone, so Module is safe on any
// valid module; it does nothing to modules not built by Go.
func Module(m *binary.Module) (int, error) {
	var t threader
	n := 0
	for i := range m.Codes {
		c := &m.Codes[i]
		k, body, err := t.function(c.Body, c.BodyOffset)
		if err != nil {
			return n, err
		}
		if k > 0 {
			c.Body = body
			n += k
		}
	}
	return n, nil
}

// threader keeps the scratch space of one Module call.
type threader struct {
	r     binary.Reader
	in    binary.Instr
	table []uint32 // the dispatch br_table's labels, its default last
	edits []edit
}

// edit replaces the label of the br at [pos, end) with label.
type edit struct {
	pos, end int
	label    uint32
}

// function threads one body; it returns the number of branches rewritten
// and the new body (nil when there are none).
func (t *threader) function(body []byte, base int) (int, []byte, error) {
	r, in := &t.r, &t.in
	r.Reset(body, base)

	// The prologue: [global.get SP; local.set] [block] loop block×k
	// local.get 0 br_table. The first two load the stack pointer into a
	// local; the outer block is the exit taken when a goroutine unwinds.
	next := func() bool { return r.More() && r.Next(in) == nil }
	if !next() {
		return 0, nil, nil
	}
	if in.Op == binary.OpGlobalGet {
		if !next() || in.Op != binary.OpLocalSet || in.Index == 0 || !next() {
			return 0, nil, nil
		}
	}
	if in.Op == binary.OpBlock {
		if in.BlockType != binary.BlockTypeEmpty || !next() {
			return 0, nil, nil
		}
	}
	if in.Op != binary.OpLoop || in.BlockType != binary.BlockTypeEmpty {
		return 0, nil, nil
	}
	loopDepth := r.Depth() // the depth inside the loop
	k := 0
	for next() && in.Op == binary.OpBlock && in.BlockType == binary.BlockTypeEmpty {
		k++
	}
	if k == 0 || in.Op != binary.OpLocalGet || in.Index != 0 || !next() || in.Op != binary.OpBrTable {
		return 0, nil, nil
	}
	t.table = binary.BrTableLabels(t.table[:0], body, in)
	t.table = append(t.table, in.Index) // the default
	for _, l := range t.table {
		if l >= uint32(k) {
			return 0, nil, nil // a target outside the resume blocks: not Go's shape
		}
	}
	if !r.More() || r.Next(in) != nil || in.Op != binary.OpEnd {
		return 0, nil, nil
	}

	// Segment j is the code of resume point j. It runs at depth
	// loopDepth+k-1-j; an end read at that depth closes block j+1 and
	// starts segment j+1.
	t.edits = t.edits[:0]
	segment := 0
	// To match i32.const PC; local.set 0; br: constPos is the position of
	// the instruction before the current one if that is an i32.const (else
	// -1), setPos the end of the local.set 0 right after it (else -1).
	constPos, setPos := -1, -1
	var pc uint64
	for r.More() {
		depth := r.Depth()
		if err := r.Next(in); err != nil {
			return 0, nil, err
		}
		switch in.Op {
		case binary.OpEnd:
			if depth == loopDepth+k-1-segment && segment < k-1 {
				segment++
			}
		case binary.OpBr:
			target := depth - int(in.Index) // the depth of the construct br names
			if target == loopDepth && setPos == in.Pos {
				s := t.table[len(t.table)-1]
				if int(pc) < len(t.table)-1 {
					s = t.table[pc]
				}
				if int(s) > segment {
					// Block s is open at depth loopDepth+k-s.
					label := depth - (loopDepth + k - int(s))
					t.edits = append(t.edits, edit{in.Pos, in.End, uint32(label)})
				}
			}
		}
		switch {
		case in.Op == binary.OpI32Const:
			constPos, setPos, pc = in.Pos, -1, uint64(uint32(in.Const))
		case in.Op == binary.OpLocalSet && in.Index == 0 && constPos >= 0 && setPos < 0:
			setPos = in.End
		default:
			constPos, setPos = -1, -1
		}
	}
	if len(t.edits) == 0 {
		return 0, nil, nil
	}
	out := make([]byte, 0, len(body))
	at := 0
	for _, e := range t.edits {
		out = append(out, body[at:e.pos]...)
		out = append(out, byte(binary.OpBr))
		out = binary.AppendU32(out, e.label)
		at = e.end
	}
	out = append(out, body[at:]...)
	return len(t.edits), out, nil
}
