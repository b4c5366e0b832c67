// The browser platform of wasmsand: the core and the tool modules are
// fetched from a base URL. Tool modules are fetched the first time one of
// their commands runs, once per page, and shared by every sandbox of the
// page. This file is also bundled into the <script> build (wasmsand.js), so
// it imports only sandbox.mjs and never reads its own module URL.
import { SandboxError, checkWasm } from './sandbox.mjs';

/**
 * browserPlatform returns the platform for definePlatform, loading from
 * base (the URL of the package folder) unless configure({baseURL}) changes
 * it before the first sandbox is made.
 */
export function browserPlatform(base) {
  let baseURL = new URL(base);
  // caching keeps the core and instrumented modules in the Cache API
  // across page loads; configure({caching: false}) turns it off.
  let caching = true;
  // downloads maps a URL to its download in flight or done, so a module
  // is fetched once per page however many sandboxes need it.
  const downloads = new Map();

  // download fetches url's bytes, reporting to progress (a Progress or
  // null) as they arrive.
  function download(url, progress) {
    const key = String(url);
    let d = downloads.get(key);
    if (!d) {
      d = { loaded: 0, total: 0, listeners: new Set(), promise: null };
      d.promise = fetchBytes(key, d).catch((err) => {
        downloads.delete(key); // let a later call try again
        throw err;
      });
      downloads.set(key, d);
    }
    if (progress) {
      progress.add(d.loaded, d.total);
      d.listeners.add(progress);
      const done = () => d.listeners.delete(progress);
      d.promise.then(done, done);
    }
    return d.promise;
  }

  async function fetchBytes(url, d) {
    const emit = (loaded, total) => {
      d.loaded += loaded;
      d.total += total;
      for (const p of d.listeners) p.add(loaded, total);
    };
    let resp;
    try {
      resp = await fetch(url);
    } catch (err) {
      throw new SandboxError('ENOENT', `wasmsand: cannot fetch ${url}: ${err.message}`);
    }
    if (!resp.ok) {
      throw new SandboxError('ENOENT', `wasmsand: cannot fetch ${url}: HTTP ${resp.status} ${resp.statusText}`);
    }
    // Content-Length is the encoded size when the server compresses.
    const encoded = resp.headers.get('Content-Encoding');
    const length = Number(resp.headers.get('Content-Length'));
    if (!encoded && length > 0) emit(0, length);
    if (!resp.body) {
      const b = new Uint8Array(await resp.arrayBuffer());
      emit(b.length, Math.max(0, b.length - d.total));
      return b;
    }
    const chunks = [];
    let size = 0;
    const reader = resp.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
      emit(value.length, 0);
    }
    if (d.total !== size) emit(0, size - d.total);
    return concat(chunks, size);
  }

  // compileStreaming compiles the core as it downloads, with
  // WebAssembly.compileStreaming. It returns null when the host or the
  // server does not allow it (no compileStreaming, not served as
  // application/wasm, a failed request): the caller then downloads the
  // bytes and compiles them.
  async function compileStreaming(url, progress) {
    if (typeof WebAssembly.compileStreaming !== 'function') return null;
    let resp;
    try {
      resp = await fetch(url);
    } catch {
      return null;
    }
    const type = resp.headers.get('Content-Type') ?? '';
    if (!resp.ok || !resp.body || type.split(';')[0].trim().toLowerCase() !== 'application/wasm') {
      resp.body?.cancel().catch(() => {});
      return null;
    }
    let counted = null;
    if (progress) {
      // A copy of the stream reports the bytes as they arrive.
      const encoded = resp.headers.get('Content-Encoding');
      const length = Number(resp.headers.get('Content-Length'));
      const total = !encoded && length > 0 ? length : 0;
      progress.add(0, total);
      const reader = resp.clone().body.getReader();
      counted = (async () => {
        let size = 0, known = total;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.length;
          const extra = Math.max(0, size - known);
          known += extra;
          progress.add(value.length, extra);
        }
      })().catch(() => {});
    }
    try {
      const module = await WebAssembly.compileStreaming(resp);
      await counted;
      return module;
    } catch {
      // A module that does not compile fails the same way when the
      // caller downloads and compiles it, with the usual error.
      return null;
    }
  }

  // coreCache is the Cache API cache of the core, or null when caching is
  // off or the package build wrote no hash (a source tree).
  async function coreCache() {
    if (!caching || !CORE_SHA256 || typeof caches === 'undefined') return null;
    return caches.open(CORE_CACHE);
  }

  // cachedCore compiles the core from its Cache API copy, or returns null
  // when there is none (or it does not compile, and is then deleted).
  // Chromium reads 11 MB from the Cache API in about a third of the time
  // it takes from its HTTP cache, where a warm load spent most of its
  // start-up.
  async function cachedCore(progress) {
    let cache, resp;
    try {
      cache = await coreCache();
      resp = await cache?.match(coreKey());
    } catch {
      return null;
    }
    if (!resp) return null;
    const size = Number(resp.headers.get(SIZE)) || 0;
    try {
      const module = typeof WebAssembly.compileStreaming === 'function'
        ? await WebAssembly.compileStreaming(resp)
        : await WebAssembly.compile(await resp.arrayBuffer());
      progress?.add(size, size);
      return module;
    } catch {
      cache.delete(coreKey()).catch(() => {});
      return null;
    }
  }

  // storeCore keeps the core in the Cache API when it is this package's
  // (by CORE_SHA256: a baseURL may serve another build), and deletes the
  // cores of other versions. It reads bytes, or else the core from url
  // again (the HTTP cache has it now), and never fails: a core not kept is
  // fetched again on the next load.
  async function storeCore(bytes, url) {
    try {
      const cache = await coreCache();
      if (!cache || !globalThis.crypto?.subtle) return;
      if (!bytes) {
        const resp = await fetch(url);
        if (!resp.ok) return;
        bytes = new Uint8Array(await resp.arrayBuffer());
      }
      if (await sha256(bytes) !== CORE_SHA256) return;
      const key = coreKey();
      await cache.put(key, new Response(bytes, { headers: { 'Content-Type': 'application/wasm', [SIZE]: String(bytes.length) } }));
      for (const req of await cache.keys()) {
        if (req.url !== key) await cache.delete(req);
      }
    } catch {
      // a full or unavailable cache
    }
  }

  // toolModule fetches a tool module and checks it is WebAssembly, so a
  // broken file fails with its URL in the message.
  async function toolModule(url, progress) {
    const bytes = await download(url, progress);
    downloads.delete(String(url)); // read to be compiled, once: not kept
    return checkWasm(bytes, String(url));
  }

  // toolLoader returns the function that fetches the tool module at url,
  // with its URL as the id naming its bytes: sandboxes of the page share
  // the module compiled from it, and nothing keeps the bytes once it is
  // compiled (see platform/hostwasm's toolsFS).
  function toolLoader(url, progress) {
    const load = () => toolModule(url, progress);
    load.id = String(url);
    return load;
  }

  // toolsFolder reads the manifest of a folder of tools and returns the
  // tools object: each module is a function fetching it on first use.
  async function toolsFolder(dir, progress) {
    const manifestURL = new URL('manifest.json', dir);
    // sha256.json, written by the package build, gives each module's
    // SHA-256: a loader carries its module's, so that the core finds an
    // instrumented module kept in the Cache API without downloading the
    // tool (see sandbox.ToolDigester). A folder without one (or with a
    // broken one) works as before.
    const digests = download(new URL('sha256.json', dir), null)
      .then((b) => JSON.parse(new TextDecoder().decode(b)))
      .catch(() => ({}));
    const bytes = await download(manifestURL, progress);
    let manifest;
    try {
      manifest = JSON.parse(new TextDecoder().decode(bytes));
    } catch (err) {
      throw new SandboxError('INVALID_ARGUMENT', `wasmsand: ${manifestURL} is not valid JSON: ${err.message}`);
    }
    if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) {
      throw new SandboxError('INVALID_ARGUMENT', `wasmsand: ${manifestURL} must map module files to lists of commands`);
    }
    const tools = { 'manifest.json': bytes };
    const sums = await digests;
    for (const file of Object.keys(manifest)) {
      const url = new URL(file, dir);
      tools[file] = toolLoader(url, progress);
      const sum = sums !== null && typeof sums === 'object' ? sums[file] : undefined;
      if (typeof sum === 'string' && SHA256_HEX.test(sum)) tools[file].sha256 = sum;
    }
    return tools;
  }

  function folderURL(spec) {
    const u = new URL(String(spec), globalThis.document?.baseURI ?? baseURL);
    if (u.pathname.endsWith('/manifest.json')) u.pathname = u.pathname.slice(0, -'manifest.json'.length);
    if (!u.pathname.endsWith('/')) u.pathname += '/';
    return u;
  }

  return {
    // defaultStore is the page's IndexedDB (database "wasmsand"), which
    // the core reaches itself.
    defaultStore() {
      return 'indexeddb';
    },

    /**
     * configure({baseURL, caching}) sets where the package's files are
     * served from, and whether the core and instrumented modules are kept
     * in the Cache API.
     */
    configure(opts = {}) {
      if (opts.baseURL !== undefined) {
        baseURL = folderURL(opts.baseURL);
      }
      if (opts.caching !== undefined) {
        caching = !!opts.caching;
      }
    },

    // loadCore compiles the core from its Cache API copy (see
    // cachedCore), else as it downloads; then, once the page is idle, it
    // keeps a copy (reading it again rather than holding it, so the first
    // start-up pays nothing for the copy).
    async loadCore(progress) {
      const source = download(new URL('wasm_exec.js', baseURL), null).then((b) => new TextDecoder().decode(b));
      let module = await cachedCore(progress);
      if (!module) {
        const url = new URL('wasmsand.wasm', baseURL);
        let bytes = null;
        module = await compileStreaming(url, progress);
        if (!module) {
          bytes = await download(url, progress);
          downloads.delete(String(url)); // compiled once; free the bytes
          module = await WebAssembly.compile(bytes);
        }
        whenIdle(() => storeCore(bytes, url)); // does nothing when caching is off
      }
      return { wasmExecSource: await source, module };
    },

    // moduleStore keeps instrumented tool modules in the Cache API (see
    // cacheModuleStore).
    moduleStore() {
      return caching ? cacheModuleStore() : undefined;
    },

    defaultTools(progress) {
      return toolsFolder(new URL('tools/', baseURL), progress);
    },

    // loadTools accepts a folder URL (or its manifest.json), or an object
    // mapping file names to bytes, URLs or loader functions.
    async loadTools(spec, progress) {
      if (typeof spec === 'string' || spec instanceof URL) return toolsFolder(folderURL(spec), progress);
      if (spec === null || typeof spec !== 'object') {
        throw new SandboxError('INVALID_ARGUMENT', 'Sandbox.create: options.tools must be a folder URL or an object of file name → bytes');
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
  };
}

// whenIdle calls fn once the page is idle, or after two seconds of being
// busy (after one second where the host cannot tell).
function whenIdle(fn) {
  if (typeof globalThis.requestIdleCallback === 'function') {
    globalThis.requestIdleCallback(() => fn(), { timeout: 2000 });
  } else {
    setTimeout(fn, 1000);
  }
}

// sha256 returns the lowercase hex SHA-256 of bytes, with Web Crypto.
async function sha256(bytes) {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('');
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

// concat joins chunks, of size bytes in all, into one array.
function concat(chunks, size) {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

// CORE_SHA256 is the SHA-256 (hex) of the package's wasmsand.wasm, which
// the package build (web/mkpackage) writes in; empty in the source tree,
// where the core is not cached.
const CORE_SHA256 = '';

// CORE_CACHE is the Cache API cache holding the core, one entry under its
// hash (coreKey).
const CORE_CACHE = 'wasmsand-core-v1';

function coreKey() {
  return cacheURL(`/.wasmsand-core/${CORE_SHA256}.wasm`);
}

// cacheURL is the URL of path on the page's origin, a Cache API key.
function cacheURL(path) {
  return new URL(path, globalThis.location?.origin ?? 'https://wasmsand.invalid').href;
}

// MODULE_CACHE is the Cache API cache of instrumented modules; a new
// format of entries takes a new name, and the store deletes the caches of
// the names before it.
const MODULE_CACHE_PREFIX = 'wasmsand-modules-';
const MODULE_CACHE = MODULE_CACHE_PREFIX + 'v1';

// The headers a stored module carries: when it was last used (ms since
// the epoch) and its size, so that trimming reads no bodies.
const USED = 'X-Wasmsand-Used';
const SIZE = 'X-Wasmsand-Size';

/**
 * cacheModuleStore returns the core's ModuleStore over the Cache API: the
 * instrumented form of each tool module, keyed by the SHA-256 of the
 * module's bytes (Web Crypto) and the variant the core names, so that a
 * page reload neither instruments python3 again nor recompiles what the
 * browser's code cache holds. undefined where the Cache API or Web Crypto
 * is missing (an insecure context). Failures are misses.
 *
 * Every version of a tool adds entries and replaces none, so the cache is
 * kept under limit bytes (default 1 GiB, room for the modules of several
 * versions of every tool): a load marks its entry used (storing it again,
 * at most once in touchAfterMs, default a day), and a store deletes the
 * least recently used entries until the rest fit.
 */
export function cacheModuleStore({ limit = 1 << 30, touchAfterMs = 86400e3 } = {}) {
  if (typeof caches === 'undefined' || !globalThis.crypto?.subtle) return undefined;
  const digestKey = (hex, variant) => cacheURL(`/.wasmsand-modules/${hex}-${encodeURIComponent(variant)}.wasm`);
  const key = async (raw, variant) => digestKey(await sha256(raw), variant);
  const loadKey = async (url) => {
    try {
      const cache = await caches.open(MODULE_CACHE);
      const r = await cache.match(await url);
      if (!r) return null;
      const bytes = new Uint8Array(await r.arrayBuffer());
      if (!(Date.now() - Number(r.headers.get(USED)) < touchAfterMs)) {
        put(cache, await url, bytes).catch(() => {}); // a missed mark costs at most a reload
      }
      return bytes;
    } catch {
      return null;
    }
  };
  const put = async (cache, url, bytes) => {
    const headers = { 'Content-Type': 'application/wasm', [USED]: String(Date.now()), [SIZE]: String(bytes.length) };
    await cache.put(url, new Response(bytes, { headers }));
  };
  return {
    load(raw, variant) {
      return loadKey(key(raw, variant));
    },
    // loadDigest is load for the raw module whose SHA-256 is hex (see
    // sandbox.DigestStore).
    loadDigest(hex, variant) {
      return SHA256_HEX.test(hex) ? loadKey(digestKey(hex, variant)) : Promise.resolve(null);
    },
    async store(raw, variant, bytes) {
      try {
        const cache = await caches.open(MODULE_CACHE);
        await put(cache, await key(raw, variant), bytes);
        await trimModuleCache(cache, limit);
      } catch {
        // a full or unavailable cache: the next load instruments again
      }
    },
  };
}

/**
 * trimModuleCache deletes the Cache API caches of older entry formats and
 * the least recently used entries of cache until the rest take at most
 * limit bytes (by their USED and SIZE headers; an entry without them is
 * the oldest, and its body is measured).
 */
async function trimModuleCache(cache, limit) {
  for (const name of await caches.keys()) {
    if (name.startsWith(MODULE_CACHE_PREFIX) && name !== MODULE_CACHE) await caches.delete(name);
  }
  const entries = [];
  let total = 0;
  for (const req of await cache.keys()) {
    const r = await cache.match(req);
    if (!r) continue; // deleted meanwhile
    const h = r.headers.get(SIZE);
    let size = h === null ? NaN : Number(h);
    if (!Number.isSafeInteger(size) || size < 0) size = (await r.arrayBuffer()).byteLength;
    entries.push({ req, size, used: Number(r.headers.get(USED)) || 0 });
    total += size;
  }
  if (total <= limit) return;
  entries.sort((a, b) => a.used - b.used);
  for (const e of entries) {
    if (total <= limit) break;
    if (await cache.delete(e.req)) total -= e.size;
  }
}

