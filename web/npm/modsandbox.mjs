// createWasmSandbox: the low-level API that runs one untrusted WebAssembly
// module at a time — metered by gas, isolated, deterministic and
// resumable. It maps one to one onto the Go package wasm/modsandbox, which
// the core runs on this host's own WebAssembly.
//
//	const ws = await createWasmSandbox();
//	const inst = ws.create({ eventTimestamp: Date.now() });
//	await ws.load(inst, bytes);
//	const r = await ws.execute(inst, 'add', [40, 2]); // {ok: true, value: 42, gasUsed, ...}
import { Progress, SandboxError, core, defaultTools, loadTools } from './sandbox.mjs';

// hostDepth counts host functions running: the core cannot be re-entered
// from inside one, so the API refuses calls made there.
let hostDepth = 0;

function notInHost(what) {
  if (hostDepth > 0) {
    throw new SandboxError('INVALID_STATE', `${what}: the WasmSandbox API cannot be called from inside a host function`);
  }
}

// check throws what a synchronous core function returned as an error.
function check(v) {
  if (v instanceof SandboxError) throw v;
  return v;
}

function deepFreeze(o) {
  if (o !== null && typeof o === 'object' && !Object.isFrozen(o) && !ArrayBuffer.isView(o)) {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

// guardHost wraps a host function so that the API knows it is running.
function guardHost(fn) {
  return function hostFunction(...args) {
    hostDepth++;
    try {
      return fn.apply(this, args);
    } finally {
      hostDepth--;
    }
  };
}

// hostDecls normalises config.hostFunctions (an object of name →
// {params, results, fn, async}, or an array of {name, ...}) into the
// declarations the core reads, with guarded functions, and the frozen
// copy the instance's config shows.
function hostDecls(hf) {
  if (hf === undefined || hf === null) return { forCore: undefined, shown: {} };
  if (typeof hf !== 'object') {
    throw new SandboxError('INVALID_CONFIG', 'create: config.hostFunctions must map names to {params, results, fn}');
  }
  const list = Array.isArray(hf) ? hf : Object.entries(hf).map(([name, d]) => (d && typeof d === 'object' ? { ...d, name } : d));
  const forCore = [];
  const shown = {};
  list.forEach((d, k) => {
    if (d === null || typeof d !== 'object' || typeof d.fn !== 'function') {
      const name = Array.isArray(hf) ? `[${k}]` : `.${Object.keys(hf)[k]}`;
      throw new SandboxError('INVALID_CONFIG', `create: config.hostFunctions${name} must be {params, results, fn} with fn a function`);
    }
    forCore.push({ name: d.name, params: d.params, results: d.results, async: !!d.async, fn: guardHost(d.fn) });
    shown[d.name] = { params: [...(d.params ?? [])], results: [...(d.results ?? [])], async: !!d.async, fn: d.fn };
  });
  return { forCore, shown };
}

function idOf(inst, what) {
  if (inst instanceof WasmSandboxInstance) return inst.id;
  if (typeof inst === 'string') return inst;
  throw new SandboxError('INVALID_ARGUMENT', `${what}: the instance must be one made by create()`);
}

/** One sandboxed module: made by WasmSandbox.create. */
export class WasmSandboxInstance {
  #rt;

  constructor(rt, id, config) {
    this.#rt = rt;
    /** "sandbox-N", counting from 0 in its WasmSandbox. */
    this.id = id;
    /** The frozen config, defaults filled in. */
    this.config = config;
    Object.freeze(this);
  }

  /** created, loaded, running, suspended or destroyed. */
  get status() {
    return this.#rt.status(this.id);
  }

  /** The running totals (see WasmSandbox.getMetrics). */
  get metrics() {
    return this.#rt.status(this.id) === 'destroyed' ? null : check(this.#rt.metrics(this.id));
  }
}

/** The API createWasmSandbox resolves to: one runtime of instances. */
export class WasmSandbox {
  #rt;

  constructor(rt) {
    this.#rt = rt;
    /** The limits of the presets minimal, standard and generous. */
    this.presets = deepFreeze(rt.presets());
    Object.freeze(this);
  }

  /**
   * create(config) makes an instance. config: eventTimestamp (required),
   * maxMemoryBytes (16 MiB), maxGas (1,000,000), maxExecutionMs (50),
   * deterministicSeed (0), hostCallGas (100), maxCallDepth (1000),
   * hostFunctions, readPrefixes with readFile(path), fetchHosts with
   * fetch(url), or preset: a preset's name whose limits apply first.
   * Throws a SandboxError with code INVALID_CONFIG.
   */
  create(config) {
    notInHost('create');
    if (config === null || typeof config !== 'object') {
      throw new SandboxError('INVALID_CONFIG', 'create: the config must be an object (eventTimestamp is required)');
    }
    let base = {};
    if (config.preset !== undefined) {
      base = this.presets[config.preset];
      if (!base) throw new SandboxError('INVALID_CONFIG', `create: unknown preset ${JSON.stringify(config.preset)} (minimal, standard or generous)`);
    }
    const { forCore, shown } = hostDecls(config.hostFunctions);
    const r = check(this.#rt.create({ ...base, ...config, hostFunctions: forCore }));
    const frozen = { ...r.config, hostFunctions: shown };
    if (config.readFile !== undefined) frozen.readFile = config.readFile;
    if (config.fetch !== undefined) frozen.fetch = config.fetch;
    if (config.preset !== undefined) frozen.preset = config.preset;
    return new WasmSandboxInstance(this.#rt, r.id, deepFreeze(frozen));
  }

  /**
   * load(instance, bytes) checks, instruments, compiles and instantiates a
   * module (Uint8Array or ArrayBuffer), or WebAssembly text (a string, or
   * its UTF-8 bytes), converted first by the wat2wasm tool. Rejects with
   * INVALID_MODULE naming what is wrong (a line and column of the text, an
   * import outside "env", WASI, threads, ...).
   */
  async load(instance, bytes) {
    notInHost('load');
    if (typeof bytes === 'string') bytes = new TextEncoder().encode(bytes);
    return this.#rt.load(idOf(instance, 'load'), bytes);
  }

  /**
   * execute(instance, action, payload) calls the export action. Numbers,
   * BigInts (i64) and arrays of them are its arguments; a Uint8Array goes
   * in as bytes and anything else as JSON, through the guest's
   * alloc(len) export. Resolves to {ok: true, value, gasUsed, durationMs,
   * metrics, hostCalls, logs} or {ok: false, error: {code, message, trap?},
   * ...}; it never throws.
   */
  async execute(instance, action, payload) {
    try {
      notInHost('execute');
      return await this.#rt.execute(idOf(instance, 'execute'), action, payload);
    } catch (err) {
      return { ok: false, error: { code: err?.code ?? 'INTERNAL', message: String(err?.message ?? err) }, gasUsed: 0, durationMs: 0 };
    }
  }

  /** destroy(instance) frees the instance; it is idempotent. */
  destroy(instance) {
    notInHost('destroy');
    check(this.#rt.destroy(idOf(instance, 'destroy')));
  }

  /** snapshot(instance) returns the instance's state as WSNP bytes. */
  snapshot(instance) {
    notInHost('snapshot');
    return check(this.#rt.snapshot(idOf(instance, 'snapshot')));
  }

  /**
   * restore(instance, bytes) replaces the state by a snapshot of the same
   * module. Rejects with SNAPSHOT_ERROR, err.check naming the failed check.
   */
  async restore(instance, bytes) {
    notInHost('restore');
    return this.#rt.restore(idOf(instance, 'restore'), bytes);
  }

  /** suspend(instance) saves the state and frees the memory. */
  suspend(instance) {
    notInHost('suspend');
    check(this.#rt.suspend(idOf(instance, 'suspend')));
  }

  /** resume(instance) brings a suspended instance back. */
  async resume(instance) {
    notInHost('resume');
    return this.#rt.resume(idOf(instance, 'resume'));
  }

  /**
   * getMetrics(instance) → {executions, gasUsed, lastGasUsed, hostCalls,
   * failedGrows, memoryBytes, peakMemoryBytes, totalDurationMs}.
   */
  getMetrics(instance) {
    notInHost('getMetrics');
    return check(this.#rt.metrics(idOf(instance, 'getMetrics')));
  }

  /** getHostCallLog(instance) is the host-call log of the last execution. */
  getHostCallLog(instance) {
    notInHost('getHostCallLog');
    return check(this.#rt.hostCallLog(idOf(instance, 'getHostCallLog')));
  }

  /**
   * getMemoryPressure(instances, availableBytes) grades the instances'
   * memory: NORMAL, WARNING (≥ 70 %), PRESSURE (≥ 85 %), CRITICAL (≥ 95 %)
   * or OOM.
   */
  getMemoryPressure(instances, availableBytes) {
    notInHost('getMemoryPressure');
    return check(this.#rt.memoryPressure([...instances].map((i) => idOf(i, 'getMemoryPressure')), availableBytes));
  }

  /**
   * advise(level, instances, foreground) → {level, action, targets}:
   * none, log, suspend (never the foreground) or emergency_save.
   */
  advise(level, instances, foreground) {
    notInHost('advise');
    const fg = foreground === undefined || foreground === null ? undefined : idOf(foreground, 'advise');
    return check(this.#rt.advise(level, [...instances].map((i) => idOf(i, 'advise')), fg));
  }

  /**
   * validateDeterminism(bytes, action, payload, config) runs the action in
   * two fresh instances and resolves to {deterministic, differences, runs,
   * stateHashes}.
   */
  async validateDeterminism(bytes, action, payload, config) {
    notInHost('validateDeterminism');
    if (config === null || typeof config !== 'object') {
      throw new SandboxError('INVALID_CONFIG', 'validateDeterminism: the config must be an object');
    }
    const { forCore } = hostDecls(config.hostFunctions);
    return this.#rt.validateDeterminism(bytes, action, payload, { ...config, hostFunctions: forCore });
  }
}

/**
 * createWasmSandbox({onProgress, tools}) resolves to a WasmSandbox once the core
 * is loaded (the first call loads it, reporting {loaded, total} bytes to
 * onProgress).
 */
export async function createWasmSandbox(options = {}) {
  const onProgress = options?.onProgress;
  if (onProgress !== undefined && onProgress !== null && typeof onProgress !== 'function') {
    throw new SandboxError('INVALID_ARGUMENT', 'createWasmSandbox: options.onProgress must be a function');
  }
  const progress = onProgress ? new Progress(onProgress) : null;
  const api = await core(progress);
  // WebAssembly text given to load is converted by the wat2wasm tool,
  // fetched on the first such load from options.tools (as Sandbox.create
  // takes it) or the package's tools.
  const tools = options?.tools;
  return new WasmSandbox(api.wasmSandbox(() => (tools === undefined ? defaultTools(progress) : loadTools(tools, progress))));
}
