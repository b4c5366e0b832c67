// Type declarations for wasmsand: the same API in Node (index.mjs), in
// browsers as an ES module (browser.mjs) and as globalThis.wasmsand (the
// <script> build, wasmsand.js).

/** Stable error codes of SandboxError. */
export type SandboxErrorCode =
  | 'ENOENT' | 'ENOSPC' | 'EEXIST' | 'ENOTEMPTY' | 'ENOTDIR' | 'EISDIR' | 'EACCES' | 'EINVAL'
  | 'EBUSY' | 'CLOSED' | 'ABORTED' | 'TIMEOUT' | 'INVALID_ARGUMENT' | 'INVALID_MODULE'
  | 'NO_JSPI' | 'INTERNAL'
  | (string & {});

/** An error from wasmsand, with a stable code. */
export class SandboxError extends Error {
  constructor(code: SandboxErrorCode, message: string);
  name: 'SandboxError';
  readonly code: SandboxErrorCode;
  /** For ABORTED: what the command printed before it was stopped. */
  readonly result?: RunResult;
}

/** Bytes downloaded so far for one Sandbox.create, of the total known. */
export interface LoadProgress {
  loaded: number;
  total: number;
}

/** A tool file: its bytes, a URL to load it from, or a function giving the bytes when first needed. */
export type ToolFile = Uint8Array | ArrayBuffer | URL | (() => Promise<Uint8Array | ArrayBuffer>);

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
   * The tools: a folder (URL or path) holding manifest.json and *.wasm
   * modules, or an object of file name → ToolFile ("manifest.json" may be
   * an object of module file → command names). Default: the package's tools.
   */
  tools?: string | URL | Record<string, ToolFile | Record<string, string[]>>;
  /** Called as the core and tool modules download (they are megabytes). */
  onProgress?: (progress: LoadProgress) => void;
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
  version: string;
  goVersion: string;
}

/** A sandbox: a shell, an in-memory filesystem and limits. */
export class Sandbox {
  private constructor();
  /** Makes a sandbox; the first call loads the core. */
  static create(options?: SandboxOptions): Promise<Sandbox>;
  /** Describes the runtime. */
  static info(): Promise<RuntimeInfo>;
  info(): RuntimeInfo;
  /** Runs a bash command line. */
  run(command: string, options?: RunOptions): Promise<RunResult>;
  readFile(path: string): Uint8Array;
  readTextFile(path: string): string;
  writeFile(path: string, data: string | Uint8Array | ArrayBuffer, options?: { mode?: number }): void;
  readDir(path: string): DirEntry[];
  mkdir(path: string): void;
  stat(path: string): Stat;
  rm(path: string, options?: { recursive?: boolean }): void;
  setEnv(name: string, value: string | number): void;
  getEnv(name: string): string;
  /** Stops running commands and frees the sandbox; idempotent. */
  destroy(): void;
}

/**
 * Sets the folder (URL, or a path under Node) holding wasmsand.wasm,
 * wasm_exec.js and tools/. Call it before the first Sandbox.create.
 */
export function configure(options: { baseURL?: string | URL }): void;

/** The <script> build's global. */
export interface WasmsandGlobal {
  Sandbox: typeof Sandbox;
  SandboxError: typeof SandboxError;
  configure: typeof configure;
}

declare global {
  // eslint-disable-next-line no-var
  var wasmsand: WasmsandGlobal | undefined;
}
