// Timings of the wasmsand npm package under Node: cold start to first
// output, a builtin, a warm guest command and a 200-step loop spawning a
// guest. Run after building the package:
//
//	WASMSAND_PKG=build/npm node e2e/node/bench.mjs
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const t0 = performance.now(); // since the process started: performance.timeOrigin
const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { Sandbox } = await import(pkg);

const sb = await Sandbox.create();
let first = 0;
await sb.run('echo hi', { onStdout: () => { first ||= performance.now(); } });
const rows = [['cold start to first output (process start → "hi")', first]];

const t1 = performance.now();
await sb.run('/bin/true');
rows.push(['first guest command (instrument + compile)', performance.now() - t1]);

function median(xs) {
  xs.sort((a, b) => a - b);
  return xs[xs.length >> 1];
}
async function time(cmd, n) {
  const xs = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await sb.run(cmd);
    xs.push(performance.now() - t);
    if (r.exitCode !== 0) throw new Error(`${cmd}: exit ${r.exitCode}: ${r.stderr}`);
  }
  return median(xs);
}
rows.push(['echo hi (builtin), median', await time('echo hi', 50)]);
rows.push(['/bin/true (guest), warm median', await time('/bin/true', 50)]);
rows.push(['seq 100 | grep 7 | wc -l, warm median', await time('seq 100 | grep 7 | wc -l', 20)]);
const loop = await time('for i in $(seq 200); do /bin/true; done', 3);
rows.push(['200-iteration loop spawning /bin/true', loop]);
rows.push(['  per iteration', loop / 200]);
sb.destroy();
for (const [name, ms] of rows) {
  if (ms) console.log(`${name.padEnd(52)} ${ms.toFixed(2).padStart(9)} ms`);
}
