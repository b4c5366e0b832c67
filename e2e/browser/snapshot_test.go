package browser

import "testing"

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
