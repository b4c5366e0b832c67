// runCode in Node 26 (JSPI): the same cases as sandbox/runcode_test.go,
// with identical results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { Sandbox, SandboxError, ValidationError, TimeoutError, RuntimeError, getApiMetadata } = await import(pkg);

const sb = await Sandbox.create({ timeoutMs: 20000 });
// Compile js.wasm before the cases: several of them run under runCode's
// shortest timeouts, which a first compile on a loaded machine outlasts.
const warm = await sb.run('node -e 0');
if (warm.exitCode !== 0) throw new Error(`warming up node: ${warm.stderr}`);
test.after(() => sb.destroy());

test('validation', async () => {
  for (const [req, want] of [
    [{ code: '' }, 'code is required'],
    [{ code: '1;'.repeat(6001) }, 'the most is 12000'],
    [{ language: 'python', code: '1' }, 'not a runCode language yet'],
    [{ language: 'ruby', code: '1' }, 'not supported'],
    [{ code: '1', bridges: { f: 3 } }, 'is not a function'],
    [{ code: '1', bridges: { 'a-b': () => 1 } }, 'not a JavaScript identifier'],
  ]) {
    await assert.rejects(sb.runCode(req), (err) => {
      assert.ok(err instanceof ValidationError, String(err));
      assert.ok(err instanceof SandboxError);
      assert.equal(err.code, 'VALIDATION_ERROR');
      assert.equal(err.name, 'ValidationError');
      assert.match(err.message, new RegExp(want));
      return true;
    });
  }
});

test('timeout clamp warns', async () => {
  const r = await sb.runCode({ code: '1', timeoutMs: 3600000 });
  assert.equal(r.ok, true);
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0], /lowered to the maximum/);
  const r2 = await sb.runCode({ code: '2', timeoutMs: 1 });
  assert.match(r2.warnings[0], /raised to the minimum/);
});

test('results are sanitized', async () => {
  for (const [code, want] of [
    ['1 + 2', 3],
    ["return 'returned'", 'returned'],
    ["await new Promise(r => setTimeout(() => r('late'), 20))", 'late'],
    ['const a = {n: 1}; a.self = a; a', { n: 1, self: '[Circular]' }],
    ['10n ** 20n', '100000000000000000000'],
    ["new Map([['a', 1], ['b', new Set([1, 2])]])", { a: 1, b: [1, 2] }],
    ['new Date(0)', '1970-01-01T00:00:00.000Z'],
    ["({f: function named() {}, s: Symbol('x'), n: NaN})", { f: '[Function: named]', s: 'Symbol(x)', n: 'NaN' }],
    ["console.log('no value')", null],
  ]) {
    const r = await sb.runCode({ code });
    assert.equal(r.ok, true, code);
    assert.deepEqual(r.result, want, code);
    assert.equal(typeof r.durationMs, 'number');
  }
  let r = await sb.runCode({ code: "let o = {v: 'leaf'}; for (let i = 0; i < 11; i++) o = {o}; o" });
  assert.match(JSON.stringify(r.result), /"\[Object\]"/);
  assert.ok(r.warnings.some((w) => w.includes('deeper than 10')));
  r = await sb.runCode({ code: "'x'.repeat(1 << 20)" });
  assert.ok(r.result.length < 200000);
  assert.ok(r.warnings.some((w) => w.includes('string of 1048576 characters was cut')));
  r = await sb.runCode({ code: "new TypeError('bad')" });
  assert.equal(r.result.name, 'TypeError');
  assert.equal(r.result.message, 'bad');
});

test('console capture', async () => {
  let r = await sb.runCode({ code: "console.log('a', {b: 1}); console.error('e'); 7" });
  assert.equal(r.stdout, 'a { b: 1 }\n');
  assert.equal(r.stderr, 'e\n');
  assert.equal(r.result, 7);
  r = await sb.runCode({ code: "for (let i = 0; i < 150; i++) console.log(i); 'done'" });
  assert.equal(r.stdout.split('\n').length - 1, 100);
  assert.ok(r.warnings.includes('stdout was cut at 100 lines'));
});

test('errors are typed', async () => {
  let r = await sb.runCode({ code: "function f() { throw new RangeError('out') }\nf()" });
  assert.equal(r.ok, false);
  assert.ok(r.error instanceof RuntimeError);
  assert.equal(r.error.code, 'RUNTIME_ERROR');
  assert.equal(r.error.message, 'RangeError: out');
  assert.match(r.error.jsStack, /at f/);
  const t0 = Date.now();
  r = await sb.runCode({ code: 'while (true) {}', timeoutMs: 300 });
  assert.equal(r.ok, false);
  assert.ok(r.error instanceof TimeoutError);
  assert.equal(r.error.code, 'TIMEOUT');
  assert.ok(Date.now() - t0 < 5000);
  r = await sb.runCode({ code: "'fine'" });
  assert.equal(r.result, 'fine');
});

test('fresh guest, shared files', async () => {
  await sb.runCode({ code: "globalThis.leak = 1; require('fs').writeFileSync('/home/user/from-code.txt', 'written')" });
  assert.equal((await sb.runCode({ code: 'typeof leak' })).result, 'undefined');
  assert.equal(sb.readTextFile('/home/user/from-code.txt'), 'written');
  const r = await sb.runCode({ code: '[context.user.name, limit]', context: { user: { name: 'ada' }, limit: 3 } });
  assert.deepEqual(r.result, ['ada', 3]);
});

test('bridges', async () => {
  const bridges = {
    getWeather: { description: 'the weather in a city', fn: async ({ city }) => ({ city, tempC: 21 }) },
    fail: async () => { throw new Error('no luck'); },
    slow: () => new Promise((resolve) => setTimeout(() => resolve('slow'), 3000)),
  };
  let r = await sb.runCode({ code: "const w = await api.getWeather({city: 'Oslo'}); w.tempC + ' in ' + w.city", bridges });
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.equal(r.result, '21 in Oslo');
  r = await sb.runCode({ code: 'let m; try { await api.fail() } catch (e) { m = e.message }; m', bridges });
  assert.equal(r.result, 'no luck');
  r = await sb.runCode({ code: 'await api.fail()', bridges });
  assert.equal(r.error.message, 'Error: no luck');
  const t0 = Date.now();
  r = await sb.runCode({ code: 'await api.slow()', bridges, timeoutMs: 400 });
  assert.ok(r.error instanceof TimeoutError, String(r.error));
  assert.ok(Date.now() - t0 < 2500);
  r = await sb.runCode({ code: "let c; try { await api.fetch('https://example.com') } catch (e) { c = e.code }\nc" });
  assert.equal(r.result, 'ERR_WASMSAND_NETWORK_DENIED');
  assert.deepEqual(getApiMetadata(bridges).map((b) => b.name), ['fail', 'getWeather', 'slow']);
  assert.equal(sb.getApiMetadata(bridges)[1].description, 'the weather in a city');
});

test('node command', async () => {
  const r = await sb.run(`node -e 'console.log([1, 2, 3].map(x => x * 2), {a: "b"})'`);
  assert.equal(r.stdout, "[ 2, 4, 6 ] { a: 'b' }\n");
  const short = await Sandbox.create({ timeoutMs: 1000 });
  try {
    const t = await short.run(`node -e 'while (true) {}'`);
    assert.equal(t.exitCode, 124);
  } finally {
    short.destroy();
  }
});
