// wasmsand for browsers (ES module): the Sandbox API, with the core and the
// tool modules fetched from the folder this file is served from. Tool
// modules are fetched the first time one of their commands runs.
//
//	import { Sandbox } from './wasmsand/browser.mjs';
//	const sb = await Sandbox.create({ onProgress: ({ loaded, total }) => ... });
//	const r = await sb.run('seq 3 | wc -l');
import { Sandbox, SandboxError, ValidationError, TimeoutError, RuntimeError, getApiMetadata, definePlatform } from './sandbox.mjs';
import { browserPlatform } from './platform-browser.mjs';
import { WasmSandbox, WasmSandboxInstance, createWasmSandbox } from './modsandbox.mjs';

export { Sandbox, SandboxError, ValidationError, TimeoutError, RuntimeError, getApiMetadata, WasmSandbox, WasmSandboxInstance, createWasmSandbox };
export { createTools, SandboxTools, validateArgs } from './tools.mjs';

const platform = browserPlatform(new URL('./', import.meta.url));
definePlatform(platform);

/**
 * configure({baseURL}) sets the URL of the folder holding wasmsand.wasm,
 * wasm_exec.js and tools/, when a bundler moved this file away from them.
 * Call it before the first Sandbox.create.
 */
export function configure(options) {
  platform.configure(options);
}
