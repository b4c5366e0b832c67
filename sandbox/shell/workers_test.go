package shell

import (
	"sync"
	"testing"
)

// TestGoStage starts stages that can finish only together (each waits for
// the next), so each must run on a goroutine of its own as with a go
// statement, in rounds that reuse the workers the last round left; no
// more than maxIdleStageWorkers stay waiting.
func TestGoStage(t *testing.T) {
	for round := range 5 {
		const n = 3 * maxIdleStageWorkers
		var wg sync.WaitGroup
		gates := make([]chan int, n+1)
		for i := range gates {
			gates[i] = make(chan int, 1)
		}
		got := make([]int, n)
		for i := range n {
			wg.Add(1)
			goStage(func() {
				defer wg.Done()
				v := <-gates[i+1] // the next stage's value
				got[i] = v + 1
				gates[i] <- v + 1
			})
		}
		gates[n] <- 0
		wg.Wait()
		for i, v := range got {
			if v != n-i {
				t.Fatalf("round %d: stage %d got %d, want %d", round, i, v, n-i)
			}
		}
		if idle := idleStageWorkers.Load(); idle > maxIdleStageWorkers {
			t.Fatalf("round %d: %d idle workers", round, idle)
		}
	}
}
