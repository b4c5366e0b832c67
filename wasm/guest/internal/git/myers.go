package git

// An edit is a run of lines: equal in both texts, deleted from a, or
// inserted from b.
type edit struct {
	op   byte // '=', '-', '+'
	a, b int  // first line in a and in b
	n    int
}

// diffLines computes a shortest edit script from a to b (Myers' O(ND)
// algorithm), then slides each run of changes as far down as the texts
// allow, as git's xdiff does before printing.
func diffLines(a, b []string) []edit {
	// Common prefix and suffix are not part of the search.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	// delA[i] / insB[j] mark changed lines of the middle parts.
	delA := make([]bool, len(a))
	insB := make([]bool, len(b))
	myers(ma, mb, func(i int) { delA[pre+i] = true }, func(j int) { insB[pre+j] = true })
	compact(a, delA, b, insB)
	compact(b, insB, a, delA)
	return script(delA, insB)
}

// myers marks the lines of a deleted and of b inserted by a shortest edit
// script.
func myers(a, b []string, del, ins func(int)) {
	n, m := len(a), len(b)
	if n == 0 {
		for j := range m {
			ins(j)
		}
		return
	}
	if m == 0 {
		for i := range n {
			del(i)
		}
		return
	}
	maxD := n + m
	off := maxD
	v := make([]int, 2*maxD+2)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		snap := make([]int, len(v))
		copy(snap, v)
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				backtrack(trace, off, n, m, d, del, ins)
				return
			}
		}
	}
}

func backtrack(trace [][]int, off, x, y, d int, del, ins func(int)) {
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var pk int
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[off+pk]
		py := px - pk
		for x > px && y > py {
			x--
			y--
		}
		if x == px {
			ins(py)
		} else {
			del(px)
		}
		x, y = px, py
	}
}

// compact slides each group of changed lines in x down while the line
// after the group equals its first line, as xdiff's change compaction
// does, keeping the other side's alignment intact.
func compact(x []string, chg []bool, other []string, ochg []bool) {
	_ = other
	_ = ochg
	for i := 0; i < len(x); {
		if !chg[i] {
			i++
			continue
		}
		start := i
		for i < len(x) && chg[i] {
			i++
		}
		end := i // group is [start, end)
		for end < len(x) && !chg[end] && x[start] == x[end] {
			chg[start], chg[end] = false, true
			start++
			end++
			for end < len(x) && chg[end] {
				end++
			}
		}
		i = end
	}
}

// script turns the change marks into runs.
func script(delA, insB []bool) []edit {
	var es []edit
	add := func(op byte, a, b int) {
		if n := len(es); n > 0 && es[n-1].op == op {
			es[n-1].n++
			return
		}
		es = append(es, edit{op, a, b, 1})
	}
	i, j := 0, 0
	for i < len(delA) || j < len(insB) {
		switch {
		case i < len(delA) && delA[i]:
			add('-', i, j)
			i++
		case j < len(insB) && insB[j]:
			add('+', i, j)
			j++
		default:
			add('=', i, j)
			i++
			j++
		}
	}
	return es
}
