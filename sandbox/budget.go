package sandbox

import (
	"context"
	"fmt"
	"runtime/metrics"
	"strconv"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// The shell runs in the host, so a few shell-level constructs could
// exhaust the host's memory before any limit on guests applies. This file
// holds the checks the interpreter itself lacks.

// maxBraceWords bounds the words one brace expansion may produce:
// `echo {1..1000}{1..1000}{1..1000}` would otherwise build a billion
// strings before running anything.
const maxBraceWords = 1 << 20

// checkBraces rejects programs with a brace expansion larger than
// maxBraceWords. It looks at the words as written; `eval` arguments are
// checked when the call handler sees them.
func checkBraces(f syntax.Node) error {
	var err error
	syntax.Walk(f, func(n syntax.Node) bool {
		w, ok := n.(*syntax.Word)
		if !ok || err != nil {
			return err == nil
		}
		if c := braceWords(w); c > maxBraceWords {
			err = fmt.Errorf("brace expansion would produce %s words (limit %d)", approx(c), maxBraceWords)
		}
		return true
	})
	return err
}

func approx(n float64) string {
	if n >= 1e15 {
		return "more than 10^15"
	}
	return strconv.FormatFloat(n, 'f', 0, 64)
}

// braceWords counts the words w expands to through braces alone, on a
// copy of w (syntax.SplitBraces rewrites the word it is given).
func braceWords(w *syntax.Word) float64 {
	cp := &syntax.Word{Parts: make([]syntax.WordPart, len(w.Parts))}
	for i, p := range w.Parts {
		if lit, ok := p.(*syntax.Lit); ok {
			l := *lit
			p = &l
		}
		cp.Parts[i] = p
	}
	if !syntax.SplitBraces(cp) {
		return 1
	}
	return countWords(cp)
}

func countWords(w *syntax.Word) float64 {
	total := 1.0
	for _, p := range w.Parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		total *= braceSize(b)
		if total > 1e15 {
			return total
		}
	}
	return total
}

func braceSize(b *syntax.BraceExp) float64 {
	if !b.Sequence {
		sum := 0.0
		for _, e := range b.Elems {
			sum += countWords(e)
		}
		return sum
	}
	if len(b.Elems) < 2 {
		return 1
	}
	from, to := b.Elems[0].Lit(), b.Elems[1].Lit()
	step := 1.0
	if len(b.Elems) > 2 {
		if s, err := strconv.ParseFloat(b.Elems[2].Lit(), 64); err == nil && s != 0 {
			step = max(s, -s)
		}
	}
	x, err1 := strconv.ParseFloat(from, 64)
	y, err2 := strconv.ParseFloat(to, 64)
	if err1 != nil || err2 != nil {
		if len(from) == 1 && len(to) == 1 { // {a..z}
			x, y = float64(from[0]), float64(to[0])
		} else {
			return 1
		}
	}
	return max(x-y, y-x)/step + 1
}

// shellMemoryLimit bounds how much the host's heap may grow while a Run
// executes only shell code (`while :; do x=$x$x; done`).
const shellMemoryLimit = 512 << 20

// shellMemoryCheck is how often the watchdog samples the heap.
const shellMemoryCheck = 10 * time.Millisecond

// watchShellMemory stops r when the heap grows past shellMemoryLimit plus
// the memory its live guests may hold (each is capped by the instrumenter)
// while r is the only Run in the process (other Runs' growth is not r's).
// It returns when ctx ends.
func watchShellMemory(ctx context.Context, r *runState) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() uint64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return sample[0].Value.Uint64()
	}
	base := heap()
	t := time.NewTicker(shellMemoryCheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if activeRuns() > 1 {
			base = max(base, heap())
			continue
		}
		allowed := uint64(shellMemoryLimit) + uint64(r.live.Load())*uint64(r.s.opts.MemoryLimit)
		if h := heap(); h > base+allowed {
			r.fail(fmt.Errorf("shell memory limit exceeded: the shell's variables grew by more than %d MiB", shellMemoryLimit>>20))
			return
		}
	}
}
