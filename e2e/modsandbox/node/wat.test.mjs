// createWasmSandbox's load given WebAssembly text, converted by the
// wat2wasm tool (a C guest) running in the core. Needs the tool's module:
// $WASMSAND_WAT2WASM (e2e/modsandbox sets it when the C guests are built).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { createWasmSandbox, SandboxError } = await import(pkg);
const wat2wasm = process.env.WASMSAND_WAT2WASM;
const skip = wat2wasm ? false : 'WASMSAND_WAT2WASM is not set (make cguests)';

const base = { eventTimestamp: 1_700_000_000_000 };
const add = `;; adds two numbers
(module
  (func (export "add") (param i32 i32) (result i32)
    (i32.add (local.get 0) (local.get 1))))`;

test('load accepts WebAssembly text, as a string or as bytes', { skip }, async () => {
  const ws = await createWasmSandbox({ tools: { 'wat2wasm.wasm': new Uint8Array(await readFile(wat2wasm)) } });
  for (const text of [add, new TextEncoder().encode(add)]) {
    const inst = ws.create(base);
    await ws.load(inst, text);
    const r = await ws.execute(inst, 'add', [40, 2]);
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.value, 42);
    ws.destroy(inst);
  }
});

test('mistakes in the text reject with INVALID_MODULE, the line and the column', { skip }, async () => {
  const ws = await createWasmSandbox({ tools: { 'wat2wasm.wasm': new Uint8Array(await readFile(wat2wasm)) } });
  for (const [text, where, what] of [
    ['(module\n  (func (result i32)\n    i32.const 1\n    i32.bogus))', 'line 4, column 5', 'unexpected token'],
    ['(module\n  (func (result i32)\n    f32.const 1))', 'line 3, column 5', 'type mismatch'],
  ]) {
    const inst = ws.create(base);
    await assert.rejects(ws.load(inst, text), (err) => {
      assert.ok(err instanceof SandboxError, `not a SandboxError: ${err}`);
      assert.equal(err.code, 'INVALID_MODULE');
      assert.ok(err.message.includes(where) && err.message.includes(what), err.message);
      return true;
    });
    assert.equal(inst.status, 'created');
    ws.destroy(inst);
  }
});
