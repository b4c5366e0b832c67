// Tests of createWasmSandbox, the JavaScript binding of wasm/modsandbox,
// under Node 26. Run through e2e/modsandbox (go test) or by hand:
//
//	WASMSAND_PKG=build/npm node --test e2e/modsandbox/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { hostFunctions } from '../suite.mjs';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { createWasmSandbox, SandboxError, WasmSandboxInstance } = await import(pkg);

const testdata = new URL('../testdata/', import.meta.url);
const mod = async (name) => new Uint8Array(await readFile(new URL(name, testdata)));
const fib = await mod('fib.wasm');
const host = await mod('host.wasm');
const memory = await mod('memory.wasm');
const guest = await readFile(new URL('../../../wasm/modsandbox/testdata/guest.wasm', import.meta.url));
const wasi = await readFile(new URL('../../../wasm/modsandbox/testdata/wasi.wasm', import.meta.url));

const ws = await createWasmSandbox();
// A generous time limit: a loaded test machine must not turn a case into
// a TIMEOUT (the default, 50 ms, is checked on its own below).
const base = { eventTimestamp: 1_700_000_000_000, maxExecutionMs: 20000 };
// An async host function puts guests on JSPI: they run on the event loop,
// so status shows running and destroy can stop them. Without one they run
// synchronously.
const onJSPI = { later: { async: true, fn: async () => {} } };
const hostCfg = { ...base, hostFunctions };

async function loaded(bytes, cfg = base) {
  const inst = ws.create(cfg);
  await ws.load(inst, bytes);
  return inst;
}

async function rejects(promise, code, check) {
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof SandboxError, `not a SandboxError: ${err}`);
    assert.equal(err.code, code, err.message);
    if (check) assert.equal(err.check, check);
    return true;
  });
}

function throws(fn, code) {
  assert.throws(fn, (err) => err instanceof SandboxError && err.code === code);
}

test('create: ids, frozen config with defaults, presets', () => {
  const w2 = ws; // ids count per WasmSandbox
  const a = w2.create({ eventTimestamp: base.eventTimestamp, maxGas: 500 });
  const b = w2.create(base);
  assert.ok(a instanceof WasmSandboxInstance);
  assert.match(a.id, /^sandbox-\d+$/);
  assert.equal(Number(b.id.slice(8)), Number(a.id.slice(8)) + 1);
  assert.equal(a.status, 'created');
  assert.ok(Object.isFrozen(a) && Object.isFrozen(a.config));
  assert.equal(a.config.maxGas, 500);
  assert.equal(a.config.maxMemoryBytes, 16 << 20);
  assert.equal(a.config.maxExecutionMs, 50);
  assert.equal(a.config.deterministicSeed, 0);
  assert.throws(() => { a.config.maxGas = 1; }, TypeError);
  assert.deepEqual(ws.presets.minimal, { maxGas: 1e9, maxMemoryBytes: 16 << 20, maxExecutionMs: 5000 });
  assert.deepEqual(ws.presets.standard, { maxGas: 1e10, maxMemoryBytes: 64 << 20, maxExecutionMs: 30000 });
  assert.deepEqual(ws.presets.generous, { maxGas: 1e11, maxMemoryBytes: 256 << 20, maxExecutionMs: 300000 });
  const p = ws.create({ ...base, preset: 'standard' });
  assert.equal(p.config.maxGas, 1e10);
  for (const inst of [a, b, p]) ws.destroy(inst);
});

test('create: bad configs give INVALID_CONFIG', () => {
  const bad = [
    undefined,
    {},
    { eventTimestamp: 0 },
    { ...base, maxGas: -1 },
    { ...base, maxGas: 'lots' },
    { ...base, maxMemoryBytes: 1000 },
    { ...base, preset: 'huge' },
    { ...base, hostFunctions: { f: () => 1 } },
    { ...base, hostFunctions: { f: { params: ['i8'], fn: () => 1 } } },
    { ...base, hostFunctions: { f: { results: ['i32', 'i32'], fn: () => 1 } } },
    { ...base, hostFunctions: { __get_time: { results: ['i64'], fn: () => 1n } } },
    { ...base, readFile: 'no' },
  ];
  for (const cfg of bad) throws(() => ws.create(cfg), 'INVALID_CONFIG');
});

test('status moves and INSTANCE_DESTROYED', async () => {
  const inst = ws.create({ ...base, hostFunctions: onJSPI });
  assert.equal((await ws.execute(inst, 'add', [1, 2])).error.code, 'INVALID_STATE');
  throws(() => ws.snapshot(inst), 'INVALID_STATE');
  await ws.load(inst, fib);
  assert.equal(inst.status, 'loaded');
  await rejects(ws.load(inst, fib), 'INVALID_STATE');
  const running = ws.execute(inst, 'fib', 22);
  assert.equal(inst.status, 'running');
  throws(() => ws.snapshot(inst), 'INVALID_STATE');
  assert.equal((await running).ok, true);
  assert.equal(inst.status, 'loaded');
  ws.suspend(inst);
  assert.equal(inst.status, 'suspended');
  assert.equal(inst.metrics.memoryBytes, 0);
  assert.equal((await ws.execute(inst, 'add', [1, 2])).error.code, 'INVALID_STATE');
  await ws.resume(inst);
  assert.equal(inst.status, 'loaded');
  assert.equal((await ws.execute(inst, 'add', [1, 2])).value, 3);
  ws.destroy(inst);
  ws.destroy(inst);
  assert.equal(inst.status, 'destroyed');
  assert.equal(inst.metrics, null);
  const r = await ws.execute(inst, 'add', [1, 2]);
  assert.equal(r.ok, false);
  assert.equal(r.error.code, 'INSTANCE_DESTROYED');
  throws(() => ws.snapshot(inst), 'INSTANCE_DESTROYED');
  await rejects(ws.load(inst, fib), 'INSTANCE_DESTROYED');
});

test('destroy while running stops the guest', async () => {
  const inst = await loaded(fib, { ...base, maxGas: 1e12, maxExecutionMs: 10000, hostFunctions: onJSPI });
  const running = ws.execute(inst, 'spin');
  await new Promise((r) => setTimeout(r, 20));
  ws.destroy(inst);
  const r = await running;
  assert.equal(r.ok, false);
  assert.equal(r.error.code, 'INSTANCE_DESTROYED');
});

test('calling conventions', async () => {
  const g = await loaded(guest, { ...base, hostFunctions: { add_host: hostFunctions.add_host } });
  const cases = [
    ['add', [40, 2], 42],
    ['add64', [1n << 40n, -1n], (1n << 40n) - 1n],
    ['add64', [5, 6], 11n],
    ['mulf', [1.5, 2], 3],
    ['halff', 3, 1.5],
    ['divmod', [7, 2], [3, 1]],
    ['noop', undefined, undefined],
    ['echo', { a: [1, 'x'], b: null }, { a: [1, 'x'], b: null }],
    ['echo2', 'text', 'text'],
    ['echo', new TextEncoder().encode('raw'), new TextEncoder().encode('raw')],
  ];
  for (const [action, payload, want] of cases) {
    const r = await ws.execute(g, action, payload);
    assert.equal(r.ok, true, `${action}: ${JSON.stringify(r.error)}`);
    assert.deepEqual(r.value, want, action);
    assert.equal(typeof r.gasUsed, 'number');
    assert.equal(typeof r.durationMs, 'number');
    assert.equal(typeof r.metrics.executions, 'number');
  }
  for (const [action, payload, code] of [
    ['add', [1], 'INVALID_ARGUMENT'],
    ['add', [1.5, 2], 'INVALID_ARGUMENT'],
    ['missing', undefined, 'INVALID_ARGUMENT'],
    ['add', { a: 1n }, 'INVALID_ARGUMENT'],
    ['badjson', 'x', 'INVALID_RESULT'],
    ['outside', 'x', 'INVALID_RESULT'],
  ]) {
    const r = await ws.execute(g, action, payload);
    assert.equal(r.ok, false, action);
    assert.equal(r.error.code, code, `${action}: ${r.error.message}`);
    assert.equal('value' in r, false);
  }
  ws.destroy(g);
});

test('error codes and trap kinds', async () => {
  const g = await loaded(guest, { ...base, maxGas: 100_000, maxMemoryBytes: 4 << 16, hostFunctions: { add_host: hostFunctions.add_host } });
  for (const [action, payload, code, trap] of [
    ['spin', undefined, 'GAS_EXHAUSTED'],
    ['recurse', 1, 'WASM_TRAP', 'stack overflow'],
    ['div', [1, 0], 'WASM_TRAP', 'integer divide by zero'],
    ['oob', undefined, 'WASM_TRAP', 'out of bounds memory access'],
    ['trap', undefined, 'WASM_TRAP', 'unreachable'],
    ['hog', undefined, 'MEMORY_EXCEEDED', 'unreachable'],
    ['callhost', [99, 1], 'HOST_FUNCTION_ERROR'],
  ]) {
    const r = await ws.execute(g, action, payload);
    assert.equal(r.ok, false, action);
    assert.equal(r.error.code, code, `${action}: ${r.error.message}`);
    if (trap) assert.equal(r.error.trap, trap, action);
  }
  assert.equal((await ws.execute(g, 'tryhog')).value, -1);
  assert.ok(ws.getMetrics(g).failedGrows >= 2);
  ws.destroy(g);
  for (const hostFunctions of [undefined, onJSPI]) {
    const t = await loaded(fib, { ...base, maxGas: 1e12, maxExecutionMs: 30, hostFunctions });
    const r = await ws.execute(t, 'spin');
    assert.equal(r.error.code, 'TIMEOUT');
    assert.ok(r.durationMs >= 30 && r.durationMs < 1000, `took ${r.durationMs} ms`);
    ws.destroy(t);
  }
});

test('load refuses what is not allowed with INVALID_MODULE', async () => {
  for (const [bytes, what] of [
    [wasi, 'wasi_snapshot_preview1'],
    [host, 'add_host'], // not declared
    [new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 99]), ''],
    [new TextEncoder().encode('(module)'), 'text'],
  ]) {
    const inst = ws.create(base);
    await assert.rejects(ws.load(inst, bytes), (err) => err.code === 'INVALID_MODULE' && err.message.includes(what));
    assert.equal(inst.status, 'created');
    ws.destroy(inst);
  }
});

test('host functions: i64 as BigInt, memory, the log, throwing, async', async () => {
  let seen;
  const inst = await loaded(host, {
    ...base,
    deterministicSeed: 3,
    hostFunctions: {
      ...hostFunctions,
      mix64: {
        params: ['i64', 'i32'], results: ['i64'],
        fn: (a, b, info) => {
          seen = { a, b, info };
          return a * 2n;
        },
      },
      add_host: {
        params: ['i32', 'i32'], results: ['i32'], async: true,
        fn: async (a, b) => {
          await new Promise((r) => setTimeout(r, 5));
          if (a === 99) throw new TypeError('async refusal');
          return a - b;
        },
      },
    },
  });
  let r = await ws.execute(inst, 'mix', [-(2n ** 62n), 5]);
  assert.equal(r.value, -(2n ** 63n));
  assert.equal(seen.a, -(2n ** 62n));
  assert.equal(seen.b, 5);
  assert.equal(seen.info.name, 'mix64');
  assert.ok(seen.info.memory instanceof WebAssembly.Memory);
  assert.equal(r.hostCalls.length, 1);
  assert.deepEqual(r.hostCalls[0].inputs, [-(2n ** 62n), 5]);
  assert.deepEqual(r.hostCalls[0].outputs, [-(2n ** 63n)]);
  assert.equal(r.hostCalls[0].gasAtCall > 0, true);
  assert.equal(r.gasUsed >= 100, true, 'a host call costs hostCallGas');
  r = await ws.execute(inst, 'add', [10, 3]);
  assert.equal(r.value, 7);
  r = await ws.execute(inst, 'add', [99, 3]);
  assert.equal(r.error.code, 'HOST_FUNCTION_ERROR');
  assert.match(r.error.message, /async refusal/);
  assert.equal(r.hostCalls[0].error, 'async refusal');
  r = await ws.execute(inst, 'step', [2]);
  assert.deepEqual(r.logs, ['step', 'step']);
  assert.deepEqual(ws.getHostCallLog(inst).map((h) => h.name), r.hostCalls.map((h) => h.name));
  assert.deepEqual(r.hostCalls.map((h) => h.seq), r.hostCalls.map((_, i) => i));
  ws.destroy(inst);

  // A handler that returns the wrong type, returns a Promise unasked, or
  // calls the API from inside fails the guest with HOST_FUNCTION_ERROR.
  for (const fn of [() => 'x', async () => 1, () => ws.getMetrics('sandbox-0'), () => { throw 42; }]) {
    const i = await loaded(host, { ...hostCfg, hostFunctions: { ...hostFunctions, add_host: { params: ['i32', 'i32'], results: ['i32'], fn } } });
    const res = await ws.execute(i, 'add', [1, 2]);
    assert.equal(res.ok, false);
    assert.equal(res.error.code, 'HOST_FUNCTION_ERROR', res.error.message);
    ws.destroy(i);
  }
});

test('capabilities: __read_file and __fetch are denied unless granted', async () => {
  const enc = new TextEncoder();
  const files = { '/data/a.txt': '{"file":true}' };
  const cfg = {
    ...base,
    hostFunctions: { add_host: hostFunctions.add_host },
    readPrefixes: ['/data'],
    readFile: (p) => files[p] ?? null,
    fetchHosts: ['example.com'],
    fetch: async (url) => enc.encode(JSON.stringify({ url })),
  };
  const g = await loaded(guest, cfg);
  // A Uint8Array payload arrives as raw bytes (a string would be JSON).
  let r = await ws.execute(g, 'read', enc.encode('/data/a.txt'));
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.deepEqual(r.value, enc.encode('{"file":true}'));
  assert.equal(r.hostCalls[0].capability, 'read:/data/a.txt');
  assert.equal(r.hostCalls[0].granted, true);
  r = await ws.execute(g, 'read', enc.encode('/etc/passwd'));
  assert.equal(r.hostCalls[0].granted, false);
  assert.equal((await ws.execute(g, 'last')).value, -1);
  r = await ws.execute(g, 'fetch', enc.encode('https://example.com/x'));
  assert.equal(new TextDecoder().decode(r.value), '{"url":"https://example.com/x"}');
  r = await ws.execute(g, 'fetch', enc.encode('https://evil.example/x'));
  assert.equal(r.hostCalls[0].capability, 'fetch:evil.example');
  assert.equal(r.hostCalls[0].granted, false);
  ws.destroy(g);
});

test('snapshot and restore', async () => {
  const a = await loaded(host, { ...hostCfg, deterministicSeed: 9 });
  await ws.execute(a, 'step', [3]);
  const snap = ws.snapshot(a);
  assert.ok(snap instanceof Uint8Array);
  assert.equal(new TextDecoder().decode(snap.subarray(0, 4)), 'WSNP');
  const first = await ws.execute(a, 'step', [2]);
  const b = await loaded(host, { ...hostCfg, deterministicSeed: 9 });
  await ws.restore(b, snap);
  const second = await ws.execute(b, 'step', [2]);
  assert.deepEqual(second.value, first.value);
  assert.deepEqual(second.hostCalls, first.hostCalls);
  assert.equal(second.gasUsed, first.gasUsed);
  assert.equal(ws.getMetrics(b).gasUsed, ws.getMetrics(a).gasUsed);

  const bad = snap.slice();
  bad[4] = 9; // version
  for (const [bytes, check] of [
    [snap.slice(0, 3), 'length'],
    [snap.slice(0, 100), 'length'],
    [new Uint8Array(100), 'magic'],
    [bad, 'version'],
  ]) {
    await rejects(ws.restore(b, bytes), 'SNAPSHOT_ERROR', check);
  }
  const other = await loaded(fib);
  await rejects(ws.restore(other, snap), 'SNAPSHOT_ERROR', 'module');
  assert.equal((await ws.execute(other, 'add', [1, 1])).value, 2, 'a failed restore leaves the instance as it was');
  for (const i of [a, b, other]) ws.destroy(i);
});

test('memory pressure and advice', async () => {
  const big = await loaded(memory, { ...base, maxMemoryBytes: 16 << 16, maxGas: 1e8 });
  const small = await loaded(memory);
  await ws.execute(big, 'grow', [7]); // 8 pages
  const total = 9 * 65536;
  assert.equal(ws.getMemoryPressure([big, small], total * 10), 'NORMAL');
  assert.equal(ws.getMemoryPressure([big, small], Math.ceil(total / 0.75)), 'WARNING');
  assert.equal(ws.getMemoryPressure([big, small], Math.ceil(total / 0.9)), 'PRESSURE');
  assert.equal(ws.getMemoryPressure([big, small], Math.ceil(total / 0.97)), 'CRITICAL');
  assert.equal(ws.getMemoryPressure([big, small], total), 'OOM');
  assert.deepEqual(ws.advise('NORMAL', [big, small], small), { level: 'NORMAL', action: 'none', targets: [] });
  assert.equal(ws.advise('WARNING', [big, small], small).action, 'log');
  assert.deepEqual(ws.advise('PRESSURE', [big, small], small).targets, [big.id]);
  assert.deepEqual(ws.advise('PRESSURE', [big, small], big).targets, [small.id]);
  assert.deepEqual(ws.advise('OOM', [big, small], small), { level: 'OOM', action: 'emergency_save', targets: [small.id, big.id] });
  throws(() => ws.advise('SOMEWHAT', [big], big), 'INVALID_ARGUMENT');
  ws.destroy(big);
  ws.destroy(small);
});

test('validateDeterminism', async () => {
  const rep = await ws.validateDeterminism(host, 'step', [5], { ...hostCfg, deterministicSeed: 11 });
  assert.equal(rep.deterministic, true, rep.differences.join('\n'));
  assert.equal(rep.runs.length, 2);
  assert.equal(rep.stateHashes[0], rep.stateHashes[1]);
  assert.equal(rep.runs[0].hostCalls.length, 25);
  let n = 0;
  const flaky = { ...hostFunctions, add_host: { params: ['i32', 'i32'], results: ['i32'], fn: () => n++ } };
  const bad = await ws.validateDeterminism(host, 'step', [2], { ...base, hostFunctions: flaky });
  assert.equal(bad.deterministic, false);
  assert.ok(bad.differences.length > 0);
});
