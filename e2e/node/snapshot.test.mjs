// Snapshots, restore, fork and stores of the wasmsand npm package under
// Node. Run through e2e/node_test.go, or by hand as sandbox.test.mjs says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { resolve, join } from 'node:path';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { Sandbox, SandboxError } = await import(pkg);

const opts = { seed: 9, clock: Date.UTC(2026, 0, 2, 3, 4, 5) };
const setup = `mkdir -p d && echo hello > d/f && ln -s d/f sym && chmod 600 d/f
x=1; a=(one "two words"); declare -A m=([k]=v); f() { echo "f $1 $x"; }; cd d; echo $RANDOM >/dev/null`;
const probe = `declare -p x a m; f arg; pwd; cat f ../sym; ls -l ../sym | cut -c1-10; echo $RANDOM $RANDOM`;

test('snapshot and restore keep files, variables, functions and $RANDOM', async (t) => {
  const sb = await Sandbox.create(opts);
  t.after(() => sb.destroy());
  assert.equal((await sb.run(setup)).exitCode, 0);
  const snap = sb.snapshot();
  assert.ok(snap instanceof Uint8Array);
  const r = await Sandbox.restore(snap, { clock: opts.clock });
  t.after(() => r.destroy());
  assert.deepEqual(r.snapshot(), snap, 'a restored sandbox snapshots to the same bytes');
  const want = await sb.run(probe);
  const got = await r.run(probe);
  assert.equal(got.stdout, want.stdout);
  assert.match(got.stdout, /f arg 1\n\/home\/user\/d\nhello\nhello\n/);
});

test('fork isolation both ways', async (t) => {
  const sb = await Sandbox.create(opts);
  t.after(() => sb.destroy());
  await sb.run('echo base > f; v=parent');
  const c = await sb.fork();
  t.after(() => c.destroy());
  await c.run('echo child >> f; v=child; echo only > c');
  await sb.run('echo parent >> f');
  assert.equal((await sb.run('cat f; echo $v; ls c 2>/dev/null || echo none')).stdout, 'base\nparent\nparent\nnone\n');
  assert.equal((await c.run('cat f; echo $v; cat c')).stdout, 'base\nchild\nchild\nonly\n');
});

test('bad snapshots reject with SNAPSHOT_ERROR naming the check', async () => {
  const sb = await Sandbox.create();
  const snap = sb.snapshot();
  sb.destroy();
  const cases = [
    ['magic', new TextEncoder().encode('not a snapshot at all')],
    ['truncated', snap.slice(0, snap.length - 3)],
    ['version', (() => { const b = snap.slice(); b[8] = 9; return b; })()],
    ['checksum', (() => { const b = snap.slice(); b[b.length - 1] ^= 1; return b; })()],
  ];
  for (const [check, bytes] of cases) {
    await assert.rejects(Sandbox.restore(bytes), (err) => {
      assert.ok(err instanceof SandboxError);
      assert.equal(err.code, 'SNAPSHOT_ERROR');
      assert.equal(err.check, check, err.message);
      return true;
    });
  }
});

test('save, load, list, delete and persist through files', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'wasmsand-store-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const so = { storeDir: dir };
  const sb = await Sandbox.create({ ...so, persist: 'work' });
  await sb.run('echo kept > f; v=42; g() { echo "g $v"; }');
  sb.destroy();
  const again = await Sandbox.create({ ...so, persist: 'work' });
  assert.equal((await again.run('cat f; g')).stdout, 'kept\ng 42\n');
  await again.save('copy');
  again.destroy();
  const list = await Sandbox.list(so);
  assert.deepEqual(list.map((e) => e.name), ['copy', 'work']);
  assert.ok(list[0].size > 0 && list[0].modified > 0);
  const loaded = await Sandbox.load('copy', so);
  assert.equal(loaded.getEnv('v'), '42');
  loaded.destroy();
  await Sandbox.delete('copy', so);
  await assert.rejects(Sandbox.load('copy', so), (err) => err.code === 'NOT_FOUND');
  await assert.rejects(Sandbox.delete('copy', so), (err) => err.code === 'NOT_FOUND');
  assert.deepEqual((await readdir(dir)).sort(), ['work.wsbx']);
});

test('a store whose put fails for space keeps the previous save', async (t) => {
  const saved = new Map();
  let full = false;
  const store = {
    async put(name, bytes) {
      if (full) { const e = new Error('disk full'); e.code = 'ENOSPC'; throw e; }
      saved.set(name, bytes.slice());
    },
    async get(name) { return saved.get(name) ?? null; },
    async list() { return [...saved].map(([name, b]) => ({ name, size: b.length, modified: 0 })); },
    async delete(name) { return saved.delete(name); },
  };
  const sb = await Sandbox.create({ store });
  t.after(() => sb.destroy());
  await sb.run('echo one > f');
  await sb.save('s');
  const before = saved.get('s');
  full = true;
  await sb.run('echo two > f');
  await assert.rejects(sb.save('s'), (err) => err.code === 'QUOTA_EXCEEDED');
  assert.deepEqual(saved.get('s'), before);
  // With persist, the run rejects but carries its result.
  full = false;
  const p = await Sandbox.create({ store, persist: 'p' });
  t.after(() => p.destroy());
  full = true;
  await assert.rejects(p.run('echo ran'), (err) => err.code === 'QUOTA_EXCEEDED' && err.result?.stdout === 'ran\n');
});
