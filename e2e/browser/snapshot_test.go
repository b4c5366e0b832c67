package browser

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// TestPersistReload creates a sandbox with persist, changes its files and
// variables, reloads the page and finds both back (through IndexedDB);
// then checks snapshot, restore, fork and a bad snapshot in the page.
func TestPersistReload(t *testing.T) {
	s := buildSite(t)
	base := serveSite(t, s)
	ctx := newTab(t)
	open(t, ctx, base+"esm.html")
	eval(t, ctx, `(async () => {
		await W.Sandbox.delete('page-work').catch(() => {});
		const sb = await W.Sandbox.create({ persist: 'page-work' });
		await sb.run('echo kept > f; v=42; g() { echo "g $v"; }');
		sb.destroy();
	})()`, nil)

	open(t, ctx, base+"esm.html") // a reload: a new page, a new core
	var got struct {
		Stdout string
		Names  []string
	}
	eval(t, ctx, `(async () => {
		const sb = await W.Sandbox.create({ persist: 'page-work' });
		const r = await sb.run('cat f; g');
		sb.destroy();
		const names = (await W.Sandbox.list()).map((e) => e.name);
		return { stdout: r.stdout, names };
	})()`, &got)
	if got.Stdout != "kept\ng 42\n" {
		t.Errorf("after a reload: %q, want the saved file and function", got.Stdout)
	}
	found := false
	for _, n := range got.Names {
		found = found || n == "page-work"
	}
	if !found {
		t.Errorf("Sandbox.list() = %v, want page-work in it", got.Names)
	}

	var res struct {
		Restored, Parent, Child, Check, Code string
		Deleted                              bool
	}
	eval(t, ctx, `(async () => {
		const sb = await W.Sandbox.create({ seed: 3 });
		await sb.run('echo one > f; x=1');
		const r = await W.Sandbox.restore(sb.snapshot());
		const c = await r.fork();
		await c.run('echo two > f; x=2');
		const out = {
			restored: (await r.run('cat f; echo $x')).stdout,
			child: (await c.run('cat f; echo $x')).stdout,
		};
		out.parent = (await sb.run('cat f; echo $x')).stdout;
		const bad = sb.snapshot().slice(0, 20);
		try { await W.Sandbox.restore(bad); } catch (e) { out.code = e.code; out.check = e.check; }
		await W.Sandbox.delete('page-work');
		out.deleted = !(await W.Sandbox.list()).some((e) => e.name === 'page-work');
		sb.destroy(); r.destroy(); c.destroy();
		return out;
	})()`, &res)
	if res.Restored != "one\n1\n" || res.Parent != "one\n1\n" || res.Child != "two\n2\n" {
		t.Errorf("restore and fork in the page: %+v", res)
	}
	if res.Code != "SNAPSHOT_ERROR" || res.Check != "truncated" {
		t.Errorf("a cut snapshot: code %q check %q, want SNAPSHOT_ERROR truncated", res.Code, res.Check)
	}
	if !res.Deleted {
		t.Error("Sandbox.delete left page-work in the list")
	}
}

// TestSnapshotCrossRuntimeChromium runs the same script natively and in
// Chromium: the snapshots must be the same bytes, and the native one
// restored in the page must answer a probe as the native sandbox does.
func TestSnapshotCrossRuntimeChromium(t *testing.T) {
	s := buildSite(t)
	base := serveSite(t, s)
	ctx := newTab(t)
	open(t, ctx, base+"esm.html")

	const script = `mkdir -p d && seq 3 | sort -r > d/s && head -c 100 /dev/urandom | od -An -tx1 | tail -n 1 > d/u
ln -s d/s link; x=$RANDOM; declare -A m=([k]=v); f() { echo "f:$x"; }; cd d`
	const probe = `declare -p x m; f; pwd; cat s u ../link; echo $RANDOM`
	const clockMs = 1767323045000
	clock := time.UnixMilli(clockMs).UTC()
	opts := sandbox.Options{ToolsDir: guesttest.Dir(t), CacheDir: t.TempDir(), Seed: 4,
		Clock: func() time.Time { return clock }}
	bg := context.Background()
	sb, err := sandbox.New(bg, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if res, err := sb.Run(bg, script); err != nil || res.ExitCode != 0 {
		t.Fatalf("native script: %v %+v", err, res)
	}
	native, err := sb.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Snap  string // base64
		Probe string
	}
	eval(t, ctx, `(async () => {
		const opts = { seed: 4, clock: `+strconv.Itoa(clockMs)+` };
		const sb = await W.Sandbox.create(opts);
		await sb.run(`+jsString(script)+`);
		const snap = sb.snapshot();
		const native = Uint8Array.from(atob(`+jsString(base64.StdEncoding.EncodeToString(native))+`), (c) => c.charCodeAt(0));
		const r = await W.Sandbox.restore(native, { clock: opts.clock });
		const probe = (await r.run(`+jsString(probe)+`)).stdout;
		sb.destroy(); r.destroy();
		let bin = '';
		for (const b of snap) bin += String.fromCharCode(b);
		return { snap: btoa(bin), probe };
	})()`, &got)
	inPage, err := base64.StdEncoding.DecodeString(got.Snap)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(native, inPage) {
		t.Errorf("the same script gave different snapshots natively (%d bytes) and in Chromium (%d bytes)", len(native), len(inPage))
	}
	r, err := sandbox.Restore(bg, inPage, opts)
	if err != nil {
		t.Fatalf("Chromium's snapshot restored natively: %v", err)
	}
	defer r.Close()
	for name, s := range map[string]*sandbox.Sandbox{"native sandbox": sb, "Chromium's snapshot restored natively": r} {
		res, err := s.Run(bg, probe)
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Stdout) != got.Probe {
			t.Errorf("%s:\n%s\nnative snapshot restored in Chromium:\n%s", name, res.Stdout, got.Probe)
		}
	}
}

// TestIndexedDBQuota lowers the page's storage quota through the DevTools
// protocol, fills it with a save, and expects QUOTA_EXCEEDED with the
// previous save intact.
func TestIndexedDBQuota(t *testing.T) {
	s := buildSite(t)
	base := serveSite(t, s)
	ctx := newTab(t)
	open(t, ctx, base+"esm.html")
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	origin := u.Scheme + "://" + u.Host
	quota := float64(4 << 20)
	if _, err := chromedp.Call(ctx, storage.OverrideQuotaForOrigin, storage.OverrideQuotaForOriginParams{Origin: origin, QuotaSize: &quota}); err != nil {
		t.Fatalf("Storage.overrideQuotaForOrigin: %v", err)
	}
	defer chromedp.Call(ctx, storage.OverrideQuotaForOrigin, storage.OverrideQuotaForOriginParams{Origin: origin})
	var got struct {
		Code, Kept string
		Saves      []string
	}
	eval(t, ctx, `(async () => {
		const sb = await W.Sandbox.create({ fsLimitBytes: 64 << 20 });
		await sb.run('echo small > f');
		await sb.save('quota-test');
		// 16 MB of random bytes: more than the quota even if stored compressed.
		const big = new Uint8Array(16 << 20);
		for (let i = 0; i < big.length; i += 65536) crypto.getRandomValues(big.subarray(i, i + 65536));
		sb.writeFile('/home/user/big', big);
		await sb.run('echo large > f');
		const out = {};
		try { await sb.save('quota-test'); out.code = 'none'; } catch (e) { out.code = e.code; }
		sb.destroy();
		const back = await W.Sandbox.load('quota-test');
		out.kept = (await back.run('cat f; test -e big && echo big')).stdout;
		back.destroy();
		out.saves = (await W.Sandbox.list()).map((e) => e.name);
		await W.Sandbox.delete('quota-test');
		return out;
	})()`, &got)
	if got.Code != "QUOTA_EXCEEDED" {
		t.Errorf("a save past the quota: code %q, want QUOTA_EXCEEDED", got.Code)
	}
	if got.Kept != "small\n" {
		t.Errorf("after the failed save, the saved sandbox has %q, want the previous save (small)", got.Kept)
	}
}

// TestIndexedDBTiming measures save and load through IndexedDB of a
// sandbox holding 20 MB in 2,000 files, and fork, snapshot and restore in
// the page (logged; it fails only if an operation does).
func TestIndexedDBTiming(t *testing.T) {
	s := buildSite(t)
	base := serveSite(t, s)
	ctx := newTab(t)
	open(t, ctx, base+"esm.html")
	var ms map[string]float64
	eval(t, ctx, `(async () => {
		const sb = await W.Sandbox.create({ fsLimitBytes: 64 << 20 });
		const data = new Uint8Array(10_000);
		for (let d = 0; d < 20; d++) {
			sb.mkdir('/home/user/d' + d);
			for (let f = 0; f < 100; f++) {
				crypto.getRandomValues(data);
				sb.writeFile('/home/user/d' + d + '/f' + f, data);
			}
		}
		const out = {};
		const time = async (name, fn) => { const t0 = performance.now(); await fn(); out[name] = performance.now() - t0; };
		await time('fork', async () => (await sb.fork()).destroy());
		let snap;
		await time('snapshot', () => { snap = sb.snapshot(); });
		await time('restore', async () => (await W.Sandbox.restore(snap)).destroy());
		await time('save', () => sb.save('timing'));
		await time('load', async () => (await W.Sandbox.load('timing')).destroy());
		await W.Sandbox.delete('timing');
		sb.destroy();
		out.megabytes = snap.length / 1e6;
		return out;
	})()`, &ms)
	t.Logf("Chromium, %.1f MB in 2,000 files: fork %.1f ms, snapshot %.1f ms, restore %.1f ms, IndexedDB save %.1f ms, load %.1f ms",
		ms["megabytes"], ms["fork"], ms["snapshot"], ms["restore"], ms["save"], ms["load"])
}
