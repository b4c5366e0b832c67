package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/wasmsand/wasmsand/agent"
	"github.com/wasmsand/wasmsand/platform/native"
	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// snapToolset is newToolset with a store of snapshots, or none.
func snapToolset(t *testing.T, st sandbox.Store, prefix string) *agent.Toolset {
	t.Helper()
	o := sandbox.Options{ToolsDir: guesttest.Dir(t)}
	sb, err := sandbox.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := agent.New(sb, agent.Options{Sandbox: o, Store: st, SnapshotPrefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ts.Sandbox().Close() })
	return ts
}

func stdout(t *testing.T, ts *agent.Toolset, command string) string {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"command": command})
	return call(t, ts, agent.ToolRun, string(args)).(*agent.RunResult).Stdout
}

const (
	before = "mkdir -p /tmp/w && cd /tmp/w && echo one > f; V=1; fn() { echo fn1; }"
	after  = "echo two > f; echo extra > g; V=2; fn() { echo fn2; }; cd /"
	probe  = "pwd; cat f; ls; echo $V; fn"
)

func TestSnapshotRestoreBase64(t *testing.T) {
	ts := snapToolset(t, nil, "")
	stdout(t, ts, before)
	want := stdout(t, ts, probe)
	r := call(t, ts, agent.ToolSnapshot, `{}`).(*agent.SnapshotResult)
	if r.Name != "" || r.Snapshot == "" || r.Size == 0 {
		t.Fatalf("snapshot: %+v", r)
	}
	stdout(t, ts, after)
	old := ts.Sandbox()
	call(t, ts, agent.ToolRestore, fmt.Sprintf(`{"snapshot":%q}`, r.Snapshot))
	if got := stdout(t, ts, probe); got != want || want != "/tmp/w\none\nf\n1\nfn1\n" {
		t.Fatalf("restored: %q, want %q", got, want)
	}
	if _, err := old.Run(context.Background(), "true"); !errors.Is(err, sandbox.ErrClosed) {
		t.Fatalf("the replaced sandbox: %v", err)
	}
	callErr(t, ts, agent.ToolSnapshot, `{"name":"x"}`, agent.CodeInvalidArgument) // no store for names
	callErr(t, ts, agent.ToolRestore, `{"name":"x"}`, agent.CodeInvalidArgument)
	callErr(t, ts, agent.ToolRestore, `{}`, agent.CodeInvalidArgument)
	callErr(t, ts, agent.ToolRestore, `{"snapshot":"!!"}`, agent.CodeInvalidArgument)
	callErr(t, ts, agent.ToolRestore, `{"snapshot":"aGVsbG8="}`, agent.CodeInvalidArgument) // "hello"
	// After the failures the sandbox is the restored one, unharmed.
	if got := stdout(t, ts, probe); got != want {
		t.Fatalf("after failed restores: %q", got)
	}
}

func TestSnapshotRestoreNamed(t *testing.T) {
	ctx := context.Background()
	st := native.DirStore(t.TempDir())
	ts := snapToolset(t, st, "sess..")
	stdout(t, ts, before)
	want := stdout(t, ts, probe)
	r := call(t, ts, agent.ToolSnapshot, `{"name":"before-change"}`).(*agent.SnapshotResult)
	if r.Name != "before-change" || r.Snapshot != "" {
		t.Fatalf("snapshot: %+v", r)
	}
	if _, err := st.Get(ctx, "sess..before-change"); err != nil {
		t.Fatalf("not in the store under the prefix: %v", err)
	}
	auto := call(t, ts, agent.ToolSnapshot, `{}`).(*agent.SnapshotResult)
	if auto.Name == "" {
		t.Fatalf("no name made up: %+v", auto)
	}
	stdout(t, ts, after)
	res := call(t, ts, agent.ToolRestore, `{"name":"before-change"}`).(*agent.RestoreResult)
	if res.Restored != "before-change" {
		t.Fatalf("restore: %+v", res)
	}
	if got := stdout(t, ts, probe); got != want {
		t.Fatalf("restored: %q, want %q", got, want)
	}
	callErr(t, ts, agent.ToolRestore, `{"name":"nope"}`, "ENOENT")
	callErr(t, ts, agent.ToolSnapshot, `{"name":"a.b"}`, agent.CodeInvalidArgument)
	callErr(t, ts, agent.ToolSnapshot, `{"name":"../x"}`, agent.CodeInvalidArgument)
	callErr(t, ts, agent.ToolRestore, `{"name":"x","snapshot":"aGk="}`, agent.CodeInvalidArgument)
	// Another session's prefix does not see these snapshots.
	other := snapToolset(t, st, "other..")
	callErr(t, other, agent.ToolRestore, `{"name":"before-change"}`, "ENOENT")
}
