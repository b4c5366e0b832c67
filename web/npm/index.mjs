// wasmsand for Node: the Sandbox API, with the core and the tool modules
// read from this package's folder.
import { readFile, readdir } from 'node:fs/promises';
import { Sandbox, SandboxError, definePlatform } from './sandbox.mjs';

export { Sandbox, SandboxError };

const here = new URL('./', import.meta.url);

// readTools reads a tools folder: manifest.json and every *.wasm.
async function readTools(dir) {
  const names = (await readdir(dir)).filter((n) => n === 'manifest.json' || n.endsWith('.wasm'));
  const files = await Promise.all(names.map((n) => readFile(new URL(n, dir))));
  return Object.fromEntries(names.map((n, i) => [n, new Uint8Array(files[i].buffer, files[i].byteOffset, files[i].length)]));
}

function dirURL(spec) {
  const s = String(spec);
  const u = spec instanceof URL ? new URL(spec) : new URL(s, `file://${process.cwd()}/`);
  if (u.pathname.endsWith('/manifest.json')) u.pathname = u.pathname.slice(0, -'manifest.json'.length);
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return u;
}

let defaultTools = null;

definePlatform({
  async loadCore() {
    const [wasmExecSource, bytes] = await Promise.all([
      readFile(new URL('wasm_exec.js', here), 'utf8'),
      readFile(new URL('wasmsand.wasm', here)),
    ]);
    return { wasmExecSource, module: await WebAssembly.compile(bytes) };
  },
  defaultTools() {
    defaultTools ??= readTools(new URL('tools/', here));
    return defaultTools;
  },
  // loadTools accepts a folder (path or URL, or its manifest.json), or an
  // object mapping file names to bytes or to file URLs.
  async loadTools(spec) {
    if (typeof spec === 'string' || spec instanceof URL) return readTools(dirURL(spec));
    if (spec === null || typeof spec !== 'object') {
      throw new SandboxError('INVALID_ARGUMENT', 'Sandbox.create: options.tools must be a folder or an object of file name → bytes');
    }
    const out = {};
    for (const [name, v] of Object.entries(spec)) {
      if (v instanceof URL) {
        const b = await readFile(v);
        out[name] = new Uint8Array(b.buffer, b.byteOffset, b.length);
      } else if (name === 'manifest.json' && v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer)) {
        out[name] = new TextEncoder().encode(JSON.stringify(v));
      } else {
        out[name] = v;
      }
    }
    return out;
  },
});
