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

// WASMSAND_WARMUP is a command run first, not compared, that must succeed:
// it loads the modules the cases use (conformance_test.go's warmup).
if (process.env.WASMSAND_WARMUP) {
  const sb = await Sandbox.create(JSON.parse(process.env.WASMSAND_WARMUP_OPTIONS ?? '{}'));
  try {
    const r = await sb.run(process.env.WASMSAND_WARMUP);
    if (r.exitCode !== 0) {
      throw new Error(`the warm-up command exited ${r.exitCode}: ${r.stderr}`);
    }
  } finally {
    sb.destroy();
  }
}

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
