package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// crossScript runs guests (sort, od, head, urandom through the PRNG) and
// leaves shell state, so that both runtimes must agree on all of it.
const crossScript = `mkdir -p d/e && seq 5 | sort -r > d/s && head -c 3000 /dev/urandom | od -An -tx1 | tail -n 2 > d/u
ln -s d/s link; ln d/s hard; chmod 640 d/s
x=$RANDOM; declare -A m=([k]=v [j]=w); a=(1 "2 3"); f() { echo "f:$1:$x"; }; alias l='ls -l'; cd d/e; set -o pipefail`

const crossProbe = `declare -p x m a; f z; pwd; cat ../s ../u ../../link; ls -l ../../hard | cut -c1-24; echo $RANDOM $RANDOM; head -c 16 /dev/urandom | od -An -tx1`

// crossClock is the fixed sandbox time of the cross-runtime test, in ms.
const crossClock = 1767323045000

// TestSnapshotCrossRuntime runs the same script natively and in Node 26:
// the two snapshots must be the same bytes, and the native snapshot
// restored in Node (and Node's restored natively) must answer the probe
// as the native sandbox does.
func TestSnapshotCrossRuntime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the npm package and runs Node; not in -short mode")
	}
	node := node26(t)
	pkg := buildPackage(t)
	ctx := context.Background()
	clock := time.UnixMilli(crossClock).UTC()
	opts := sandbox.Options{ToolsDir: guesttest.Dir(t), CacheDir: t.TempDir(), Seed: 9,
		Clock: func() time.Time { return clock }}
	sb, err := sandbox.New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if res, err := sb.Run(ctx, crossScript); err != nil || res.ExitCode != 0 {
		t.Fatalf("native script: %v %+v", err, res)
	}
	native, err := sb.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	nativeFile, nodeFile := filepath.Join(dir, "native.wsbx"), filepath.Join(dir, "node.wsbx")
	if err := os.WriteFile(nativeFile, native, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
const { Sandbox } = await import(pathToFileURL(process.env.WASMSAND_PKG + '/index.mjs'));
const [nativeFile, nodeFile, script, probe, clock] = process.argv.slice(2);
const opts = { seed: 9, clock: Number(clock) };
const sb = await Sandbox.create(opts);
const res = await sb.run(script);
if (res.exitCode !== 0) throw new Error('script failed: ' + res.stderr);
await writeFile(nodeFile, sb.snapshot());
const r = await Sandbox.restore(await readFile(nativeFile), { clock: opts.clock });
const p = await r.run(probe);
process.stdout.write(JSON.stringify({ stdout: p.stdout, stderr: p.stderr, exitCode: p.exitCode }));
sb.destroy(); r.destroy();
`
	scriptFile := filepath.Join(dir, "cross.mjs")
	if err := os.WriteFile(scriptFile, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, scriptFile, nativeFile, nodeFile, crossScript, crossProbe, "1767323045000")
	cmd.Env = append(os.Environ(), "WASMSAND_PKG="+pkg)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.Bytes())
	}
	var inNode struct {
		Stdout, Stderr string
		ExitCode       int
	}
	if err := json.Unmarshal(out, &inNode); err != nil {
		t.Fatalf("node printed %q: %v", out, err)
	}
	fromNode, err := os.ReadFile(nodeFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(native, fromNode) {
		t.Errorf("the same script gave different snapshots: native %d bytes, Node %d bytes (first difference at byte %d)",
			len(native), len(fromNode), firstDiff(native, fromNode))
	}
	// Node's snapshot restored natively, and the native sandbox itself,
	// answer the probe as the native snapshot restored in Node did.
	r, err := sandbox.Restore(ctx, fromNode, opts)
	if err != nil {
		t.Fatalf("restoring Node's snapshot natively: %v", err)
	}
	defer r.Close()
	for name, s := range map[string]*sandbox.Sandbox{"native sandbox": sb, "Node's snapshot restored natively": r} {
		res, err := s.Run(ctx, crossProbe)
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Stdout) != inNode.Stdout || res.ExitCode != inNode.ExitCode {
			t.Errorf("%s:\n%s(%d)\nnative snapshot restored in Node:\n%s%s(%d)", name, res.Stdout, res.ExitCode, inNode.Stdout, inNode.Stderr, inNode.ExitCode)
		}
	}
	t.Logf("snapshot: %d bytes, identical natively and in Node; probe:\n%s", len(native), inNode.Stdout)
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
