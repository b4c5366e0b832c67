// Tests of the npm package's module store on disk ($WASMSAND_CACHE_DIR):
// what a process stores, the next one loads, and the store stays under
// $WASMSAND_CACHE_LIMIT by removing the least recently used files. Each
// case runs sandboxes in fresh Node processes: the store belongs to a
// process's engine, which the first sandbox sets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs').href;

// run runs cmd in a sandbox in a new Node process whose module store is
// dir, with env added, and returns the command's stdout. The process
// ends by itself, so that a load's mark of use is written.
function run(dir, cmd, env = {}) {
  const script = `const { Sandbox } = await import(${JSON.stringify(pkg)});
    const sb = await Sandbox.create();
    const r = await sb.run(process.env.CMD);
    sb.destroy();
    process.stdout.write(r.stdout);
    if (r.exitCode !== 0) { process.stderr.write(r.stderr); process.exitCode = 1; }`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, WASMSAND_CACHE_DIR: dir, CMD: cmd, ...env },
    timeout: 120e3,
  }).toString();
}

// files returns the store's files: name → {size, mtimeMs}.
function files(dir) {
  return Object.fromEntries(readdirSync(dir).map((n) => {
    const st = statSync(join(dir, n));
    return [n, { size: st.size, mtimeMs: st.mtimeMs }];
  }));
}

const sum = (fs) => Object.values(fs).reduce((s, f) => s + f.size, 0);
const ago = (ms) => new Date(Date.now() - ms);
const day = 86400e3;

test('the store keeps what is used and removes the least recently used past its limit', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wasmsand-cache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));

  // What one module and another take in the store.
  assert.equal(run(dir, 'echo hi | wc -c').trim(), '3');
  const core = files(dir);
  assert.ok(Object.keys(core).length > 0, 'wc stored nothing');
  assert.equal(run(dir, 'echo a | sed s/a/b/'), 'b\n');
  const sed = Object.fromEntries(Object.entries(files(dir)).filter(([n]) => !(n in core)));
  assert.ok(Object.keys(sed).length > 0, 'sed stored nothing');
  for (const n of Object.keys(sed)) rmSync(join(dir, n));

  // The store now holds core's modules, last used four days ago, a file
  // used three days ago and one a minute ago, and the leftovers of two
  // stores, one dead for two hours and one under way.
  for (const n of Object.keys(core)) utimesSync(join(dir, n), ago(4 * day), ago(4 * day));
  writeFileSync(join(dir, 'old.wasm'), Buffer.alloc(1000));
  utimesSync(join(dir, 'old.wasm'), ago(3 * day), ago(3 * day));
  writeFileSync(join(dir, 'recent.wasm'), Buffer.alloc(1000));
  utimesSync(join(dir, 'recent.wasm'), ago(60e3), ago(60e3));
  writeFileSync(join(dir, 'tmp-dead'), 'x');
  utimesSync(join(dir, 'tmp-dead'), ago(2 * 3600e3), ago(2 * 3600e3));
  writeFileSync(join(dir, 'tmp-live'), 'x');

  // wc loads core's modules, which marks them used; sed then stores its
  // module, and the store must shed 500 bytes: old.wasm, which is now
  // the least recently used.
  const limit = sum(core) + sum(sed) + 1500;
  assert.equal(run(dir, 'echo hi | wc -c', { WASMSAND_CACHE_LIMIT: String(limit) }).trim(), '3');
  for (const n of Object.keys(core)) {
    assert.ok(Date.now() - statSync(join(dir, n)).mtimeMs < 3600e3, `loading ${n} did not mark it used`);
  }
  assert.equal(run(dir, 'echo a | sed s/a/b/', { WASMSAND_CACHE_LIMIT: String(limit) }), 'b\n');
  const left = files(dir);
  assert.deepEqual(Object.keys(left).sort(),
    [...Object.keys(core), ...Object.keys(sed), 'recent.wasm', 'tmp-live'].sort());
  assert.ok(sum(left) - 1 <= limit, `the store takes ${sum(left)} bytes, over its limit of ${limit}`);

  // With no limit nothing goes, and a store past a small one keeps only
  // what fits, newest first.
  writeFileSync(join(dir, 'old.wasm'), Buffer.alloc(1000));
  utimesSync(join(dir, 'old.wasm'), ago(3 * day), ago(3 * day));
  for (const n of Object.keys(sed)) rmSync(join(dir, n));
  assert.equal(run(dir, 'echo a | sed s/a/b/', { WASMSAND_CACHE_LIMIT: '0' }), 'b\n');
  assert.ok('old.wasm' in files(dir), 'WASMSAND_CACHE_LIMIT=0 removed a file');
  for (const n of Object.keys(sed)) rmSync(join(dir, n));
  assert.equal(run(dir, 'echo a | sed s/a/b/', { WASMSAND_CACHE_LIMIT: String(sum(sed)) }), 'b\n');
  assert.deepEqual(Object.keys(files(dir)).sort(), [...Object.keys(sed), 'tmp-live'].sort());
});

test('a bad WASMSAND_CACHE_LIMIT is a clear error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wasmsand-cache-'));
  try {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e',
      `const { Sandbox } = await import(${JSON.stringify(pkg)}); await Sandbox.create();`],
    { env: { ...process.env, WASMSAND_CACHE_DIR: dir, WASMSAND_CACHE_LIMIT: 'lots' } });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr.toString(), /WASMSAND_CACHE_LIMIT=lots: want a number of bytes/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a tool whose digest the tools folder declares comes from the store without being read', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wasmsand-cache-'));
  const tools = mkdtempSync(join(tmpdir(), 'wasmsand-tools-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(tools, { recursive: true, force: true });
  });
  // A tools folder of the package's coreutils alone, with its digest.
  const src = new URL('tools/', pkg);
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', src)));
  const digests = JSON.parse(readFileSync(new URL('sha256.json', src)));
  assert.match(digests['coreutils.wasm'], /^[0-9a-f]{64}$/);
  writeFileSync(join(tools, 'manifest.json'), JSON.stringify({ 'coreutils.wasm': manifest['coreutils.wasm'] }));
  writeFileSync(join(tools, 'sha256.json'), JSON.stringify({ 'coreutils.wasm': digests['coreutils.wasm'] }));
  copyFileSync(new URL('coreutils.wasm', src), join(tools, 'coreutils.wasm'));
  const run = toolRunner(dir, tools, 'echo a | tr a b');

  assert.equal(run(), 'b\n');
  assert.ok(readdirSync(dir).includes(`${digests['coreutils.wasm']}-toolinfo-v1.wasm`), `the store does not describe coreutils: ${readdirSync(dir)}`);
  // The module is no longer coreutils: a process that read it would fail.
  writeFileSync(join(tools, 'coreutils.wasm'), 'not a module');
  assert.equal(run(), 'b\n', 'coreutils.wasm was read, where its digest should have found it in the store');
  // Without the digest it is read, and fails.
  rmSync(join(tools, 'sha256.json'));
  assert.match(run(), /coreutils\.wasm.*not a WebAssembly module/);
});

test('a tool that carries files comes from the store by its digest with its files', (t) => {
  // $WASMSAND_FILES_TOOLS: a tools folder whose coreutils carries
  // /usr/share/e2e/hello.txt, as python3 carries its library (e2e.TestNode
  // writes it with guesttest.WriteFilesTools).
  const from = process.env.WASMSAND_FILES_TOOLS;
  assert.ok(from, 'WASMSAND_FILES_TOOLS is not set (run through go test ./e2e -run TestNode)');
  const dir = mkdtempSync(join(tmpdir(), 'wasmsand-cache-'));
  const tools = mkdtempSync(join(tmpdir(), 'wasmsand-tools-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(tools, { recursive: true, force: true });
  });
  for (const name of ['manifest.json', 'sha256.json', 'coreutils.wasm']) copyFileSync(join(from, name), join(tools, name));
  const sum = JSON.parse(readFileSync(join(tools, 'sha256.json')))['coreutils.wasm'];
  const run = toolRunner(dir, tools, 'echo a | tr a c; cat /usr/share/e2e/hello.txt');
  const want = 'c\nhello from the files section\n';

  assert.equal(run(), want);
  const kept = readdirSync(dir);
  for (const v of ['toolinfo-v1', 'toolfiles-v1']) {
    assert.ok(kept.includes(`${sum}-${v}.wasm`), `the store has no ${v} entry for the tool: ${kept}`);
  }
  writeFileSync(join(tools, 'coreutils.wasm'), 'not a module');
  assert.equal(run(), want, 'the tool was read, where its digest should have found it, and its files, in the store');
  // A store that lost the files reads the tool (here: fails on it).
  rmSync(join(dir, `${sum}-toolfiles-v1.wasm`));
  assert.match(run(), /coreutils\.wasm.*not a WebAssembly module/);
});

// toolRunner returns a function that runs cmd in a new Node process, in a
// sandbox on the tools folder tools with the module store dir, and returns
// its output and errors.
function toolRunner(dir, tools, cmd) {
  return () => spawnSync(process.execPath, ['--input-type=module', '-e', `
    const { Sandbox } = await import(${JSON.stringify(pkg)});
    const sb = await Sandbox.create({ tools: process.env.TOOLS });
    const r = await sb.run(process.env.CMD);
    sb.destroy();
    process.stdout.write(r.stdout + r.stderr);`], {
    env: { ...process.env, WASMSAND_CACHE_DIR: dir, TOOLS: tools, CMD: cmd },
    timeout: 120e3,
  }).stdout.toString();
}
