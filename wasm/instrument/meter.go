package instrument

import (
	"github.com/wasmsand/wasmsand/wasm/binary"
)

// Kinds of body edits.
const (
	evCharge uint8 = iota // insert a charge (and maybe a check) at pos
	evIndex               // replace the function index at [pos, end) with val
	evSave                // functions with loops: store the local balance to the global at pos
	evLoad                // functions with loops: reload the local balance from the global at pos
)

// Check modes of a charge event.
const (
	checkNone   uint8 = iota
	checkEntry        // function entry: decided once the function is read
	checkLoop         // loop header: unless callee checks first thing
	checkAlways       // loop header that must check
)

// event is one edit of a function body. A function's events are in body
// order.
type event struct {
	pos, end int32
	val      uint32 // cost of a charge, new index of evIndex
	callee   int32  // loop header: defined function called before any branch, or -1
	kind     uint8
	check    uint8
}

// construct is an open block, loop or if while meterCode reads a body.
type construct struct {
	opener   int32 // the region that entered it (its charge event), -1 in dead code
	loop     bool
	isIf     bool
	hasElse  bool
	thenOpen bool // an if's then-arm could fall through to its else
	targeted bool // a branch names its label
	// outer is the smallest index in the construct stack of a label that
	// a branch inside names (-1: the function's, or a return); the
	// construct is left other than through its end if outer < its index.
	outer int
}

// funcInfo says where a function's events are and what it contains.
type funcInfo struct {
	first, last int32 // events[first:last]
	nonLeaf     bool  // has a loop or a call: it checks before doing either
	hasLoop     bool  // keeps its balance in a local
}

// meterCode inserts fuel charges and checks into every function body and
// renumbers function indices (the refuel import took index nImp).
//
// It reads every body once, recording edits as events, then writes every
// body once. Functions with loops keep the balance in a new local (cheap
// registers in loops) and store it to the global around calls and at
// returns; other functions charge the global directly.
//
// If grows is not nil (one entry per body), it sets grows[i] for each body
// i that has a memory.grow instruction, sparing the guard pass a second
// reading of the others.
func meterCode(m *binary.Module, nImp, fuelIdx uint32, grows []bool) error {
	infos := make([]funcInfo, len(m.Codes))
	total := 0
	for i := range m.Codes {
		total += len(m.Codes[i].Body)
	}
	// Go's code has about one event per 13 bytes, C's fewer.
	events := make([]event, 0, len(m.Codes)+total/10)
	var r binary.Reader
	var in binary.Instr
	var labels []uint32
	var ctl []construct

	for i := range m.Codes {
		c := &m.Codes[i]
		body := c.Body
		info := funcInfo{first: int32(len(events))}
		r.Reset(body, c.BodyOffset)

		events = append(events, event{kind: evCharge, check: checkEntry, callee: -1})
		region := len(events) - 1 // the open region's charge event, -1 in dead code
		cost := uint32(0)
		entry := true     // the open region is the function's first
		header := false   // the open region starts at a loop header
		branched := false // a br_if or call was seen in the open region
		entryIntoLoop := false

		closeRegion := func() {
			if region >= 0 {
				events[region].val = cost
			}
			region = -1
			header = false
		}
		openRegion := func(pos int, check uint8) {
			events = append(events, event{pos: int32(pos), kind: evCharge, check: check, callee: -1})
			region = len(events) - 1
			cost = 0
			entry, header, branched = false, check == checkLoop || check == checkAlways, false
		}
		save := func(pos int) { events = append(events, event{pos: int32(pos), kind: evSave}) }
		// target notes a branch to label l of the innermost construct;
		// l == len(ctl) or more is the function's label (a return).
		target := func(l uint32) {
			t := -1
			if int(l) < len(ctl) {
				t = len(ctl) - 1 - int(l)
				ctl[t].targeted = true
			}
			if n := len(ctl); n > 0 {
				ctl[n-1].outer = min(ctl[n-1].outer, t)
			}
		}
		push := func(c construct) {
			c.opener, c.outer = int32(region), len(ctl)
			ctl = append(ctl, c)
		}
		ctl = ctl[:0]

		for r.More() {
			depth := r.Depth()
			if err := r.Next(&in); err != nil {
				return err
			}
			if region >= 0 && !isLabel(in.Op) {
				cost++
			}
			switch in.Op {
			case binary.OpCall, binary.OpReturnCall, binary.OpRefFunc:
				if in.Op != binary.OpRefFunc {
					save(in.Pos)
				}
				if in.Op == binary.OpReturnCall {
					target(^uint32(0))
				}
				if in.Index >= nImp {
					events = append(events, event{pos: int32(in.Imm), end: int32(in.End), val: in.Index + 1, kind: evIndex})
				}
				if in.Op == binary.OpRefFunc {
					break
				}
				info.nonLeaf = true
				if header && !branched && region >= 0 && in.Index >= nImp && events[region].callee < 0 {
					events[region].callee = int32(in.Index - nImp)
				}
				branched = true
				if in.Op == binary.OpReturnCall {
					closeRegion()
				} else {
					events = append(events, event{pos: int32(in.End), kind: evLoad})
				}
			case binary.OpMemoryGrow:
				if grows != nil {
					grows[i] = true
				}
			case binary.OpCallIndirect, binary.OpReturnCallIndirect:
				save(in.Pos)
				info.nonLeaf = true
				branched = true
				if in.Op == binary.OpReturnCallIndirect {
					target(^uint32(0))
					closeRegion()
				} else {
					events = append(events, event{pos: int32(in.End), kind: evLoad})
				}
			case binary.OpBrIf:
				branched = true
				target(in.Index)
				if int(in.Index) == depth-1 { // to the function's label: a return
					save(in.Pos)
				}
			case binary.OpBr, binary.OpBrTable:
				toFunc := int(in.Index) == depth-1
				target(in.Index)
				if in.Op == binary.OpBrTable {
					labels = binary.BrTableLabels(labels[:0], body, &in)
					for _, l := range labels {
						toFunc = toFunc || int(l) == depth-1
						target(l)
					}
				}
				if toFunc {
					save(in.Pos)
				}
				closeRegion()
			case binary.OpReturn, binary.OpUnreachable:
				if in.Op == binary.OpReturn {
					target(^uint32(0))
				}
				save(in.Pos)
				closeRegion()
			case binary.OpBlock:
				push(construct{})
			case binary.OpLoop:
				push(construct{loop: true})
				info.nonLeaf, info.hasLoop = true, true
				// A first region flowing into a loop without calls or
				// branches: the loop header's check serves as the entry's.
				forced := entry && region >= 0 && !branched
				closeRegion()
				if forced {
					entryIntoLoop = true
					openRegion(in.End, checkAlways)
				} else {
					openRegion(in.End, checkLoop)
				}
			case binary.OpIf, binary.OpElse:
				if in.Op == binary.OpIf {
					push(construct{isIf: true})
				} else if len(ctl) > 0 {
					c := &ctl[len(ctl)-1]
					c.hasElse, c.thenOpen = true, region >= 0
				}
				closeRegion()
				openRegion(in.End, checkNone)
			case binary.OpEnd:
				if !r.More() {
					save(in.Pos)
					closeRegion()
					break
				}
				if len(ctl) == 0 {
					return invalidf("function %d: end without a block", i)
				}
				k := len(ctl) - 1
				c := ctl[k]
				ctl = ctl[:k]
				if k > 0 {
					ctl[k-1].outer = min(ctl[k-1].outer, c.outer)
				}
				switch {
				case c.opener < 0 || c.outer < k:
					// In dead code, or a branch or return inside may leave
					// the construct past its end: a region of its own.
					closeRegion()
					openRegion(in.End, checkNone)
				case region < 0 && (c.loop || !c.targeted) && (!c.isIf || c.hasElse && !c.thenOpen):
					// Nothing falls out of the construct and nothing
					// branches to its end: what follows is dead.
					closeRegion()
				case int32(region) == c.opener:
					// The construct opened no region: the open one goes on.
				default:
					// Every way into the construct, which only its opener
					// enters, comes out here exactly once (but for traps):
					// the opener pays for it.
					closeRegion()
					region = int(c.opener)
					cost = events[region].val
					entry, header, branched = false, false, true
				}
			}
		}
		if r.Pos() != len(body) {
			return invalidf("function %d: %d bytes after the body's final end", i, len(body)-r.Pos())
		}
		closeRegion()
		switch {
		case !info.nonLeaf, entryIntoLoop:
			events[info.first].check = checkNone
		default:
			events[info.first].check = checkAlways
		}
		info.last = int32(len(events))
		infos[i] = info
	}

	// Write every body into one buffer.
	buf := make([]byte, 0, total+total/2+64)
	spans := make([]int, len(m.Codes)+1)
	nTypes := uint32(len(m.Types))
	for i := range m.Codes {
		c := &m.Codes[i]
		body := c.Body
		spans[i] = len(buf)
		info := &infos[i]
		e := emitter{fuel: fuelIdx, refuel: nImp}
		if info.hasLoop {
			if i >= len(m.Funcs) || m.Funcs[i] >= nTypes {
				return invalidf("function %d has no valid type", i)
			}
			n := uint64(len(m.Types[m.Funcs[i]].Params))
			for _, l := range c.Locals {
				n += uint64(l.Count)
			}
			if n >= 1<<32-1 {
				return invalidf("function %d has too many locals", i)
			}
			e.local, e.useLocal = uint32(n), true
			locals := make([]binary.LocalDecl, len(c.Locals), len(c.Locals)+1)
			copy(locals, c.Locals)
			c.Locals = append(locals, binary.LocalDecl{Count: 1, Type: binary.I64})
		}
		prev := int32(0)
		for _, ev := range events[info.first:info.last] {
			switch ev.kind {
			case evIndex:
				buf = append(buf, body[prev:ev.pos]...)
				buf = binary.AppendU32(buf, ev.val)
				prev = ev.end
				continue
			case evSave, evLoad:
				if !e.useLocal {
					continue
				}
			}
			buf = append(buf, body[prev:ev.pos]...)
			prev = ev.pos
			switch ev.kind {
			case evSave:
				buf = e.save(buf)
			case evLoad:
				buf = e.load(buf)
			case evCharge:
				check := ev.check == checkAlways
				if ev.check == checkLoop {
					check = ev.callee < 0 || int(ev.callee) >= len(infos) || !infos[ev.callee].nonLeaf
				}
				buf = e.charge(buf, ev.val, ev.pos == 0, check)
			}
		}
		buf = append(buf, body[prev:]...)
	}
	spans[len(m.Codes)] = len(buf)
	for i := range m.Codes {
		m.Codes[i].Body = buf[spans[i]:spans[i+1]:spans[i+1]]
	}
	return nil
}

// emitter writes the instrumentation's instructions for one function.
type emitter struct {
	fuel, refuel uint32 // global and function indices
	local        uint32 // index of the balance local, if useLocal
	useLocal     bool
}

func (e *emitter) op(b []byte, op binary.Opcode, idx uint32) []byte {
	return binary.AppendU32(append(b, byte(op)), idx)
}

// save stores the local balance to the global.
func (e *emitter) save(b []byte) []byte {
	return e.op(e.op(b, binary.OpLocalGet, e.local), binary.OpGlobalSet, e.fuel)
}

// load reloads the local balance from the global.
func (e *emitter) load(b []byte) []byte {
	return e.op(e.op(b, binary.OpGlobalGet, e.fuel), binary.OpLocalSet, e.local)
}

// charge subtracts cost from the balance and, if check, calls refuel when
// the balance is negative. F is the fuel global, L the balance local, R
// the refuel function. With the balance in the global:
//
//	global.get F; i64.const C; i64.sub; global.set F
//	global.get F; i64.const 0; i64.lt_s                 ;; check
//	if; global.get F; call R; global.set F; end
//
// With the balance in a local (at entry, global.get F replaces the first
// local.get L; without a check, local.set replaces local.tee):
//
//	local.get L; i64.const C; i64.sub; local.tee L
//	i64.const 0; i64.lt_s                               ;; check
//	if; local.get L; global.set F; local.get L; call R; local.set L; end
func (e *emitter) charge(b []byte, cost uint32, entry, check bool) []byte {
	if !e.useLocal {
		if cost > 0 {
			b = e.op(b, binary.OpGlobalGet, e.fuel)
			b = binary.AppendS64(append(b, byte(binary.OpI64Const)), int64(cost))
			b = e.op(append(b, byte(binary.OpI64Sub)), binary.OpGlobalSet, e.fuel)
		}
		if check {
			b = e.op(b, binary.OpGlobalGet, e.fuel)
			b = append(b, byte(binary.OpI64Const), 0, byte(binary.OpI64LtS), byte(binary.OpIf), 0x40)
			b = e.op(b, binary.OpGlobalGet, e.fuel)
			b = e.op(b, binary.OpCall, e.refuel)
			b = append(e.op(b, binary.OpGlobalSet, e.fuel), byte(binary.OpEnd))
		}
		return b
	}
	if entry {
		b = e.op(b, binary.OpGlobalGet, e.fuel)
	} else {
		b = e.op(b, binary.OpLocalGet, e.local)
	}
	b = binary.AppendS64(append(b, byte(binary.OpI64Const)), int64(cost))
	b = append(b, byte(binary.OpI64Sub))
	if !check {
		return e.op(b, binary.OpLocalSet, e.local)
	}
	b = e.op(b, binary.OpLocalTee, e.local)
	b = append(b, byte(binary.OpI64Const), 0, byte(binary.OpI64LtS), byte(binary.OpIf), 0x40)
	b = e.save(b) // so the host sees the balance in the global too
	b = e.op(b, binary.OpLocalGet, e.local)
	b = e.op(b, binary.OpCall, e.refuel)
	return append(e.op(b, binary.OpLocalSet, e.local), byte(binary.OpEnd))
}

// isLabel reports whether op only marks a place branches go to: block,
// loop and end compile to no machine code on any engine, so they cost no
// fuel (see the package doc).
func isLabel(op binary.Opcode) bool {
	return op == binary.OpBlock || op == binary.OpLoop || op == binary.OpEnd
}
