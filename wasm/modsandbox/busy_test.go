package modsandbox

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestBusyLoad checks that a Load in progress holds no lock others wait
// for (under GOOS=js a JavaScript callback asking for the status must not
// wait for the engine), refuses other moves, and ends at a Destroy.
func TestBusyLoad(t *testing.T) {
	cfg := baseConfig()
	cfg.MaxGas = 1 << 40
	cfg.MaxExecutionMs = 5_000
	in, err := sharedRuntime().Create(cfg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- in.Load(context.Background(), readTestdata(t, "start.wasm")) }()
	time.Sleep(50 * time.Millisecond) // the start function spins

	start := time.Now()
	if s := in.Status(); s != StatusCreated {
		t.Errorf("status during the load: %s, want created", s)
	}
	_ = in.Metrics()
	err = in.Load(context.Background(), readTestdata(t, "small.wasm"))
	wantCode(t, "second load", err, CodeInvalidState)
	if !strings.Contains(err.Error(), "in progress") {
		t.Errorf("second load: %v, want it to say a load is in progress", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("status, metrics and a refused load took %v during a load", d)
	}
	in.Destroy()
	select {
	case err := <-done:
		wantCode(t, "load ended by Destroy", err, CodeInstanceDestroyed)
	case <-time.After(3 * time.Second):
		t.Fatal("Destroy did not stop the load")
	}
	if s := in.Status(); s != StatusDestroyed {
		t.Errorf("status %s, want destroyed", s)
	}
}

// TestJSONStringPayload checks that strings reach the guest as
// JavaScript's JSON.stringify writes them, without HTML escapes.
func TestJSONStringPayload(t *testing.T) {
	in := loaded(t, baseConfig())
	r := in.Execute(context.Background(), "echo", `<a href="x">&</a>`)
	if !r.OK {
		t.Fatal(r.Error)
	}
	if got, want := string(r.Value.(json.RawMessage)), `"<a href=\"x\">&</a>"`; got != want {
		t.Errorf("guest got %s, want %s", got, want)
	}
}
