package modsandbox

import (
	"context"
	"crypto/sha256"
	"fmt"
	"reflect"
)

// DeterminismReport is the outcome of ValidateDeterminism.
type DeterminismReport struct {
	// Deterministic is true when the two runs agree on everything.
	Deterministic bool
	// Differences lists what differed, empty when Deterministic.
	Differences []string
	// Runs are the two results.
	Runs [2]Result
	// StateHashes are SHA-256 sums of the two snapshots taken after the
	// runs (zero if a snapshot failed).
	StateHashes [2][sha256.Size]byte
}

// ValidateDeterminism creates two fresh instances with cfg, loads module
// into each, executes action with payload in each and compares the
// outcome, value, error, gas, host-call log, __log messages and the
// resulting state (snapshot). A load failure is returned as an error.
func (r *Runtime) ValidateDeterminism(ctx context.Context, module []byte, action string, payload any, cfg Config) (*DeterminismReport, error) {
	rep := &DeterminismReport{}
	for i := range rep.Runs {
		in, err := r.Create(cfg)
		if err != nil {
			return nil, err
		}
		if err := in.Load(ctx, module); err != nil {
			in.Destroy()
			return nil, err
		}
		rep.Runs[i] = in.Execute(ctx, action, payload)
		if snap, err := in.Snapshot(); err == nil {
			rep.StateHashes[i] = sha256.Sum256(snap)
		}
		in.Destroy()
	}
	a, b := &rep.Runs[0], &rep.Runs[1]
	diff := func(what string, x, y any) {
		if !reflect.DeepEqual(x, y) {
			rep.Differences = append(rep.Differences, fmt.Sprintf("%s: %v vs %v", what, x, y))
		}
	}
	diff("ok", a.OK, b.OK)
	diff("value", a.Value, b.Value)
	diff("error", errorKey(a.Error), errorKey(b.Error))
	diff("gas", a.GasUsed, b.GasUsed)
	diff("host calls", len(a.HostCalls), len(b.HostCalls))
	for i := range min(len(a.HostCalls), len(b.HostCalls)) {
		diff(fmt.Sprintf("host call %d", i), a.HostCalls[i], b.HostCalls[i])
	}
	diff("logs", a.Logs, b.Logs)
	diff("state", rep.StateHashes[0], rep.StateHashes[1])
	rep.Deterministic = len(rep.Differences) == 0
	return rep, nil
}

func errorKey(e *Error) string {
	if e == nil {
		return ""
	}
	return e.Error()
}
