#!/usr/bin/env node
// wasmsand: run a bash command line, or an interactive shell, in a wasmsand
// sandbox under Node. Nothing it runs can see the host's files, network or
// environment.
import { createInterface } from 'node:readline';
import { Sandbox, SandboxError } from '../index.mjs';

const usage = `wasmsand runs bash commands in a WebAssembly sandbox.

Usage:
  wasmsand [flags] -c 'COMMAND'   run one command line; exit with its status
  wasmsand [flags]                interactive shell ('exit' or Ctrl-D leaves);
                                  with piped input, runs it as a script
  wasmsand mcp [flags]            serve one MCP client (an AI agent) over stdin and
                                  stdout, with a sandbox of its own

Flags:
  -c COMMAND            the command line to run
  --timeout MS          time limit per command line in milliseconds (default 30000)
  --fs-limit BYTES      bytes the in-memory filesystem may hold
  --memory-limit BYTES  linear memory per WebAssembly process
  --tools DIR           folder of tool modules (manifest.json and *.wasm)
  --version             print the version
  -h, --help            print this help

Standard input is passed to -c commands when it is not a terminal.
The exit status is the command's: 124 means it ran past --timeout.
`;

function fail(msg, code = 2) {
  process.stderr.write(`wasmsand: ${msg}\nRun 'wasmsand --help' for usage.\n`);
  process.exit(code);
}

function parseArgs(argv) {
  const opts = { timeoutMs: 30000 };
  let command = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`);
      return argv[++i];
    };
    const number = (name) => {
      const v = value();
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0) fail(`${name} wants a non-negative number, got ${JSON.stringify(v)}`);
      return n;
    };
    switch (a) {
      case '-c': command = value(); break;
      case '--timeout': opts.timeoutMs = number(a); break;
      case '--fs-limit': opts.fsLimitBytes = number(a); break;
      case '--memory-limit': opts.memoryLimitBytes = number(a); break;
      case '--tools': opts.tools = value(); break;
      case '-h': case '--help': process.stdout.write(usage); process.exit(0); break;
      case '--version': return { version: true };
      default: fail(`unknown argument ${JSON.stringify(a)}`);
    }
  }
  return { opts, command };
}

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return new Uint8Array(Buffer.concat(chunks));
}

// runLine runs one command line with streamed output; Ctrl-C aborts it.
async function runLine(sb, line, stdin) {
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  process.on('SIGINT', onSigint);
  try {
    const r = await sb.run(line, {
      stdin,
      signal: ac.signal,
      onStdout: (s) => process.stdout.write(s),
      onStderr: (s) => process.stderr.write(s),
    });
    return r.exitCode;
  } catch (err) {
    if (err instanceof SandboxError && err.code === 'ABORTED') {
      process.stderr.write('^C\n');
      return 130;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

async function repl(sb) {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true, historySize: 500 });
  let status = 0;
  const prompt = () => {
    const cwd = sb.getEnv('PWD') || '/';
    rl.setPrompt(`${cwd.replace(/^\/home\/user(?=\/|$)/, '~')}$ `);
    rl.prompt();
  };
  rl.on('SIGINT', () => {
    rl.write(null, { ctrl: true, name: 'u' });
    process.stdout.write('^C\n');
    prompt();
  });
  prompt();
  for await (const line of rl) {
    const exit = /^\s*exit(?:\s+(\d+))?\s*$/.exec(line);
    if (exit) {
      status = exit[1] === undefined ? status : Number(exit[1]) & 255;
      break;
    }
    if (line.trim() !== '') {
      rl.pause();
      status = await runLine(sb, line);
      rl.resume();
    }
    prompt();
  }
  rl.close();
  return status;
}

// mcpMain serves MCP over stdio until the client leaves or a signal comes.
async function mcpMain(argv) {
  const { opts, command, version } = parseArgs(argv);
  if (version || command !== null) fail('mcp takes only the sandbox flags');
  if (typeof WebAssembly.Suspending !== 'function') {
    fail(`this Node (${process.version}) has no JSPI; use Node ≥ 24.20`, 1);
  }
  const { serveMCP } = await import('../mcp.mjs');
  const server = await serveMCP(opts);
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.stop());
  await server.done;
  return 0;
}

async function main() {
  if (process.argv[2] === 'mcp') return mcpMain(process.argv.slice(3));
  const { opts, command, version } = parseArgs(process.argv.slice(2));
  if (version) {
    const info = await Sandbox.info();
    process.stdout.write(`wasmsand ${info.version} (${info.goVersion}, jspi ${info.jspi})\n`);
    return 0;
  }
  const info = await Sandbox.info();
  if (!info.jspi) {
    fail(`this Node (${process.version}) has no JSPI; use Node ≥ 24.20`, 1);
  }
  const sb = await Sandbox.create(opts);
  try {
    if (command !== null) {
      const stdin = process.stdin.isTTY ? undefined : await readStdin();
      return await runLine(sb, command, stdin);
    }
    if (!process.stdin.isTTY) {
      const script = new TextDecoder().decode(await readStdin());
      return await runLine(sb, script);
    }
    return await repl(sb);
  } finally {
    sb.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`wasmsand: ${err.message ?? err}\n`);
    process.exit(err instanceof SandboxError && err.code === 'INVALID_ARGUMENT' ? 2 : 1);
  },
);
