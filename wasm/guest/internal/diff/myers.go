package diff

// This file holds the comparison: Myers' O(ND) algorithm with the
// bidirectional middle-snake search (Myers 1986, section 4.2), preceded by
// discarding lines that cannot match and followed by sliding change runs
// so that they join, which is how GNU diff picks among equally short edit
// scripts.

// change is one hunk of the edit script: Deleted lines starting at Line0
// of file 0 are replaced by Inserted lines starting at Line1 of file 1
// (0-origin).
type change struct {
	line0, line1      int
	deleted, inserted int
	ignore            bool // -B: only blank lines change
}

// analysis holds the working state of one comparison.
type analysis struct {
	equivs    [2][]int32 // equivalence class of each line
	changed   [2][]bool  // per line, with a false sentinel at -1 and len
	undisc    [2][]int32 // classes of the lines not discarded
	realIndex [2][]int   // their line numbers
	fd, bd    []int      // forward and backward diagonals, offset by fdOff
	off       int        // index of diagonal 0 in fd and bd
	expensive int        // cost past which the search settles for less
	minimal   bool
}

// compare finds the changes between two sequences of equivalence classes
// (equal lines have equal classes; classes start at 1, nclass bounds them).
func compare(a, b []int32, nclass int, minimal bool) []change {
	an := &analysis{equivs: [2][]int32{a, b}, minimal: minimal}
	for f := range 2 {
		an.changed[f] = make([]bool, len(an.equivs[f])+2)
	}
	an.discard(nclass)
	n0, n1 := len(an.undisc[0]), len(an.undisc[1])
	diags := n0 + n1 + 3
	an.fd = make([]int, diags)
	an.bd = make([]int, diags)
	an.off = n1 + 1
	an.expensive = 1
	for d := diags; d != 0; d >>= 2 {
		an.expensive <<= 1
	}
	an.expensive = max(an.expensive, 4096)
	an.compareseq(0, n0, 0, n1, minimal)
	an.shiftBoundaries()
	return an.script()
}

func (an *analysis) isChanged(f, i int) bool { return an.changed[f][i+1] }
func (an *analysis) setChanged(f, i int, v bool) {
	an.changed[f][i+1] = v
}

// discard removes from the comparison lines that match nothing in the
// other file (they are certainly changes), and lines that match very many
// lines when they sit inside a run of such lines.
func (an *analysis) discard(nclass int) {
	var count [2][]int
	for f := range 2 {
		count[f] = make([]int, nclass+1)
		for _, c := range an.equivs[f] {
			count[f][c]++
		}
	}
	var disc [2][]byte
	for f := range 2 {
		eq := an.equivs[f]
		d := make([]byte, len(eq))
		other := count[1-f]
		many := 5
		for tem := len(eq) / 64; ; {
			tem >>= 2
			if tem <= 0 {
				break
			}
			many *= 2
		}
		for i, c := range eq {
			if c == 0 {
				continue
			}
			switch n := other[c]; {
			case n == 0:
				d[i] = 1
			case n > many:
				d[i] = 2
			}
		}
		disc[f] = d
	}
	for f := range 2 {
		d := disc[f]
		end := len(d)
		for i := 0; i < end; i++ {
			if d[i] == 2 {
				d[i] = 0
				continue
			}
			if d[i] == 0 {
				continue
			}
			provisional := 0
			j := i
			for ; j < end && d[j] != 0; j++ {
				if d[j] == 2 {
					provisional++
				}
			}
			for j > i && d[j-1] == 2 {
				j--
				d[j] = 0
				provisional--
			}
			length := j - i
			if provisional*4 > length {
				for j > i {
					j--
					if d[j] == 2 {
						d[j] = 0
					}
				}
				continue
			}
			minimum := 1
			for tem := length >> 2; ; {
				tem >>= 2
				if tem <= 0 {
					break
				}
				minimum <<= 1
			}
			minimum++
			consec := 0
			for j = 0; j < length; j++ {
				switch {
				case d[i+j] != 2:
					consec = 0
				default:
					consec++
					if consec == minimum {
						j -= consec // cancel the whole subrun
					} else if consec > minimum {
						d[i+j] = 0
					}
				}
			}
			consec = 0
			for j = 0; j < length; j++ {
				if j >= 8 && d[i+j] == 1 {
					break
				}
				switch d[i+j] {
				case 2:
					consec = 0
					d[i+j] = 0
				case 0:
					consec = 0
				default:
					consec++
				}
				if consec == 3 {
					break
				}
			}
			i += length - 1
			consec = 0
			for j = 0; j < length; j++ {
				if j >= 8 && d[i-j] == 1 {
					break
				}
				switch d[i-j] {
				case 2:
					consec = 0
					d[i-j] = 0
				case 0:
					consec = 0
				default:
					consec++
				}
				if consec == 3 {
					break
				}
			}
		}
	}
	for f := range 2 {
		eq := an.equivs[f]
		und := make([]int32, 0, len(eq))
		idx := make([]int, 0, len(eq))
		for i, c := range eq {
			if an.minimal || disc[f][i] == 0 {
				und = append(und, c)
				idx = append(idx, i)
			} else {
				an.setChanged(f, i, true)
			}
		}
		an.undisc[f], an.realIndex[f] = und, idx
	}
}

// compareseq marks the changes between undisc[0][xoff:xlim] and
// undisc[1][yoff:ylim].
func (an *analysis) compareseq(xoff, xlim, yoff, ylim int, minimal bool) {
	xv, yv := an.undisc[0], an.undisc[1]
	for xoff < xlim && yoff < ylim && xv[xoff] == yv[yoff] {
		xoff++
		yoff++
	}
	for xlim > xoff && ylim > yoff && xv[xlim-1] == yv[ylim-1] {
		xlim--
		ylim--
	}
	switch {
	case xoff == xlim:
		for ; yoff < ylim; yoff++ {
			an.setChanged(1, an.realIndex[1][yoff], true)
		}
	case yoff == ylim:
		for ; xoff < xlim; xoff++ {
			an.setChanged(0, an.realIndex[0][xoff], true)
		}
	default:
		xmid, ymid, loMin, hiMin := an.diag(xoff, xlim, yoff, ylim, minimal)
		an.compareseq(xoff, xmid, yoff, ymid, loMin)
		an.compareseq(xmid, xlim, ymid, ylim, hiMin)
	}
}

const maxInt = int(^uint(0) >> 1)

// diag finds the midpoint of a shortest edit script for the given
// ranges, searching forward from the top-left and backward from the
// bottom-right at once. Past a cost of an.expensive (unless minimal) it
// settles for the furthest-reaching point found so far.
func (an *analysis) diag(xoff, xlim, yoff, ylim int, minimal bool) (xmid, ymid int, loMin, hiMin bool) {
	xv, yv := an.undisc[0], an.undisc[1]
	fd, bd, o := an.fd, an.bd, an.off
	dmin, dmax := xoff-ylim, xlim-yoff
	fmid, bmid := xoff-yoff, xlim-ylim
	fmin, fmax := fmid, fmid
	bmin, bmax := bmid, bmid
	odd := (fmid-bmid)&1 != 0
	fd[o+fmid] = xoff
	bd[o+bmid] = xlim
	for c := 1; ; c++ {
		if fmin > dmin {
			fmin--
			fd[o+fmin-1] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fd[o+fmax+1] = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			tlo, thi := fd[o+d-1], fd[o+d+1]
			x := thi
			if tlo >= thi {
				x = tlo + 1
			}
			y := x - d
			for x < xlim && y < ylim && xv[x] == yv[y] {
				x++
				y++
			}
			fd[o+d] = x
			if odd && bmin <= d && d <= bmax && bd[o+d] <= x {
				return x, y, true, true
			}
		}
		if bmin > dmin {
			bmin--
			bd[o+bmin-1] = maxInt
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bd[o+bmax+1] = maxInt
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			tlo, thi := bd[o+d-1], bd[o+d+1]
			x := thi - 1
			if tlo < thi {
				x = tlo
			}
			y := x - d
			for x > xoff && y > yoff && xv[x-1] == yv[y-1] {
				x--
				y--
			}
			bd[o+d] = x
			if !odd && fmin <= d && d <= fmax && x <= fd[o+d] {
				return x, y, true, true
			}
		}
		if minimal || c < an.expensive {
			continue
		}
		// Too expensive: take the furthest-reaching forward or
		// backward diagonal.
		fxybest, fxbest := -1, 0
		for d := fmax; d >= fmin; d -= 2 {
			x := min(fd[o+d], xlim)
			y := x - d
			if ylim < y {
				x, y = ylim+d, ylim
			}
			if fxybest < x+y {
				fxybest, fxbest = x+y, x
			}
		}
		bxybest, bxbest := maxInt, 0
		for d := bmax; d >= bmin; d -= 2 {
			x := max(xoff, bd[o+d])
			y := x - d
			if y < yoff {
				x, y = yoff+d, yoff
			}
			if x+y < bxybest {
				bxybest, bxbest = x+y, x
			}
		}
		if (xlim+ylim)-bxybest < fxybest-(xoff+yoff) {
			return fxbest, fxybest - fxbest, true, false
		}
		return bxbest, bxybest - bxbest, false, true
	}
}

// shiftBoundaries slides each run of changed lines over identical
// neighbouring lines so that runs merge where they can, then as far
// down as possible, then back up to line up with a run in the other file.
func (an *analysis) shiftBoundaries() {
	for f := range 2 {
		ch := an.changed[f][1:] // ch[-1] is an.changed[f][0]
		eq := an.equivs[f]
		iEnd := len(eq)
		i, j := 0, 0
		for {
			for i < iEnd && !ch[i] {
				for an.isChanged(1-f, j) {
					j++
				}
				j++
				i++
			}
			if i == iEnd {
				break
			}
			start := i
			for i++; ch[i]; i++ {
			}
			for an.isChanged(1-f, j) {
				j++
			}
			var runlength, corresponding int
			for {
				runlength = i - start
				for start > 0 && eq[start-1] == eq[i-1] {
					start--
					ch[start] = true
					i--
					ch[i] = false
					for start > 0 && ch[start-1] {
						start--
					}
					j--
					for an.isChanged(1-f, j) {
						j--
					}
				}
				corresponding = iEnd
				if an.isChanged(1-f, j-1) {
					corresponding = i
				}
				for i != iEnd && eq[start] == eq[i] {
					ch[start] = false
					start++
					ch[i] = true
					i++
					for ch[i] {
						i++
					}
					for {
						j++
						if !an.isChanged(1-f, j) {
							break
						}
						corresponding = i
					}
				}
				if runlength == i-start {
					break
				}
			}
			for corresponding < i {
				start--
				ch[start] = true
				i--
				ch[i] = false
				j--
				for an.isChanged(1-f, j) {
					j--
				}
			}
		}
	}
}

// script turns the changed flags into a list of changes in order.
func (an *analysis) script() []change {
	var s []change
	n0, n1 := len(an.equivs[0]), len(an.equivs[1])
	c0, c1 := an.changed[0][1:], an.changed[1][1:]
	i0, i1 := 0, 0
	for i0 < n0 || i1 < n1 {
		if c0[i0] || c1[i1] {
			l0, l1 := i0, i1
			for c0[i0] {
				i0++
			}
			for c1[i1] {
				i1++
			}
			s = append(s, change{line0: l0, line1: l1, deleted: i0 - l0, inserted: i1 - l1})
		}
		i0++
		i1++
	}
	return s
}
