package shell

import "sync/atomic"

// A pipeline runs each stage on a goroutine of its own. A new goroutine
// starts on the smallest stack and grows it, copying every frame each
// time it doubles, as the stage descends through the interpreter and the
// sandbox to a guest: in the js core, with a 200-step loop of
// `echo a | tr a b`, stack growth was about 2% of the CPU time. goStage
// hands a stage to a goroutine that ran one before, whose stack has grown
// already, or starts one.

// stageWork carries a stage to an idle worker; a send succeeds only when
// one is waiting.
var stageWork = make(chan func())

// idleStageWorkers counts the workers waiting for a stage.
var idleStageWorkers atomic.Int32

// maxIdleStageWorkers bounds the goroutines kept waiting between
// pipelines, process-wide.
const maxIdleStageWorkers = 8

// goStage runs f on a goroutine, as a go statement does.
func goStage(f func()) {
	select {
	case stageWork <- f:
	default:
		go stageWorker(f)
	}
}

func stageWorker(f func()) {
	for {
		f()
		if idleStageWorkers.Add(1) > maxIdleStageWorkers {
			idleStageWorkers.Add(-1)
			return
		}
		f = <-stageWork
		idleStageWorkers.Add(-1)
	}
}
