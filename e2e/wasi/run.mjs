// Runs the WASI preview1 testsuite's programs through the npm package's
// Sandbox in Node 26: the core's WASI host compiled to js/wasm, guests on
// Node's own WebAssembly. Prints one JSON array of {name, ok, detail}.
//
//	WASMSAND_PKG=build/npm WASI_TESTSUITE=<checkout> node e2e/wasi/run.mjs
import { readFile, readdir, lstat, readlink } from 'node:fs/promises';
import { join, basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const { Sandbox } = await import(pathToFileURL(resolve(process.env.WASMSAND_PKG) + '/index.mjs'));
const root = process.env.WASI_TESTSUITE;
const suites = ['assemblyscript', 'c', 'rust'];

// copyTree writes the host tree dir into the sandbox under to.
async function copyTree(sb, dir, to) {
  for (const name of await readdir(dir)) {
    const p = join(dir, name);
    const st = await lstat(p);
    const v = `${to}/${name}`;
    if (st.isSymbolicLink()) {
      const r = await sb.run(`ln -s '${await readlink(p)}' '${v}'`);
      if (r.exitCode !== 0) throw new Error(`ln ${v}: ${r.stderr}`);
    } else if (st.isDirectory()) {
      sb.mkdir(v);
      await copyTree(sb, p, v);
    } else if (!name.endsWith('.cleanup')) {
      sb.writeFile(v, new Uint8Array(await readFile(p)));
    }
  }
}

const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
const out = [];
for (const suite of suites) {
  const dir = join(root, 'tests', suite, 'testsuite', 'wasm32-wasip1');
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.wasm')).sort()) {
    const name = basename(file, '.wasm');
    let spec = {};
    try {
      spec = JSON.parse(await readFile(join(dir, name + '.json'), 'utf8'));
    } catch {}
    const tool = `t-${name}`;
    const sb = await Sandbox.create({ cwd: '/', tools: { [`${tool}.wasm`]: new Uint8Array(await readFile(join(dir, file))) }, timeoutMs: 30000 });
    try {
      if (spec.root) await copyTree(sb, join(dir, spec.root), '');
      // The program sees only the test's environment, as under the
      // suite's adapters: the shell's own variables are unset first.
      const env = Object.entries(spec.env ?? {}).map(([k, v]) => `${k}=${quote(v)}`).join(' ');
      const args = (spec.args ?? []).map(quote).join(' ');
      const cmd = `for v in $(compgen -e); do unset "$v"; done; ${env} /bin/${tool} ${args}`;
      const r = await sb.run(cmd);
      const diffs = [];
      if (r.exitCode !== (spec.exit_code ?? 0)) diffs.push(`exit code ${r.exitCode}, want ${spec.exit_code ?? 0}`);
      if (spec.stdout !== undefined && r.stdout !== spec.stdout) diffs.push(`stdout ${JSON.stringify(r.stdout)}, want ${JSON.stringify(spec.stdout)}`);
      if (diffs.length) diffs.push(`stderr: ${r.stderr.slice(0, 400)}`);
      out.push({ name: `${suite}/${name}`, ok: diffs.length === 0, detail: diffs.join('\n') });
    } catch (err) {
      out.push({ name: `${suite}/${name}`, ok: false, detail: String(err) });
    } finally {
      sb.destroy();
    }
  }
}
process.stdout.write(JSON.stringify(out));
