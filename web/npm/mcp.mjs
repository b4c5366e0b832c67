// The MCP server of the npm package, for Node: "npx wasmsand mcp" serves
// one MCP client over standard input and output with a sandbox of its own.
// The server is the Go core's (package agent/mcpserver on the official MCP
// SDK), in its own WebAssembly module, wasmsand-mcp.wasm.
import { loadMCPCore } from './index.mjs';
import { runGo, SandboxError } from './sandbox.mjs';

/**
 * serveMCP(options, {input, output}) serves MCP over input and output
 * (default: process.stdin and process.stdout) until the input ends or
 * stop() is called; options are Sandbox.create's (tools: a folder). It
 * returns {done: Promise<void>, stop()}; done rejects if the server failed.
 */
export async function serveMCP(options = {}, { input = process.stdin, output = process.stdout } = {}) {
  const { tools, ...opts } = options;
  const core = await loadMCPCore(tools);
  opts.tools = core.tools;
  let feed = null;
  let ended = false;
  const stop = () => {
    ended = true;
    feed?.end();
  };
  const done = new Promise((resolve, reject) => {
    const host = {
      SandboxError,
      mcp: {
        options: opts,
        write(bytes) {
          output.write(bytes);
        },
        ready(f) {
          feed = f;
          if (ended) { f.end(); return; }
          input.on('data', (c) => f.push(new Uint8Array(c.buffer, c.byteOffset, c.length)));
          input.on('end', () => f.end());
        },
        done(err) {
          if (err) reject(new SandboxError('INTERNAL', `wasmsand mcp: ${err}`));
          else resolve();
        },
      },
    };
    runGo(core.wasmExecSource, core.module, host).then(
      (code) => reject(new SandboxError('INTERNAL', `the MCP core exited with status ${code}`)),
      reject,
    );
  });
  return { done, stop };
}
