// Measures snapshots in Node: fork, snapshot, restore, save and load
// through files of a sandbox holding 100 MB in 10,000 files, and the
// memory of 100 idle sandboxes. Run after building the package:
//
//	go run ./web/mkpackage -o build/npm
//	WASMSAND_PKG=build/npm node --expose-gc e2e/node/snapshot-bench.mjs [big|memory]
import { pathToFileURL } from 'node:url';
import { resolve, join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { Sandbox } = await import(pkg);

function time(label, n, fn) {
  return (async () => {
    await fn(); // warm
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    const ms = (performance.now() - t0) / n;
    console.log(`${label}: ${ms.toFixed(2)} ms`);
    return ms;
  })();
}

if (process.argv[2] !== 'memory') {
const dir = await mkdtemp(join(tmpdir(), 'wasmsand-bench-'));
const sb = await Sandbox.create({ fsLimitBytes: 200 << 20, storeDir: dir });
const data = new Uint8Array(10_000);
for (let d = 0; d < 100; d++) {
  sb.mkdir(`/home/user/d${d}`);
  for (let f = 0; f < 100; f++) {
    for (let i = 0; i < data.length; i += 4) data[i] = (d * 131 + f * 7 + i) & 255;
    sb.writeFile(`/home/user/d${d}/f${f}`, data);
  }
}
await time('fork (100 MB, 10,000 files)', 10, async () => (await sb.fork()).destroy());
let snap;
await time('snapshot', 5, async () => { snap = sb.snapshot(); });
console.log(`snapshot size: ${(snap.length / 1e6).toFixed(1)} MB`);
await time('restore', 5, async () => (await Sandbox.restore(snap)).destroy());
await time('save to disk', 5, () => sb.save('big'));
await time('load from disk', 5, async () => (await Sandbox.load('big', { storeDir: dir })).destroy());
sb.destroy();
await rm(dir, { recursive: true, force: true });

}
if (process.argv[2] !== 'big') {
globalThis.gc?.();
const before = process.memoryUsage();
const many = [];
for (let i = 0; i < 100; i++) {
  const s = await Sandbox.create();
  await s.run('x=1; echo hi >/dev/null');
  many.push(s);
}
globalThis.gc?.();
await new Promise((r) => setTimeout(r, 100));
const after = process.memoryUsage();
console.log(`100 idle sandboxes: ${((after.rss - before.rss) / 100 / 1e6).toFixed(2)} MB RSS each, ` +
  `${((after.heapUsed - before.heapUsed) / 100 / 1e6).toFixed(3)} MB JS heap each`);
console.log(`fresh snapshot: ${many[0].snapshot().length} bytes`);
for (const s of many) s.destroy();
}
