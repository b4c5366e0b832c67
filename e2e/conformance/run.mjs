// Runs the conformance cases (cases.json) in the wasmsand npm package and
// prints their results as JSON: [{name, exitCode, stdout, stderr}].
// Driven by conformance_test.go; by hand:
//
//	WASMSAND_PKG=build/npm node e2e/conformance/run.mjs [options.json]
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { Sandbox } = await import(pkg);
// WASMSAND_CASES names another file of cases beside this one (python_test.go).
const cases = JSON.parse(await readFile(new URL(process.env.WASMSAND_CASES ?? 'cases.json', import.meta.url), 'utf8'));
const options = JSON.parse(process.argv[2] ?? '{}');

const out = [];
for (const c of cases) {
  const sb = await Sandbox.create(options);
  try {
    const r = await sb.run(c.cmd, c.stdin === undefined ? {} : { stdin: c.stdin });
    out.push({ name: c.name, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr });
  } finally {
    sb.destroy();
  }
}
process.stdout.write(JSON.stringify(out));
