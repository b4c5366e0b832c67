// Timings of createWasmSandbox under Node: create, load of a small
// module, execute (a simple export and fib(20)), snapshot and restore of
// 1 MiB of memory, and create+load+execute. Run after building the
// package (or through TestNodeBench):
//
//	WASMSAND_PKG=build/npm node e2e/modsandbox/node/bench.mjs
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { createWasmSandbox } = await import(pkg);
const testdata = new URL('../testdata/', import.meta.url);
const fib = new Uint8Array(await readFile(new URL('fib.wasm', testdata)));
const memory = new Uint8Array(await readFile(new URL('memory.wasm', testdata)));

const ws = await createWasmSandbox();
const cfg = { eventTimestamp: 1_700_000_000_000 };

// time runs fn (sync or async) warm times, then n times, and returns the
// median and mean in ms.
async function time(n, fn, warm = Math.min(n, 20)) {
  for (let i = 0; i < warm; i++) await fn();
  const xs = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  xs.sort((a, b) => a - b);
  return { median: xs[n >> 1], mean };
}

function must(r) {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r;
}

const rows = [];
rows.push(['create (+ destroy)', 1, await time(2000, () => ws.destroy(ws.create(cfg)))]);
rows.push(['load small module (+ create, destroy)', 5, await time(300, async () => {
  const i = ws.create(cfg);
  await ws.load(i, fib);
  ws.destroy(i);
})]);
const inst = ws.create(cfg);
await ws.load(inst, fib);
rows.push(['execute add(1, 2)', 0.1, await time(2000, async () => must(await ws.execute(inst, 'add', [1, 2])))]);
rows.push(['execute fib(20)', null, await time(100, async () => must(await ws.execute(inst, 'fib', 20)))]);
ws.destroy(inst);

const big = ws.create({ ...cfg, maxGas: 1e9 });
await ws.load(big, memory);
must(await ws.execute(big, 'grow', [15]));
must(await ws.execute(big, 'fill', [1]));
if (ws.getMetrics(big).memoryBytes !== 1 << 20) throw new Error('memory is not 1 MiB');
let snap;
rows.push(['snapshot, 1 MiB memory', 1, await time(200, () => { snap = ws.snapshot(big); })]);
rows.push(['restore, 1 MiB memory', 1, await time(200, () => ws.restore(big, snap))]);
ws.destroy(big);

rows.push(['create + load + execute + destroy', null, await time(300, async () => {
  const i = ws.create(cfg);
  await ws.load(i, fib);
  must(await ws.execute(i, 'add', [1, 2]));
  ws.destroy(i);
})]);

console.log(`Node ${process.version}, createWasmSandbox`);
console.log(`${'operation'.padEnd(40)} ${'median'.padStart(10)} ${'mean'.padStart(10)}   target`);
for (const [name, target, { median, mean }] of rows) {
  const t = target === null ? '' : `≤ ${target} ms ${median <= target ? 'ok' : 'MISSED'}`;
  console.log(`${name.padEnd(40)} ${median.toFixed(4).padStart(10)} ${mean.toFixed(4).padStart(10)}   ${t}`);
}
