// Type declarations for wasmsand: the same API in Node (index.mjs), in
// browsers as an ES module (browser.mjs) and as globalThis.wasmsand (the
// <script> build, wasmsand.js).

/** Stable error codes of SandboxError. */
export type SandboxErrorCode =
  | 'ENOENT' | 'ENOSPC' | 'EEXIST' | 'ENOTEMPTY' | 'ENOTDIR' | 'EISDIR' | 'EACCES' | 'EINVAL'
  | 'EBUSY' | 'CLOSED' | 'ABORTED' | 'TIMEOUT' | 'INVALID_ARGUMENT' | 'INVALID_MODULE'
  | 'INTERNAL' | 'SNAPSHOT_ERROR' | 'QUOTA_EXCEEDED' | 'NOT_FOUND'
  | (string & {});

/** An error from wasmsand, with a stable code. */
export class SandboxError extends Error {
  constructor(code: SandboxErrorCode, message: string);
  name: 'SandboxError';
  readonly code: SandboxErrorCode;
  /** For ABORTED: what the command printed before it was stopped. */
  readonly result?: RunResult;
}

/** runCode's typed errors. */
export class ValidationError extends SandboxError {
  name: 'ValidationError';
  readonly code: 'VALIDATION_ERROR';
}
export class TimeoutError extends SandboxError {
  name: 'TimeoutError';
  readonly code: 'TIMEOUT';
}
export class RuntimeError extends SandboxError {
  name: 'RuntimeError';
  readonly code: 'RUNTIME_ERROR';
  /** The JavaScript stack of the code's exception. */
  readonly jsStack?: string;
}

/** A host function the code calls as `await api.NAME(args)`; args and result cross as JSON. */
export type Bridge = ((args: any) => unknown | Promise<unknown>)
  | { fn: (args: any) => unknown | Promise<unknown>; description?: string; params?: unknown };

export interface RunCodeRequest {
  /** 'javascript' (default). python and bash are not runCode languages yet. */
  language?: 'javascript' | 'js';
  /** At most 12,000 characters; runs as an async function body whose last expression (or return) is the result. */
  code: string;
  /** Clamped to 250–5,000 ms (default 3,000), with a warning when clamped. */
  timeoutMs?: number;
  /** JSON data: the global `context`, and each identifier key as a global. */
  context?: unknown;
  bridges?: Record<string, Bridge>;
}

export interface RunCodeResult {
  ok: boolean;
  /** Console output, at most 100 lines per stream. */
  stdout: string;
  stderr: string;
  /** The code's value, JSON-safe (cycles marked, depth ≤ 10, BigInt as string, Map/Set/Date/Error converted, long values cut). */
  result: unknown;
  warnings: string[];
  durationMs: number;
  error?: TimeoutError | RuntimeError;
}

export interface BridgeMetadata {
  name: string;
  description: string;
  params?: unknown;
  call: string;
}

/** Lists bridges, sorted by name, for an LLM prompt. */
export function getApiMetadata(bridges: Record<string, Bridge>): BridgeMetadata[];

/** Bytes downloaded so far for one Sandbox.create, of the total known. */
export interface LoadProgress {
  loaded: number;
  total: number;
}

/**
 * A tool file: its bytes, a URL to load it from, or a function giving the
 * bytes when first needed. Sandboxes share the code compiled for a module
 * when they are handed the same Uint8Array or ArrayBuffer object (a
 * function is called once per sandbox, and its result counts): do not
 * change those bytes afterwards, give new bytes in a new array. A function
 * with an `id` (a non-empty string that changes whenever its bytes do) is
 * named by it instead: it is called only when the module is compiled,
 * once for every sandbox whose function has that id, and its bytes are
 * not kept. URLs and tool folders get such functions.
 */
export type ToolFile = Uint8Array | ArrayBuffer | URL | ((() => Promise<Uint8Array | ArrayBuffer>) & { id?: string });

export interface SandboxOptions {
  /** Wall-clock limit per run, in ms; past it the command exits with 124. */
  timeoutMs?: number;
  /** Linear memory per WebAssembly process, in bytes. */
  memoryLimitBytes?: number;
  /** Bytes of file data the in-memory filesystem may hold (ENOSPC beyond). */
  fsLimitBytes?: number;
  /** Processes alive at once, pipeline stages included. */
  maxProcesses?: number;
  /** Instruction budget per run. */
  fuel?: number;
  /** Captured bytes per stream per run. */
  outputLimitBytes?: number;
  /** Initial environment. */
  env?: Record<string, string | number> | string[];
  /** Starting directory (default /home/user). */
  cwd?: string;
  /** Seed of $RANDOM and /dev/urandom. */
  seed?: number;
  /** A fixed sandbox time, in ms since the epoch. */
  clock?: number;
  /**
   * A name: create resumes the sandbox saved under it (if any), and every
   * run saves the sandbox there when it ends (a failed save rejects the
   * run with the save's error, whose result holds what the command did).
   */
  persist?: string;
  /** Where save, load and persist keep snapshots. Default: files in Node (storeDir), IndexedDB in browsers. */
  store?: SnapshotStore;
  /** Node: the folder of the default store (default ./.wasmsand). */
  storeDir?: string;
  /**
   * The tools: a folder (URL or path) holding manifest.json and *.wasm
   * modules, or an object of file name → ToolFile ("manifest.json" may be
   * an object of module file → command names). Default: the package's tools.
   */
  tools?: string | URL | Record<string, ToolFile | Record<string, string[]>>;
  /**
   * Where instrumented tool modules are kept across page loads or processes.
   * Default: the Cache API in browsers, ~/.cache/wasmsand/modules in Node
   * ($WASMSAND_CACHE_DIR); null: nowhere. It belongs to the page's (or
   * process's) engine: the first sandbox's store serves all of them. The
   * default stores keep under 1 GiB ($WASMSAND_CACHE_LIMIT bytes in Node),
   * removing the least recently used modules.
   */
  moduleStore?: ModuleStore | null;
  /** Called as the core and tool modules download (they are megabytes). */
  onProgress?: (progress: LoadProgress) => void;
  /** Host directories to mount (Node.js on Linux only; see Sandbox.mount). */
  mounts?: MountSpec[];
  /** What curl and wget may reach; nothing unless a rule allows it. */
  network?: NetworkOptions;
}

/**
 * A network rule: "[METHODS ]URL-PREFIX", e.g. "https://api.example.com/v1/",
 * "GET,POST http://127.0.0.1:8080/", "*.example.com"; or an object whose
 * headers the host adds to matching requests (code in the sandbox never sees them).
 */
export type NetworkRule = string | { url: string; methods?: string[]; headers?: Record<string, string> };

export interface NetworkOptions {
  allow?: NetworkRule[];
  /** URL prefix → headers added to allowed requests under it. */
  headers?: Record<string, Record<string, string>>;
  /** Requests per run (each redirect hop counts); default 1000. */
  maxRequests?: number;
  /** Response body bytes per run; default 1 GiB. */
  maxResponseBytes?: number;
  /** Request body bytes per run; default 64 MiB. */
  maxRequestBytes?: number;
  /** Per-request timeout in ms; default 30000. */
  timeoutMs?: number;
}

/** A host directory shown inside the sandbox. */
export interface MountSpec {
  /** Absolute directory in the sandbox, e.g. "/mnt/data"; made if missing, must be empty. */
  path: string;
  /** Directory on the host. */
  hostPath: string;
  /** Refuse every change with EROFS. */
  readOnly?: boolean;
}

/**
 * A place for named snapshots. put must be atomic (a failed put keeps the
 * previous bytes) and reject with code QUOTA_EXCEEDED (or a
 * QuotaExceededError) when space runs out.
 */
export interface SnapshotStore {
  put(name: string, bytes: Uint8Array): Promise<void>;
  /** null when there is none. */
  get(name: string): Promise<Uint8Array | null>;
  list(): Promise<SavedSandbox[]>;
  /** Whether there was one. */
  delete(name: string): Promise<boolean>;
}

/** A saved sandbox. modified is in ms since the epoch. */
export interface SavedSandbox {
  name: string;
  size: number;
  modified: number;
}

/** Options of Sandbox.list and Sandbox.delete. */
export interface StoreOptions {
  store?: SnapshotStore;
  storeDir?: string;
}

/** A SandboxError with code SNAPSHOT_ERROR: check names the check that failed. */
export interface SnapshotError extends SandboxError {
  readonly code: 'SNAPSHOT_ERROR';
  readonly check: 'magic' | 'version' | 'truncated' | 'checksum' | 'format' | 'limits';
}

export interface RunOptions {
  stdin?: string | Uint8Array | ArrayBuffer;
  env?: Record<string, string | number> | string[];
  cwd?: string;
  /** Called with standard output as it is written. */
  onStdout?: (chunk: string) => void;
  /** Called with standard error as it is written. */
  onStderr?: (chunk: string) => void;
  /** Aborting rejects the run with a SandboxError of code ABORTED. */
  signal?: AbortSignal;
}

export interface RunMetrics {
  fuelUsed: number;
  peakMemoryBytes: number;
  processes: number;
  timedOut: boolean;
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  executionTimeMs: number;
  metrics: RunMetrics;
}

export type FileType = 'file' | 'directory' | 'symlink' | 'fifo' | 'device';

export interface DirEntry {
  name: string;
  type: FileType;
}

export interface Stat {
  name: string;
  type: FileType;
  size: number;
  /** Permission bits, e.g. 0o644. */
  mode: number;
  mtimeMs: number;
  isFile: boolean;
  isDir: boolean;
}

export interface RuntimeInfo {
  /** "js": guests run on the host's WebAssembly. */
  engine: string;
  /** Whether JSPI (WebAssembly.Suspending/promising) is in use. */
  jspi: boolean;
  /** "jspi", or "sequential" without JSPI: pipeline stages run one after another. */
  mode: 'jspi' | 'sequential';
  version: string;
  goVersion: string;
}

/** A sandbox: a shell, an in-memory filesystem and limits. */
export class Sandbox {
  private constructor();
  /** Makes a sandbox; the first call loads the core. */
  static create(options?: SandboxOptions): Promise<Sandbox>;
  /**
   * Makes a sandbox from snapshot bytes; limits left out of options take
   * the snapshot's. Rejects with a SnapshotError naming the failed check.
   */
  static restore(bytes: Uint8Array | ArrayBuffer, options?: SandboxOptions): Promise<Sandbox>;
  /** Restores the sandbox saved under name; NOT_FOUND if there is none. */
  static load(name: string, options?: SandboxOptions): Promise<Sandbox>;
  /** The saved sandboxes, sorted by name. */
  static list(options?: StoreOptions): Promise<SavedSandbox[]>;
  /** Removes a saved sandbox; NOT_FOUND if there is none. */
  static delete(name: string, options?: StoreOptions): Promise<void>;
  /** Describes the runtime. */
  static info(): Promise<RuntimeInfo>;
  info(): RuntimeInfo;
  /** Runs a bash command line. */
  run(command: string, options?: RunOptions): Promise<RunResult>;
  /** Runs JavaScript in a fresh guest over this sandbox's files; rejects with ValidationError for a bad request. */
  runCode(request: RunCodeRequest): Promise<RunCodeResult>;
  /** The whole state (files, variables, functions, ...) as bytes; EBUSY while a command runs. */
  snapshot(): Uint8Array;
  /** An independent copy sharing unchanged file data; EBUSY while a command runs. */
  fork(): Promise<Sandbox>;
  /** Saves a snapshot under name in the sandbox's store. */
  save(name: string): Promise<void>;
  /** getApiMetadata(bridges), as the module function. */
  getApiMetadata(bridges: Record<string, Bridge>): BridgeMetadata[];
  readFile(path: string): Uint8Array;
  readTextFile(path: string): string;
  writeFile(path: string, data: string | Uint8Array | ArrayBuffer, options?: { mode?: number }): void;
  readDir(path: string): DirEntry[];
  mkdir(path: string): void;
  stat(path: string): Stat;
  rm(path: string, options?: { recursive?: boolean }): void;
  setEnv(name: string, value: string | number): void;
  getEnv(name: string): string;
  /** Adds network rules for the runs that follow (see SandboxOptions.network). */
  allowNetwork(rules: NetworkRule[]): void;
  /**
   * Tab completions of the line's last word: command names for the first
   * word, file names after it. Empty while a command runs.
   */
  complete(line: string): string[];
  /**
   * Shows the host directory hostPath at path (Node.js on Linux only; a
   * browser throws ENOTSUP). Paths inside never lead outside hostPath:
   * "..", absolute symlinks and symlinks climbing out resolve in the
   * sandbox. A read-only mount refuses every change with EROFS; what a
   * writable one grows by counts against fsLimitBytes.
   */
  mount(path: string, hostPath: string, options?: { readOnly?: boolean }): void;
  /** Detaches the mount at path (EBUSY while a file in it is open). */
  unmount(path: string): void;
  /** The agent tools bound to this sandbox; see createTools. */
  toolDefinitions(): ToolDefinition[];
  /**
   * Runs one tool call (args: an object or its JSON text). Resolves to the
   * result object, or to {error: {code, message}} when the call failed.
   */
  handleToolCall(name: string, args?: object | string): Promise<ToolResult>;
  /** Stops running commands and frees the sandbox; idempotent. */
  destroy(): void;
}

/** An agent tool: name, description for a model, JSON Schema of its arguments. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What a tool call resolves to: the tool's result, or an error with a stable code. */
export type ToolResult =
  | SandboxRunToolResult
  | Record<string, unknown>
  | { error: { code: string; message: string } };

/** The result of sandbox_run. */
export interface SandboxRunToolResult {
  exit_code: number;
  stdout: string;
  stderr: string;
  execution_time_ms: number;
  /** The model does not see all the output (cut in the middle, or past the output limit). */
  truncated: boolean;
}

/** The agent tools of one Sandbox in the shapes LLM APIs take (also from "wasmsand/tools"). */
export class SandboxTools {
  constructor(sandbox: Sandbox);
  readonly sandbox: Sandbox;
  readonly definitions: ToolDefinition[];
  /** OpenAI Chat Completions: {type: "function", function: {name, description, parameters}}. */
  openai(): { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } }[];
  /** OpenAI Responses API: {type: "function", name, description, parameters}. */
  openaiResponses(): { type: 'function'; name: string; description: string; parameters: Record<string, unknown> }[];
  /** Anthropic Messages API: {name, description, input_schema}. */
  anthropic(): { name: string; description: string; input_schema: Record<string, unknown> }[];
  /**
   * Vercel AI SDK tools: {name: {description, inputSchema, execute}}.
   * inputSchema is a Standard Schema with JSON Schema, or, given the AI
   * SDK's jsonSchema function, its own schema object.
   */
  aiSdk(options?: { jsonSchema?: (schema: any, options?: any) => any }): Record<string, {
    description: string;
    inputSchema: any;
    execute: (input: any) => Promise<ToolResult>;
  }>;
  handleToolCall(name: string, args?: object | string): Promise<ToolResult>;
}

/** Binds the agent tools (sandbox_run, read_file, write_file, list_dir, run_code, snapshot, restore) to a sandbox; snapshot names its snapshots in the sandbox's store. */
export function createTools(sandbox: Sandbox): SandboxTools;

/** Checks arguments against a tool's input schema; returns the issues (empty when they fit). */
export function validateArgs(schema: Record<string, unknown>, value: unknown): { message: string; path: string[] }[];

/**
 * Sets the folder (URL, or a path under Node) holding wasmsand.wasm,
 * wasm_exec.js and tools/. Call it before the first Sandbox.create.
 */
/** caching: keep the core and instrumented modules in the Cache API across page loads (default true). */
export function configure(options: { baseURL?: string | URL; caching?: boolean }): void;
/** Node only: a store keeping snapshots as NAME.wsbx files in dir (as `wasmsand --state DIR`). */
export function dirStore(dir: string): SnapshotStore;

// ---- createWasmSandbox: one untrusted module at a time

/** Error codes of the WasmSandbox API. */
export type WasmSandboxErrorCode =
  | 'INVALID_MODULE' | 'INVALID_CONFIG' | 'INVALID_ARGUMENT' | 'INVALID_RESULT' | 'INVALID_STATE'
  | 'GAS_EXHAUSTED' | 'TIMEOUT' | 'MEMORY_EXCEEDED' | 'WASM_TRAP' | 'HOST_FUNCTION_ERROR'
  | 'INSTANCE_DESTROYED' | 'SNAPSHOT_ERROR' | 'INTERNAL';

/** Why a guest trapped (error.trap of WASM_TRAP and MEMORY_EXCEEDED). */
export type TrapKind =
  | 'unreachable' | 'integer divide by zero' | 'integer overflow' | 'out of bounds memory access'
  | 'stack overflow' | 'indirect call type mismatch' | 'invalid table access'
  | 'invalid conversion to integer' | 'trap';

/** A WebAssembly number type of a host function's parameter or result. */
export type WasmValueType = 'i32' | 'i64' | 'f32' | 'f64';

/** A value crossing the boundary: i64 as a BigInt, the others as numbers. */
export type WasmValue = number | bigint;

/** What a host function gets after its arguments. */
export interface HostCallInfo {
  name: string;
  /** The guest's memory, if it exports one; read and write it only during the call. */
  memory?: WebAssembly.Memory;
}

/** A host function guests may import from "env". */
export interface HostFunctionDecl {
  params?: WasmValueType[];
  /** At most one result. */
  results?: WasmValueType[];
  /**
   * Gets the arguments, then a HostCallInfo; returns the result (a BigInt
   * for i64) or nothing. What it throws stops the guest with
   * HOST_FUNCTION_ERROR. It must not call the WasmSandbox API.
   */
  fn: (...args: any[]) => WasmValue | void | Promise<WasmValue | void>;
  /** fn returns a Promise (the guest waits for it, through JSPI). */
  async?: boolean;
}

export type PresetName = 'minimal' | 'standard' | 'generous';

export interface WasmSandboxLimits {
  maxGas: number;
  maxMemoryBytes: number;
  maxExecutionMs: number;
}

export interface WasmSandboxConfig {
  /** What __get_time returns, e.g. ms since the epoch of the event processed. Required. */
  eventTimestamp: number;
  /** Default 16 MiB; memory.grow past it fails inside the guest. */
  maxMemoryBytes?: number;
  /** Default 1,000,000: one per instruction, plus hostCallGas per host call. */
  maxGas?: number;
  /** Default 50. */
  maxExecutionMs?: number;
  /** Seeds __get_random (Mulberry32). Default 0. */
  deterministicSeed?: number;
  /** Gas per host call. Default 100. */
  hostCallGas?: number;
  /** Deterministic call-depth limit. Default 1000, at most 10000. */
  maxCallDepth?: number;
  /** The limits of a preset, under the fields given here. */
  preset?: PresetName;
  hostFunctions?: Record<string, HostFunctionDecl> | Array<HostFunctionDecl & { name: string }>;
  /** Path prefixes __read_file may read, through readFile. */
  readPrefixes?: string[];
  readFile?: (path: string) => Uint8Array | ArrayBuffer | string | null | Promise<Uint8Array | ArrayBuffer | string | null>;
  /** Hosts __fetch may reach, through fetch. */
  fetchHosts?: string[];
  fetch?: (url: string) => Uint8Array | ArrayBuffer | string | Promise<Uint8Array | ArrayBuffer | string>;
}

/** An instance's config, frozen, defaults filled in. */
export interface FrozenWasmSandboxConfig extends Readonly<Required<Omit<WasmSandboxConfig,
  'hostFunctions' | 'preset' | 'readFile' | 'fetch'>>> {
  readonly hostFunctions: Readonly<Record<string, Readonly<HostFunctionDecl>>>;
  readonly preset?: PresetName;
  readonly readFile?: WasmSandboxConfig['readFile'];
  readonly fetch?: WasmSandboxConfig['fetch'];
}

export type WasmSandboxStatus = 'created' | 'loaded' | 'running' | 'suspended' | 'destroyed';

export interface WasmSandboxMetrics {
  executions: number;
  gasUsed: number;
  lastGasUsed: number;
  hostCalls: number;
  failedGrows: number;
  memoryBytes: number;
  peakMemoryBytes: number;
  totalDurationMs: number;
}

/** One entry of the host-call log. */
export interface HostCallRecord {
  /** Logical time: the call's index in the execution. */
  seq: number;
  name: string;
  inputs: WasmValue[];
  outputs: WasmValue[];
  gasAtCall: number;
  /** "read:/path", "fetch:host" or "". */
  capability: string;
  granted: boolean;
  /** The __log message, the path or URL. */
  detail: string;
  error?: string;
}

export interface WasmSandboxError {
  code: WasmSandboxErrorCode;
  message: string;
  trap?: TrapKind;
  check?: string;
}

interface ExecuteCommon {
  gasUsed: number;
  durationMs: number;
  metrics: WasmSandboxMetrics;
  hostCalls: HostCallRecord[];
  logs: string[];
}

export type ExecuteResult<T = unknown> =
  | (ExecuteCommon & { ok: true; value: T })
  | (ExecuteCommon & { ok: false; error: WasmSandboxError });

export type PressureLevel = 'NORMAL' | 'WARNING' | 'PRESSURE' | 'CRITICAL' | 'OOM';

export interface Advice {
  level: PressureLevel;
  action: 'none' | 'log' | 'suspend' | 'emergency_save';
  /** Ids of the instances to suspend or save. */
  targets: string[];
}

export interface DeterminismReport {
  deterministic: boolean;
  differences: string[];
  runs: [ExecuteResult, ExecuteResult];
  /** SHA-256 (hex) of each run's snapshot. */
  stateHashes: [string, string];
}

/** One sandboxed module, made by WasmSandbox.create. */
export class WasmSandboxInstance {
  private constructor();
  /** "sandbox-N". */
  readonly id: string;
  readonly config: FrozenWasmSandboxConfig;
  readonly status: WasmSandboxStatus;
  /** null once destroyed. */
  readonly metrics: WasmSandboxMetrics | null;
}

type InstanceRef = WasmSandboxInstance | string;

/**
 * A runtime of module instances. SandboxError codes are those of
 * WasmSandboxErrorCode; a SNAPSHOT_ERROR's check property names the
 * failed check.
 */
export class WasmSandbox {
  private constructor();
  readonly presets: Readonly<Record<PresetName, Readonly<WasmSandboxLimits>>>;
  /** Throws INVALID_CONFIG. */
  create(config: WasmSandboxConfig): WasmSandboxInstance;
  /** Rejects with INVALID_MODULE (naming the import refused), INVALID_STATE, ... */
  load(instance: InstanceRef, bytes: Uint8Array | ArrayBuffer | string): Promise<void>;
  /**
   * Numbers, BigInts or an array of them are the export's arguments; a
   * Uint8Array is passed as bytes, anything else as JSON. Never rejects.
   */
  execute<T = unknown>(instance: InstanceRef, action: string, payload?: unknown): Promise<ExecuteResult<T>>;
  /** Idempotent. */
  destroy(instance: InstanceRef): void;
  snapshot(instance: InstanceRef): Uint8Array;
  restore(instance: InstanceRef, snapshot: Uint8Array | ArrayBuffer): Promise<void>;
  suspend(instance: InstanceRef): void;
  resume(instance: InstanceRef): Promise<void>;
  getMetrics(instance: InstanceRef): WasmSandboxMetrics;
  getHostCallLog(instance: InstanceRef): HostCallRecord[];
  getMemoryPressure(instances: Iterable<InstanceRef>, availableBytes: number): PressureLevel;
  advise(level: PressureLevel, instances: Iterable<InstanceRef>, foreground?: InstanceRef): Advice;
  validateDeterminism(bytes: Uint8Array | ArrayBuffer, action: string, payload: unknown, config: WasmSandboxConfig): Promise<DeterminismReport>;
}

/** Keeps instrumented modules, keyed by the store from raw and variant. */
export interface ModuleStore {
  load(raw: Uint8Array, variant: string): Promise<Uint8Array | null>;
  store(raw: Uint8Array, variant: string, bytes: Uint8Array): Promise<void>;
  /**
   * load for the raw module whose SHA-256 is sha256 (lowercase hex): with
   * it, a tool whose loader carries its digest (a `sha256` property, as the
   * package's loaders do from tools/sha256.json) is found in the store
   * without being read. The files a tool carries (python3's library) are
   * read from the returned array as commands open them, for as long as the
   * core runs: return an array the store never writes to again.
   */
  loadDigest?(sha256: string, variant: string): Promise<Uint8Array | null>;
}

/**
 * Loads the core (once) and makes a WasmSandbox. tools (as Sandbox.create
 * takes them; default the package's) supply wat2wasm for text given to load.
 */
export function createWasmSandbox(options?: {
  onProgress?: (progress: LoadProgress) => void;
  tools?: string | URL | Record<string, ToolFile | Record<string, string[]>>;
}): Promise<WasmSandbox>;

/** The <script> build's global. */
export interface WasmsandGlobal {
  Sandbox: typeof Sandbox;
  SandboxError: typeof SandboxError;
  WasmSandbox: typeof WasmSandbox;
  WasmSandboxInstance: typeof WasmSandboxInstance;
  createWasmSandbox: typeof createWasmSandbox;
  configure: typeof configure;
}

declare global {
  // eslint-disable-next-line no-var
  var wasmsand: WasmsandGlobal | undefined;
}
