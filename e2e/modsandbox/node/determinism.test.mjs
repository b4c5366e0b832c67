// The determinism suite under Node: run through e2e/modsandbox (go test),
// which passes wazero's results in WASMSAND_EXPECTED, or by hand after
// building the package:
//
//	go run ./web/mkpackage -o build/npm
//	WASMSAND_PKG=build/npm node --test e2e/modsandbox/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { runSuite } from '../suite.mjs';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { createWasmSandbox } = await import(pkg);

const testdata = new URL('../testdata/', import.meta.url);
const suite = JSON.parse(await readFile(new URL('suite.json', testdata), 'utf8'));
const readModule = async (name) => new Uint8Array(await readFile(new URL(name, testdata)));

const ws = await createWasmSandbox();
const out = await runSuite(ws, suite, readModule);
if (process.env.WASMSAND_SUITE_OUT) await writeFile(process.env.WASMSAND_SUITE_OUT, out);

test('a second run in the same process gives the same results', async () => {
  assert.equal(await runSuite(ws, suite, readModule), out);
});

test('guests on JSPI (async host functions) give the same results as synchronous ones', async () => {
  assert.equal(await runSuite(ws, suite, readModule, { async: true }), out);
});

// One test per case, against wazero's results when go test passes them.
const want = process.env.WASMSAND_EXPECTED ? (await readFile(process.env.WASMSAND_EXPECTED, 'utf8')).split('\n') : null;
const got = out.split('\n');
suite.cases.forEach((c, i) => {
  test(`case ${c.name}: the same as on wazero`, { skip: !want && 'no WASMSAND_EXPECTED', todo: c.knownDifference }, () => {
    assert.equal(got[i], want[i]);
  });
});
