// wasmsand for Node: the Sandbox API, with the core and the tool modules
// read from this package's folder. Tool modules are read the first time one
// of their commands runs, once per process.
import { join } from 'node:path';
import { Sandbox, SandboxError, ValidationError, TimeoutError, RuntimeError, getApiMetadata, definePlatform, checkWasm } from './sandbox.mjs';
import { WasmSandbox, WasmSandboxInstance, createWasmSandbox } from './modsandbox.mjs';
import { nodeHost } from './nodehost.mjs';

export { Sandbox, SandboxError, ValidationError, TimeoutError, RuntimeError, getApiMetadata, WasmSandbox, WasmSandboxInstance, createWasmSandbox };
export { createTools, SandboxTools, validateArgs } from './tools.mjs';

let base = new URL('./', import.meta.url);

// node:fs is taken from process: importing it would make Node load
// fs/promises (with streams, readline and more: about 7 ms of CPU), and
// starting a sandbox needs only readFile and readdir. Saving snapshots
// and instrumented modules uses fs.promises.
const fs = process.getBuiltinModule('node:fs');
const readFile = (path, options) => new Promise((resolve, reject) =>
  fs.readFile(path, options, (err, v) => (err ? reject(err) : resolve(v))));
const readdir = (path) => new Promise((resolve, reject) =>
  fs.readdir(path, (err, v) => (err ? reject(err) : resolve(v))));

// files maps a file URL to its read in flight, or done if it is kept:
// callers at the same time share one read. A tool module is not kept once
// read: it is read only to be compiled, once per module and process (see
// toolLoader). A tools folder's manifest is kept, so that a new sandbox
// reads nothing.
const files = new Map();

function read(url, progress, keep = false) {
  const key = String(url);
  let p = files.get(key);
  if (!p) {
    p = readFile(url).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.length));
    const forget = () => files.delete(key);
    p.then(keep ? () => {} : forget, forget);
    files.set(key, p);
  }
  if (progress) p.then((b) => progress.add(b.length, b.length), () => {});
  return p;
}

// toolLoader returns the function that reads the tool module at url, with
// an id naming its bytes (the URL, size and modification time): sandboxes
// whose loaders have one id share the module compiled from it, and the
// core keeps no copy of the bytes (see platform/hostwasm's toolsFS).
// The id is read when the tool is first used, so creating a sandbox stats
// none of its tools.
function toolLoader(url, progress) {
  const load = () => toolModule(url, progress);
  let id;
  Object.defineProperty(load, 'id', {
    get() {
      if (id === undefined) {
        try {
          const st = fs.statSync(url);
          id = `${url.href}#${st.size}-${st.mtimeMs}`;
        } catch {
          id = ''; // no id: the bytes name themselves once read, as a user's loader's do
        }
      }
      return id;
    },
  });
  return load;
}

async function toolModule(url, progress) {
  let b;
  try {
    b = await read(url, progress);
  } catch (err) {
    throw new SandboxError('ENOENT', `wasmsand: cannot read ${url.pathname}: ${err.message}`);
  }
  return checkWasm(b, url.pathname);
}

// readTools lists a tools folder: manifest.json is read now, every *.wasm
// when it is first needed.
async function readTools(dir, progress) {
  const all = await readdir(dir);
  const names = all.filter((n) => n === 'manifest.json' || n.endsWith('.wasm'));
  const digests = all.includes(DIGESTS) ? await readDigests(new URL(DIGESTS, dir)) : {};
  const tools = {};
  for (const n of names) {
    const url = new URL(n, dir);
    tools[n] = n === 'manifest.json' ? await read(url, progress, true) : toolLoader(url, progress);
    if (n !== 'manifest.json' && sha256Hex.test(digests[n] ?? '')) tools[n].sha256 = digests[n];
  }
  return tools;
}

// DIGESTS is the file of a tools folder, written by the package build,
// that gives each module's SHA-256: a loader carries its module's, so that
// the core finds an instrumented module kept in the store without reading
// the tool (see sandbox.ToolDigester).
const DIGESTS = 'sha256.json';
const sha256Hex = /^[0-9a-f]{64}$/;

// readDigests reads a tools folder's sha256.json, or gives {} for one
// that is unreadable or not an object: digests only save work.
async function readDigests(url) {
  try {
    const v = JSON.parse(new TextDecoder().decode(await read(url, null, true)));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

function dirURL(spec) {
  const s = String(spec);
  const u = spec instanceof URL ? new URL(spec) : new URL(s, `file://${process.cwd()}/`);
  if (u.pathname.endsWith('/manifest.json')) u.pathname = u.pathname.slice(0, -'manifest.json'.length);
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return u;
}

/**
 * configure({baseURL}) sets the folder (path or file URL) holding
 * wasmsand.wasm, wasm_exec.js and tools/. Call it before the first
 * Sandbox.create.
 */
export function configure(options = {}) {
  if (options.baseURL !== undefined) base = dirURL(options.baseURL);
}

/**
 * loadMCPCore(tools) reads the MCP server's core (wasmsand-mcp.wasm) and
 * the tools (a folder, or this package's by default), for mcp.mjs.
 */
export async function loadMCPCore(tools) {
  const [wasmExecSource, bytes] = await Promise.all([
    readFile(new URL('wasm_exec.js', base), 'utf8'),
    readFile(new URL('wasmsand-mcp.wasm', base)),
  ]);
  return {
    wasmExecSource,
    module: await WebAssembly.compile(bytes),
    tools: await readTools(tools === undefined ? new URL('tools/', base) : dirURL(tools)),
  };
}

// goGlobals gives the Go runtime a clock and random bytes from process and
// /dev/urandom: Node makes globalThis.performance and globalThis.crypto on
// first use, loading perf_hooks (about 4 ms of CPU) and Web Crypto (about
// 18 ms), which starting the core needs for nothing else. Where there is no
// /dev/urandom, random bytes come from globalThis.crypto; crypto.subtle is
// always globalThis.crypto's.
function goGlobals() {
  const { hrtime } = process;
  const origin = hrtime.bigint();
  const webCrypto = () => globalThis.crypto;
  return {
    performance: { now: () => Number(hrtime.bigint() - origin) / 1e6 },
    crypto: {
      getRandomValues(a) {
        if (!ArrayBuffer.isView(a) || a instanceof DataView || a instanceof Float32Array || a instanceof Float64Array) {
          return webCrypto().getRandomValues(a); // throws as Web Crypto does
        }
        if (a.byteLength > 65536) return webCrypto().getRandomValues(a);
        let fd;
        try {
          fd = fs.openSync('/dev/urandom', 'r');
        } catch {
          return webCrypto().getRandomValues(a);
        }
        try {
          const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
          for (let n = 0; n < b.length;) n += fs.readSync(fd, b, n, b.length - n, null);
        } finally {
          fs.closeSync(fd);
        }
        return a;
      },
      get subtle() { return webCrypto().subtle; },
    },
  };
}

definePlatform({
  goGlobals,
  // moduleStore keeps instrumented tool modules on disk (see
  // diskModuleStore).
  moduleStore() {
    return diskModuleStore();
  },
  // mountHost opens a host directory for a mount, with Node's own fs: the
  // core never reaches the disk by itself.
  mountHost(dir) {
    return nodeHost(dir);
  },
  async loadCore(progress) {
    const [wasmExecSource, bytes] = await Promise.all([
      readFile(new URL('wasm_exec.js', base), 'utf8'),
      readFile(new URL('wasmsand.wasm', base)),
    ]);
    progress?.add(bytes.length, bytes.length);
    return { wasmExecSource, module: await WebAssembly.compile(bytes) };
  },
  defaultTools(progress) {
    return readTools(new URL('tools/', base), progress);
  },
  // loadTools accepts a folder (path or URL, or its manifest.json), or an
  // object mapping file names to bytes, file URLs or loader functions.
  async loadTools(spec, progress) {
    if (typeof spec === 'string' || spec instanceof URL) return readTools(dirURL(spec), progress);
    if (spec === null || typeof spec !== 'object') {
      throw new SandboxError('INVALID_ARGUMENT', 'Sandbox.create: options.tools must be a folder or an object of file name → bytes');
    }
    const out = {};
    for (const [name, v] of Object.entries(spec)) {
      if (v instanceof URL) {
        out[name] = toolLoader(v, progress);
      } else if (name === 'manifest.json' && v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer)) {
        out[name] = new TextEncoder().encode(JSON.stringify(v));
      } else {
        out[name] = v;
      }
    }
    return out;
  },
  // defaultStore keeps snapshots as files in options.storeDir, else
  // .wasmsand in the working directory.
  defaultStore(options) {
    return dirStore(options?.storeDir ?? join(process.cwd(), '.wasmsand'));
  },
});

function quota(err) {
  if (err && (err.code === 'ENOSPC' || err.code === 'EDQUOT' || err.code === 'EFBIG')) {
    return new SandboxError('QUOTA_EXCEEDED', `wasmsand: no space to save: ${err.message}`);
  }
  return err;
}

const snapshotName = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * dirStore(dir) keeps snapshots as NAME.wsbx files in dir, as the Go
 * DirStore and `wasmsand --state DIR` do: a save writes a temporary file,
 * syncs it and renames it over the old one, so a failed save never loses
 * the previous one.
 */
export function dirStore(dir) {
  const path = (name) => {
    if (!snapshotName.test(name)) throw new SandboxError('INVALID_ARGUMENT', `bad snapshot name ${JSON.stringify(name)}`);
    return join(dir, `${name}.wsbx`);
  };
  return {
    async put(name, bytes) {
      const final = path(name);
      await fs.promises.mkdir(dir, { recursive: true });
      const tmp = join(dir, `.${name}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
      let fh;
      try {
        fh = await fs.promises.open(tmp, 'wx', 0o600);
        await fh.writeFile(bytes);
        await fh.sync();
        await fh.close();
        fh = null;
        await fs.promises.rename(tmp, final);
      } catch (err) {
        await fh?.close().catch(() => {});
        await fs.promises.unlink(tmp).catch(() => {});
        throw quota(err);
      }
    },
    async get(name) {
      try {
        const b = await fs.promises.readFile(path(name));
        return new Uint8Array(b.buffer, b.byteOffset, b.length);
      } catch (err) {
        if (err.code === 'ENOENT') return null;
        throw err;
      }
    },
    async list() {
      let names;
      try {
        names = await fs.promises.readdir(dir);
      } catch (err) {
        if (err.code === 'ENOENT') return [];
        throw err;
      }
      const out = [];
      for (const f of names.sort()) {
        if (!f.endsWith('.wsbx') || !snapshotName.test(f.slice(0, -5))) continue;
        try {
          const st = await fs.promises.stat(join(dir, f));
          if (st.isFile()) out.push({ name: f.slice(0, -5), size: st.size, modified: st.mtimeMs });
        } catch {
          // removed meanwhile
        }
      }
      return out;
    },
    async delete(name) {
      try {
        await fs.promises.unlink(path(name));
        return true;
      } catch (err) {
        if (err.code === 'ENOENT') return false;
        throw err;
      }
    },
  };
}

/**
 * diskModuleStore returns the core's ModuleStore on disk: each tool module
 * instrumented and prepared for the engine, in $WASMSAND_CACHE_DIR, else
 * $XDG_CACHE_HOME/wasmsand/modules or ~/.cache/wasmsand/modules, keyed by
 * the SHA-256 of the module's bytes and the variant the core names, so a
 * new process neither instruments nor rewrites python3 again: the core
 * compiles what load returns without copying it into Go (see
 * sandbox.ModuleLoader). Node 26 has no way to keep V8's compiled
 * WebAssembly code across processes (module.enableCompileCache covers
 * JavaScript only; a WebAssembly.Module does not serialize), so compiling
 * remains. Failures are misses.
 *
 * Every version of a tool, and every new format of the entries, adds files
 * and replaces none, so the store is kept under $WASMSAND_CACHE_LIMIT bytes
 * (default cacheLimit) as the native build keeps its own (package
 * platform/native/diskcache): a load marks its file used (its modification
 * time, at most once in touchAfterMs), and a store removes the least
 * recently used files until the rest fit.
 */
function diskModuleStore() {
  const dir = process.env.WASMSAND_CACHE_DIR ||
    join(process.env.XDG_CACHE_HOME || join(process.getBuiltinModule('node:os').homedir(), '.cache'), 'wasmsand', 'modules');
  const limit = cacheLimitFromEnv();
  // node:crypto is loaded on first use: it costs Node several
  // milliseconds, and a sandbox that runs no tool never needs it.
  const digestFile = (hex, variant) => join(dir, `${hex}-${variant.replace(/[^\w.-]/g, '_')}.wasm`);
  const file = async (raw, variant) => {
    const { createHash } = await import('node:crypto');
    return digestFile(createHash('sha256').update(raw).digest('hex'), variant);
  };
  const loadFile = async (path) => {
    try {
      const b = await readFile(await path);
      touch(await path);
      return new Uint8Array(b.buffer, b.byteOffset, b.length);
    } catch {
      return null;
    }
  };
  return {
    load(raw, variant) {
      return loadFile(file(raw, variant));
    },
    // loadDigest is load for the raw module whose SHA-256 is hex (see
    // sandbox.DigestStore).
    loadDigest(hex, variant) {
      return sha256Hex.test(hex) ? loadFile(digestFile(hex, variant)) : Promise.resolve(null);
    },
    async store(raw, variant, bytes) {
      const { randomBytes } = await import('node:crypto');
      const tmp = join(dir, `tmp-${randomBytes(8).toString('hex')}`);
      try {
        await fs.promises.mkdir(dir, { recursive: true });
        await fs.promises.writeFile(tmp, bytes);
        await fs.promises.rename(tmp, await file(raw, variant));
      } catch {
        await fs.promises.rm(tmp, { force: true }).catch(() => {});
        return;
      }
      await trimModuleDir(dir, limit).catch(() => {}); // a cache: failing to trim is no error
    },
  };
}

// cacheLimit is the default size of the module store on disk: room for
// the modules of several versions of every tool (one version's, python3
// included, take about 130 MB).
const cacheLimit = 1 << 30;

// touchAfterMs is how stale a module file's mark of use must be before a
// load renews it: often enough for trimming to see what is in use, seldom
// enough that loads do not turn into writes.
const touchAfterMs = 3600e3;

// cacheLimitFromEnv returns $WASMSAND_CACHE_LIMIT (bytes; 0 or less for no
// limit), else cacheLimit.
function cacheLimitFromEnv() {
  const v = process.env.WASMSAND_CACHE_LIMIT;
  if (v === undefined || v === '') return cacheLimit;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new SandboxError('INVALID_ARGUMENT', `WASMSAND_CACHE_LIMIT=${v}: want a number of bytes`);
  return n > 0 ? n : Infinity;
}

// touch marks the module file at path used now, if its mark is older than
// touchAfterMs. It does not wait: a missed mark costs at most a reload.
function touch(path) {
  fs.promises.stat(path).then((st) => {
    if (Date.now() - st.mtimeMs < touchAfterMs) return;
    const now = new Date();
    return fs.promises.utimes(path, now, now);
  }).catch(() => {});
}

/**
 * trimModuleDir removes the least recently used files of the module store
 * dir (by modification time, which loads renew) until the rest take at
 * most limit bytes, and the leftovers of stores that died between write
 * and rename (tmp- files older than touchAfterMs). Files that vanish or
 * cannot be removed are skipped: another process may be trimming too.
 */
async function trimModuleDir(dir, limit) {
  const files = [];
  let total = 0;
  for (const name of await fs.promises.readdir(dir)) {
    const path = join(dir, name);
    let st;
    try {
      st = await fs.promises.stat(path);
    } catch {
      continue; // removed meanwhile
    }
    if (!st.isFile()) continue;
    if (name.startsWith('tmp-')) {
      if (Date.now() - st.mtimeMs > touchAfterMs) await fs.promises.rm(path, { force: true }).catch(() => {});
      continue;
    }
    files.push({ path, size: st.size, used: st.mtimeMs });
    total += st.size;
  }
  if (total <= limit) return;
  files.sort((a, b) => a.used - b.used);
  for (const f of files) {
    if (total <= limit) break;
    try {
      await fs.promises.rm(f.path);
      total -= f.size;
    } catch {
      // gone already, or not ours to remove
    }
  }
}
