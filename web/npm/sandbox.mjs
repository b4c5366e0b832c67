// The Sandbox API shared by every wasmsand loader. A loader (index.mjs for
// Node, browser.mjs and the <script> build for browsers) calls
// definePlatform once with the ways to start the Go core and to find tool
// modules; everything else is the same on every host.

/** An error from wasmsand, with a stable `code` (ENOENT, ENOSPC, CLOSED, ...). */
export class SandboxError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'SandboxError';
    this.code = code;
  }
}

/** runCode's typed errors; each has a stable `code`. */
export class ValidationError extends SandboxError {
  constructor(message) { super('VALIDATION_ERROR', message); this.name = 'ValidationError'; }
}
export class TimeoutError extends SandboxError {
  constructor(message) { super('TIMEOUT', message); this.name = 'TimeoutError'; }
}
export class RuntimeError extends SandboxError {
  constructor(message, stack) {
    super('RUNTIME_ERROR', message);
    this.name = 'RuntimeError';
    if (stack) this.jsStack = stack;
  }
}

// bridgeSpecs normalizes runCode's bridges: {name: fn} or {name: {fn, description}}.
function bridgeSpecs(bridges) {
  if (bridges === undefined || bridges === null) return [];
  if (typeof bridges !== 'object') throw new ValidationError('runCode: bridges must be an object of name → async function');
  return Object.keys(bridges).map((name) => {
    const b = bridges[name];
    const fn = typeof b === 'function' ? b : b && (b.fn || b.handler || b.call);
    if (typeof fn !== 'function') throw new ValidationError(`runCode: bridge ${JSON.stringify(name)} is not a function (nor {fn, description})`);
    const description = typeof b === 'object' && typeof b.description === 'string' ? b.description : '';
    const params = typeof b === 'object' && b.params !== undefined ? b.params : undefined;
    return { name, fn, description, params };
  });
}

/**
 * getApiMetadata(bridges) lists runCode bridges, sorted by name, as
 * [{name, description, params?, call}], for an LLM prompt.
 */
export function getApiMetadata(bridges) {
  return bridgeSpecs(bridges)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ name, description, params }) => {
      const m = { name, description, call: `await api.${name}(args)` };
      if (params !== undefined) m.params = params;
      return m;
    });
}

let platform = null;
let corePromise = null;

/**
 * definePlatform sets how this host starts the core and loads tools:
 * { loadCore(progress): Promise<{wasmExecSource: string, module: WebAssembly.Module}>,
 *   defaultTools(progress): Promise<object>, loadTools(spec, progress): Promise<object>,
 *   goGlobals?(): {crypto, performance} }. goGlobals, where the host has
 * one, gives the Go runtime its random bytes (crypto.getRandomValues) and
 * clock (performance.now) in place of the host's globals.
 * A tools object maps file names to bytes or to functions returning a
 * Promise of bytes, which the core calls the first time it needs the file.
 * progress is a Progress (or null) to report downloaded bytes to.
 */
export function definePlatform(p) {
  platform = p;
}

/**
 * Progress adds up the bytes of every download started for one
 * Sandbox.create call (the core, the manifest, tool modules fetched later)
 * and reports {loaded, total} to its listener. add(loadedDelta, totalDelta)
 * is called by the platform as bytes arrive and sizes become known.
 */
export class Progress {
  #fn;
  loaded = 0;
  total = 0;

  constructor(fn) {
    this.#fn = fn;
  }

  add(loaded, total) {
    this.loaded += loaded;
    this.total += total;
    if (this.total < this.loaded) this.total = this.loaded;
    try {
      this.#fn({ loaded: this.loaded, total: this.total });
    } catch {
      // A failing listener must not break loading.
    }
  }
}

/**
 * checkWasm(b, name) throws INVALID_MODULE unless b starts as a
 * WebAssembly module (magic and version 1), so that a tool file that is
 * something else (an HTML error page, a truncated download) fails with its
 * name in the message. It reads 8 bytes: WebAssembly.validate takes a
 * tenth of a second for a Go tool, and the core decodes the module anyway
 * (or compiles its instrumented form straight from the module store).
 * For the loaders' own use.
 */
export function checkWasm(b, name) {
  const magic = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  if (!(b instanceof Uint8Array) || b.length < 8 || magic.some((v, i) => b[i] !== v)) {
    throw new SandboxError('INVALID_MODULE', `${name} is not a WebAssembly module`);
  }
  return b;
}

function enosys() {
  const err = new Error('not implemented');
  err.code = 'ENOSYS';
  return err;
}

// goStubs gives the Go runtime a filesystem and process that answer ENOSYS,
// as wasm_exec.js does in browsers: the core must never touch the real disk,
// working directory or environment of the host.
function goStubs() {
  const decoder = new TextDecoder('utf-8');
  let line = '';
  const fs = {
    constants: { O_WRONLY: -1, O_RDWR: -1, O_CREAT: -1, O_TRUNC: -1, O_APPEND: -1, O_EXCL: -1, O_DIRECTORY: -1 },
    // Only the Go runtime's own messages (a crash) come here.
    writeSync(fd, buf) {
      line += decoder.decode(buf);
      const nl = line.lastIndexOf('\n');
      if (nl !== -1) {
        console.error(line.substring(0, nl));
        line = line.substring(nl + 1);
      }
      return buf.length;
    },
    write(fd, buf, offset, length, position, callback) {
      if (offset !== 0 || length !== buf.length || position !== null) {
        callback(enosys());
        return;
      }
      callback(null, this.writeSync(fd, buf));
    },
    fsync(fd, callback) { callback(null); },
  };
  for (const name of ['chmod', 'chown', 'close', 'fchmod', 'fchown', 'fstat', 'ftruncate', 'lchown', 'link',
    'lstat', 'mkdir', 'open', 'read', 'readdir', 'readlink', 'rename', 'rmdir', 'stat', 'symlink',
    'truncate', 'unlink', 'utimes']) {
    fs[name] = (...args) => args[args.length - 1](enosys());
  }
  const process = {
    getuid() { return -1; }, getgid() { return -1; }, geteuid() { return -1; }, getegid() { return -1; },
    getgroups() { throw enosys(); },
    pid: -1, ppid: -1,
    umask() { throw enosys(); }, cwd() { throw enosys(); }, chdir() { throw enosys(); },
  };
  const path = { resolve(...segments) { return segments.join('/'); } };
  return { fs, process, path };
}

// fastSetImmediate is a setImmediate for hosts without one (browsers): the
// core yields to the event loop through it while a guest spins, and
// setTimeout(fn, 0) would wait at least 4 ms each time once nested.
function fastSetImmediate() {
  const queue = [];
  const ch = new MessageChannel();
  ch.port1.onmessage = () => {
    const [fn, args] = queue.shift();
    fn(...args);
  };
  return (fn, ...args) => {
    queue.push([fn, args]);
    ch.port2.postMessage(null);
  };
}

// privateGlobal is the global object the Go runtime sees: the host's
// globals (WebAssembly, Promise, ...) read through, but fs, process and path
// are stubs, and whatever the runtime defines stays in own.
function privateGlobal(own) {
  return new Proxy(globalThis, {
    get(target, key) { return Object.hasOwn(own, key) ? own[key] : Reflect.get(target, key); },
    set(target, key, value) { own[key] = value; return true; },
    has(target, key) { return Object.hasOwn(own, key) || Reflect.has(target, key); },
    deleteProperty(target, key) { delete own[key]; return true; },
    defineProperty(target, key, desc) { Object.defineProperty(own, key, desc); return true; },
    getOwnPropertyDescriptor(target, key) {
      return Object.getOwnPropertyDescriptor(Object.hasOwn(own, key) ? own : target, key);
    },
  });
}

// goClass evaluates wasm_exec.js on a private global object whose fs,
// process and path are stubs and whose wasmsandHost is host, and returns
// its Go class. wasm_exec.js names crypto and performance without
// globalThis too: both are the private global's, the platform's (see
// definePlatform) where it has them.
function goClass(wasmExecSource, stubs, host) {
  const own = { ...stubs, ...platform.goGlobals?.(), wasmsandHost: host };
  if (typeof globalThis.setImmediate !== 'function' && typeof MessageChannel === 'function') {
    own.setImmediate = fastSetImmediate();
  }
  const g = privateGlobal(own);
  return new Function('globalThis', 'fs', 'process', 'path', 'crypto', 'performance', `${wasmExecSource}\nreturn globalThis.Go;`)(
    g, stubs.fs, stubs.process, stubs.path, g.crypto, g.performance);
}

// startCore runs the Go core on a private global object, so it never
// touches the host's real disk, working directory or environment.
async function startCore(progress) {
  const { wasmExecSource, module } = await platform.loadCore(progress);
  const stubs = goStubs();
  let ready, failed;
  const api = new Promise((resolve, reject) => { ready = resolve; failed = reject; });
  // defaultStore gives the core the store of options that name none
  // (files in Node, IndexedDB in browsers).
  const defaultStore = (options) => platform.defaultStore?.(options);
  const Go = goClass(wasmExecSource, stubs, { SandboxError, ready, defaultStore });
  const go = new Go();
  go.argv = ['wasmsand'];
  go.env = {};
  go.exit = (code) => failed(new SandboxError('INTERNAL', `the wasmsand core exited with status ${code}`));
  const instance = await WebAssembly.instantiate(module, go.importObject);
  go.run(instance).then(() => failed(new SandboxError('INTERNAL', 'the wasmsand core exited')));
  return api;
}

/**
 * defaultTools(progress) resolves to this platform's tools object (file
 * name → bytes or loader function). For the loaders' own use.
 */
export function defaultTools(progress = null) {
  return platform.defaultTools(progress);
}

/** loadTools(spec, progress) is the platform's, as Sandbox.create uses it. */
export function loadTools(spec, progress = null) {
  return platform.loadTools(spec, progress);
}

/**
 * runGo(wasmExecSource, module, host) runs another Go js/wasm program (the
 * MCP server's core) as startCore runs the core: on a private global whose
 * wasmsandHost is host, with the same stubs. It resolves to the program's
 * exit code when it exits. For the loaders' own use.
 */
export async function runGo(wasmExecSource, module, host) {
  const stubs = goStubs();
  const Go = goClass(wasmExecSource, stubs, host);
  const go = new Go();
  go.argv = ['wasmsand'];
  go.env = {};
  let status = 0;
  go.exit = (code) => { status = code; };
  const instance = await WebAssembly.instantiate(module, go.importObject);
  await go.run(instance);
  return status;
}

/**
 * core(progress) resolves to the core's API object once the Go runtime
 * has started (it starts on the first call). For the loaders' own use.
 */
export function core(progress = null) {
  if (!platform) throw new Error('wasmsand: no platform defined; import the package entry point');
  corePromise ??= startCore(progress).catch((err) => {
    corePromise = null;
    throw err;
  });
  return corePromise;
}

// check throws what a synchronous core function returned as an error.
function check(v) {
  if (v instanceof SandboxError) throw v;
  return v;
}

// mountSpec opens hostPath through the platform for a mount at path.
function mountSpec(what, path, hostPath, options) {
  if (typeof path !== 'string' || typeof hostPath !== 'string') {
    throw new SandboxError('INVALID_ARGUMENT', `${what}: path and hostPath must be strings`);
  }
  if (!platform.mountHost) {
    throw new SandboxError('ENOTSUP', `${what}: host directories can be mounted only in Node.js, not in a browser`);
  }
  let host;
  try {
    host = platform.mountHost(hostPath);
  } catch (err) {
    const code = err?.code === 'ENOTSUP' ? 'ENOTSUP' : (typeof err?.code === 'string' ? err.code : 'EIO');
    const why = code === 'ENOTSUP' ? 'host mounts need Linux (/proc/self/fd) for confinement' : err.message;
    throw new SandboxError(code, `${what}: cannot mount ${hostPath}: ${why}`);
  }
  return { path, readOnly: !!options?.readOnly, host };
}

const token = Symbol('wasmsand.Sandbox');

/** A sandbox: a shell, a filesystem and limits. Make one with Sandbox.create. */
export class Sandbox {
  #api;
  #id;

  constructor(t, api, id) {
    if (t !== token) throw new TypeError('use Sandbox.create() to make a Sandbox');
    this.#api = api;
    this.#id = id;
  }

  /**
   * Sandbox.create(options) resolves to a new sandbox. Options: timeoutMs,
   * memoryLimitBytes, fsLimitBytes, maxProcesses, fuel, outputLimitBytes, env,
   * cwd, seed, clock (a fixed time, ms since the epoch), tools (file name →
   * bytes, or where to find a manifest.json), onProgress({loaded, total})
   * called as the core and tool modules download, mounts ([{path, hostPath,
   * readOnly}], Node.js only; see mount), network ({allow: rules, headers,
   * maxRequests, maxResponseBytes, maxRequestBytes, timeoutMs}: what curl and
   * wget may reach through the host's fetch()).
   */
  static async create(options = {}) {
    if (options === null || typeof options !== 'object') {
      throw new SandboxError('INVALID_ARGUMENT', 'Sandbox.create: options must be an object');
    }
    const { onProgress, ...opts } = options;
    if (onProgress !== undefined && onProgress !== null && typeof onProgress !== 'function') {
      throw new SandboxError('INVALID_ARGUMENT', 'Sandbox.create: options.onProgress must be a function');
    }
    const progress = onProgress ? new Progress(onProgress) : null;
    // The tools are listed while the core starts.
    const tools = Promise.resolve().then(() =>
      opts.tools === undefined ? platform.defaultTools(progress) : platform.loadTools(opts.tools, progress));
    tools.catch(() => {}); // reported below, once the core is up
    const api = await core(progress);
    opts.tools = await tools;
    // Instrumented modules kept across page loads or processes (the
    // platform's store; moduleStore: null turns it off).
    if (opts.moduleStore === undefined) opts.moduleStore = platform.moduleStore?.();
    if (opts.mounts !== undefined && opts.mounts !== null) {
      if (!Array.isArray(opts.mounts)) throw new SandboxError('INVALID_ARGUMENT', 'Sandbox.create: options.mounts must be an array of {path, hostPath, readOnly}');
      opts.mounts = opts.mounts.map((m, i) => mountSpec(`Sandbox.create: options.mounts[${i}]`, m?.path, m?.hostPath, m));
    }
    const id = await api.create(opts);
    return new Sandbox(token, api, id);
  }

  /**
   * Sandbox.restore(bytes, options) resolves to a sandbox made from a
   * snapshot. Options are create's; limits left out take the snapshot's.
   * A bad snapshot rejects with code SNAPSHOT_ERROR and a `check` property
   * naming what failed: magic, version, truncated, checksum, format, limits.
   */
  static async restore(bytes, options = {}) {
    const { api, opts } = await prepare(options, 'Sandbox.restore');
    return new Sandbox(token, api, await api.restore(bytes, opts));
  }

  /**
   * Sandbox.load(name, options) restores the sandbox saved under name in
   * options.store: by default files in Node (in options.storeDir, else
   * ./.wasmsand) and IndexedDB in browsers. create's option persist: name
   * resumes that sandbox and saves it after every run.
   */
  static async load(name, options = {}) {
    const { api, opts } = await prepare(options, 'Sandbox.load');
    return new Sandbox(token, api, await api.load(name, opts));
  }

  /** Sandbox.list({store, storeDir}) resolves to the saved sandboxes: [{name, size, modified}]. */
  static async list(options = {}) {
    return (await core()).list(options);
  }

  /** Sandbox.delete(name, {store, storeDir}) removes a saved sandbox. */
  static async delete(name, options = {}) {
    await (await core()).delete(name, options);
  }

  /**
   * snapshot() returns the sandbox's whole state as bytes (Uint8Array) for
   * Sandbox.restore. It throws EBUSY while a command runs.
   */
  snapshot() { return check(this.#api.snapshot(this.#id)); }

  /** fork() resolves to an independent copy that shares unchanged files. */
  async fork() {
    return new Sandbox(token, this.#api, await this.#api.fork(this.#id));
  }

  /** save(name) stores a snapshot under name in the sandbox's store. */
  async save(name) {
    await this.#api.save(this.#id, name);
  }

  /** Sandbox.info() describes the runtime: {engine, jspi, version, goVersion}. */
  static async info() {
    return (await core()).info();
  }

  /** info() is Sandbox.info() for this sandbox's runtime. */
  info() {
    return this.#api.info();
  }

  /**
   * run(cmd, {stdin, env, cwd, onStdout, onStderr, signal}) resolves to
   * {exitCode, stdout, stderr, executionTimeMs, metrics}.
   */
  run(cmd, options = {}) {
    return this.#api.run(this.#id, cmd, options);
  }

  /**
   * runCode({language, code, timeoutMs, context, bridges}) runs JavaScript in
   * a fresh guest over this sandbox's files and resolves to {ok, stdout,
   * stderr, result, warnings, durationMs, error?}; error is a TimeoutError
   * or a RuntimeError. A bad request rejects with a ValidationError.
   */
  async runCode(request) {
    if (request === null || typeof request !== 'object') throw new ValidationError('runCode: the request must be an object');
    const { language, code, timeoutMs, context, bridges } = request;
    if (code !== undefined && typeof code !== 'string') throw new ValidationError('runCode: code must be a string');
    if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs))) throw new ValidationError('runCode: timeoutMs must be a number');
    let contextJSON;
    if (context !== undefined) {
      try { contextJSON = JSON.stringify(context); } catch (err) { throw new ValidationError(`runCode: context is not JSON: ${err.message}`); }
    }
    const specs = {};
    for (const b of bridgeSpecs(bridges)) {
      specs[b.name] = {
        description: b.description,
        call: async (argsJSON) => {
          const v = await b.fn(JSON.parse(argsJSON));
          return v === undefined ? undefined : JSON.stringify(v);
        },
      };
    }
    let r;
    try {
      r = await this.#api.runCode(this.#id, { language, code: code ?? '', timeoutMs, contextJSON, bridges: specs });
    } catch (err) {
      if (err instanceof SandboxError && err.code === 'VALIDATION_ERROR') throw new ValidationError(err.message);
      throw err;
    }
    const out = {
      ok: r.ok,
      stdout: r.stdout,
      stderr: r.stderr,
      result: r.resultJSON === '' ? null : JSON.parse(r.resultJSON),
      warnings: r.warnings,
      durationMs: r.durationMs,
    };
    if (r.error) {
      out.error = r.error.code === 'TIMEOUT' ? new TimeoutError(r.error.message) : new RuntimeError(r.error.message, r.error.stack);
    }
    return out;
  }

  /** getApiMetadata(bridges) is the module's getApiMetadata. */
  getApiMetadata(bridges) { return getApiMetadata(bridges); }

  readFile(path) { return check(this.#api.readFile(this.#id, path)); }
  readTextFile(path) { return check(this.#api.readTextFile(this.#id, path)); }
  writeFile(path, data, options = {}) { check(this.#api.writeFile(this.#id, path, data, options)); }
  readDir(path) { return check(this.#api.readDir(this.#id, path)); }
  mkdir(path) { check(this.#api.mkdir(this.#id, path)); }
  stat(path) { return check(this.#api.stat(this.#id, path)); }
  rm(path, options = {}) { check(this.#api.rm(this.#id, path, options)); }
  setEnv(name, value) { check(this.#api.setEnv(this.#id, name, value)); }
  getEnv(name) { return check(this.#api.getEnv(this.#id, name)); }
  /**
   * mount(path, hostPath, {readOnly}) shows the host directory hostPath at
   * path (Node.js only): paths in it never lead outside hostPath, and a
   * read-only mount refuses every change with EROFS.
   */
  mount(path, hostPath, options = {}) {
    check(this.#api.mount(this.#id, mountSpec('mount', path, hostPath, options)));
  }
  /** unmount(path) detaches the mount at path; EBUSY while a file in it is open. */
  unmount(path) { check(this.#api.unmount(this.#id, path)); }
  /** allowNetwork(rules) lets the runs that follow reach more URLs (see SandboxOptions.network). */
  allowNetwork(rules) { check(this.#api.allowNetwork(this.#id, rules)); }
  /** complete(line) lists Tab completions of the line's last word. */
  complete(line) { return check(this.#api.complete(this.#id, line)); }

  /**
   * toolDefinitions() lists the agent tools bound to this sandbox as
   * [{name, description, inputSchema}]; createTools (wasmsand/tools) gives
   * them in the shapes of the OpenAI, Anthropic and AI SDK APIs.
   */
  toolDefinitions() { return JSON.parse(check(this.#api.toolDefinitions(this.#id))); }

  /**
   * handleToolCall(name, args) runs one tool call (args: an object or its
   * JSON text) and resolves to the result object, or to {error: {code,
   * message}} when the call failed (bad arguments, a missing file, ...).
   */
  async handleToolCall(name, args = {}) {
    const json = typeof args === 'string' ? args : JSON.stringify(args ?? {});
    const r = await this.#api.handleToolCall(this.#id, String(name), json);
    return JSON.parse(r.text);
  }

  /** destroy() stops running commands and frees the sandbox; it is idempotent. */
  destroy() {
    this.#api.destroy(this.#id);
  }
}

// prepare starts the core and reads the tools option as create does, for
// restore and load.
async function prepare(options, what) {
  if (options === null || typeof options !== 'object') {
    throw new SandboxError('INVALID_ARGUMENT', `${what}: options must be an object`);
  }
  const { onProgress, ...opts } = options;
  const progress = typeof onProgress === 'function' ? new Progress(onProgress) : null;
  const api = await core(progress);
  opts.tools = opts.tools === undefined ? await platform.defaultTools(progress) : await platform.loadTools(opts.tools, progress);
  return { api, opts };
}
