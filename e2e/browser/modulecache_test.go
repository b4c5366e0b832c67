package browser

import (
	"slices"
	"testing"
)

// TestModuleCacheTrim checks the page's store of instrumented modules in
// the Cache API: a load marks its entry used, a store past the limit
// deletes the least recently used entries, and the caches of older entry
// formats go.
func TestModuleCacheTrim(t *testing.T) {
	s := buildSite(t)
	base := serveSite(t, s)
	ctx := newTab(t)
	open(t, ctx, base+"esm.html")
	var got struct {
		Loaded     []int
		Has        []bool
		Caches     []string
		Sizes      []int
		LegacyKept bool
	}
	eval(t, ctx, `(async () => {
		const { cacheModuleStore } = await import('./wasmsand/platform-browser.mjs');
		const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
		for (const n of await caches.keys()) await caches.delete(n);
		await (await caches.open('wasmsand-modules-v0')).put('/old-format', new Response('old'));
		await (await caches.open('someone-elses')).put('/theirs', new Response('theirs'));

		// Three modules of 1,000 bytes under a limit of 2,500.
		const store = cacheModuleStore({ limit: 2500, touchAfterMs: 0 });
		const raw = (i) => new TextEncoder().encode('module ' + i);
		const body = (i) => new Uint8Array(1000).fill(i);
		const usedSince = async (t) => {
			const c = await caches.open('wasmsand-modules-v1');
			for (const req of await c.keys()) {
				if (Number((await c.match(req)).headers.get('X-Wasmsand-Used')) > t) return true;
			}
			return false;
		};
		// An entry from before entries carried their use and size counts as
		// the oldest, at its real size: storing two modules puts the cache
		// over its limit, and it goes.
		await (await caches.open('wasmsand-modules-v1')).put('/legacy', new Response(new Uint8Array(1000)));
		await store.store(raw(1), '4096-v6', body(1));
		await sleep(5);
		await store.store(raw(2), '4096-v6', body(2));
		const legacyKept = (await (await caches.open('wasmsand-modules-v1')).match('/legacy')) !== undefined;
		await sleep(5);
		// Loading module 1 marks it used: module 2 is now the oldest.
		const t = Date.now();
		await sleep(5);
		const loaded = [(await store.load(raw(1), '4096-v6'))?.[999] ?? -1];
		for (let i = 0; i < 500 && !(await usedSince(t)); i++) await sleep(10);
		await sleep(5);
		await store.store(raw(3), '4096-v6', body(3));
		const has = [];
		for (const i of [1, 2, 3]) has.push((await store.load(raw(i), '4096-v6')) !== null);
		loaded.push((await store.load(raw(3), '4096-v6'))?.[0] ?? -1);
		const sizes = [];
		const c = await caches.open('wasmsand-modules-v1');
		for (const req of await c.keys()) sizes.push(Number((await c.match(req)).headers.get('X-Wasmsand-Size')));
		return { loaded, has, caches: (await caches.keys()).sort(), sizes, legacyKept };
	})()`, &got)
	if !slices.Equal(got.Loaded, []int{1, 3}) {
		t.Errorf("loaded modules' bytes %v, want [1 3]", got.Loaded)
	}
	if !slices.Equal(got.Has, []bool{true, false, true}) {
		t.Errorf("after a store past the limit, modules 1, 2, 3 held: %v, want [true false true] (2 was the least recently used)", got.Has)
	}
	if !slices.Equal(got.Caches, []string{"someone-elses", "wasmsand-modules-v1"}) {
		t.Errorf("caches %q, want the older format's gone and the rest kept", got.Caches)
	}
	if got.LegacyKept {
		t.Error("an entry without use and size headers was not counted at its size: the cache stayed over its limit")
	}
	if !slices.Equal(got.Sizes, []int{1000, 1000}) {
		t.Errorf("entries' sizes %v, want [1000 1000]", got.Sizes)
	}
}
