// The agent tools of the npm package in Node 26: definitions in the OpenAI,
// Anthropic and AI SDK shapes, and the dispatcher. With WASMSAND_AI_SDK set
// to a folder holding node_modules/ai (e2e's TestNodeAISDK installs it),
// the AI SDK's own tool() and asSchema read the AI SDK shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { resolve, join } from 'node:path';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';

const dir = resolve(process.env.WASMSAND_PKG ?? 'build/npm');
const { Sandbox, createTools } = await import(pathToFileURL(dir + '/index.mjs'));
const toolsModule = await import(pathToFileURL(dir + '/tools.mjs'));

const sb = await Sandbox.create({ timeoutMs: 20000 });
test.after(() => sb.destroy());
const tools = createTools(sb);
const names = ['sandbox_run', 'read_file', 'write_file', 'list_dir', 'run_code', 'snapshot', 'restore'];

test('definitions', () => {
  assert.equal(toolsModule.createTools, createTools);
  assert.deepEqual(tools.definitions.map((d) => d.name), names);
  for (const d of tools.definitions) {
    assert.equal(d.inputSchema.type, 'object');
    assert.ok(d.description.length > 50, d.name);
  }
  assert.match(tools.definitions[0].description, /Commands: .*\bgrep\b/);
});

// The documented fields of each API's tool objects.
test('OpenAI and Anthropic shapes', () => {
  const nameRe = /^[a-zA-Z0-9_-]{1,64}$/;
  for (const t of tools.openai()) {
    assert.deepEqual(Object.keys(t).sort(), ['function', 'type']);
    assert.equal(t.type, 'function');
    assert.deepEqual(Object.keys(t.function).sort(), ['description', 'name', 'parameters']);
    assert.match(t.function.name, nameRe);
    assert.equal(t.function.parameters.type, 'object');
  }
  for (const t of tools.openaiResponses()) {
    assert.deepEqual(Object.keys(t).sort(), ['description', 'name', 'parameters', 'type']);
  }
  for (const t of tools.anthropic()) {
    assert.deepEqual(Object.keys(t).sort(), ['description', 'input_schema', 'name']);
    assert.match(t.name, nameRe);
    assert.equal(t.input_schema.type, 'object');
  }
  // The shapes are copies: a caller changing one does not change the others.
  tools.openai()[0].function.parameters.type = 'changed';
  assert.equal(tools.anthropic()[0].input_schema.type, 'object');
});

test('dispatcher', async () => {
  let r = await tools.handleToolCall('sandbox_run', { command: 'seq 100 | grep 7 | wc -l' });
  assert.equal(r.exit_code, 0);
  assert.equal(r.stdout.trim(), '19');
  assert.equal(r.truncated, false);
  assert.equal(typeof r.execution_time_ms, 'number');
  r = await tools.handleToolCall('write_file', '{"path":"d/a.txt","content":"hi\\n"}');
  assert.equal(r.bytes_written, 3);
  r = await tools.handleToolCall('read_file', { path: '/home/user/d/a.txt' });
  assert.equal(r.content, 'hi\n');
  r = await tools.handleToolCall('list_dir', { path: 'd' });
  assert.deepEqual(r.entries, [{ name: 'a.txt', type: 'file', size: 3 }]);
  r = await tools.handleToolCall('sandbox_run', { command: 'seq 100000' });
  assert.equal(r.truncated, true);
  assert.match(r.stdout, /^1\n2\n[^]*cut from the middle[^]*\n100000\n$/);
  r = await tools.handleToolCall('sandbox_run', { command: 'while :; do :; done', timeout_ms: 300 });
  assert.equal(r.exit_code, 124);
  // A loaded test machine can take seconds to start the JavaScript engine.
  r = await tools.handleToolCall('run_code', { code: '[1, 2].map((x) => x * 3)', timeout_ms: 30000 });
  assert.deepEqual(r.result, [3, 6], JSON.stringify(r));
});

test('dispatcher errors', async () => {
  for (const [name, args, code] of [
    ['sandbox_run', {}, 'INVALID_ARGUMENT'],
    ['sandbox_run', { command: 1 }, 'INVALID_ARGUMENT'],
    ['sandbox_run', '{not json', 'INVALID_ARGUMENT'],
    ['read_file', { path: '/etc/shadow' }, 'ENOENT'],
    ['read_file', { path: '/tmp' }, 'EISDIR'],
    ['format_disk', {}, 'UNKNOWN_TOOL'],
  ]) {
    const r = await tools.handleToolCall(name, args);
    assert.equal(r.error?.code, code, `${name} ${JSON.stringify(args)}: ${JSON.stringify(r)}`);
  }
});

test('validateArgs', () => {
  const schema = tools.definitions.find((d) => d.name === 'write_file').inputSchema;
  assert.deepEqual(toolsModule.validateArgs(schema, { path: 'a', content: 'b' }), []);
  assert.equal(toolsModule.validateArgs(schema, { path: 'a' }).length, 1);
  assert.equal(toolsModule.validateArgs(schema, { path: 'a', content: 'b', encoding: 'latin1' }).length, 1);
  assert.equal(toolsModule.validateArgs(schema, { path: 'a', content: 'b', x: 1 }).length, 1);
  assert.equal(toolsModule.validateArgs(schema, 'a').length, 1);
});

test('Vercel AI SDK tool()', { skip: !process.env.WASMSAND_AI_SDK && 'WASMSAND_AI_SDK is not set' }, async () => {
  const ai = await import(pathToFileURL(join(resolve(process.env.WASMSAND_AI_SDK), 'node_modules', 'ai', 'dist', 'index.js')));
  for (const shape of [tools.aiSdk(), tools.aiSdk({ jsonSchema: ai.jsonSchema })]) {
    assert.deepEqual(Object.keys(shape), names);
    for (const [name, def] of Object.entries(shape)) {
      const t = ai.tool(def);
      const schema = ai.asSchema(t.inputSchema);
      const js = await schema.jsonSchema;
      const want = tools.definitions.find((d) => d.name === name).inputSchema;
      assert.deepEqual(js.properties, want.properties, name);
      assert.deepEqual(js.required, want.required, name);
      assert.equal(js.additionalProperties, false);
    }
    const run = ai.tool(shape.sandbox_run);
    const schema = ai.asSchema(run.inputSchema);
    const ok = await schema.validate({ command: 'echo hi' });
    assert.equal(ok.success, true);
    const bad = await schema.validate({ command: 5 });
    assert.equal(bad.success, false);
    const r = await run.execute({ command: 'echo from-ai-sdk | tr a-z A-Z' }, { toolCallId: 'c1', messages: [] });
    assert.equal(r.stdout, 'FROM-AI-SDK\n');
  }
});

// snapshot keeps named snapshots in the sandbox's store; restore swaps the
// sandbox under the tools, and the Sandbox object follows it.
test('snapshot and restore tools', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'wasmsand-tools-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const s = await Sandbox.create({ timeoutMs: 20000, storeDir: dir });
  t.after(() => s.destroy());
  const tt = createTools(s);
  await tt.handleToolCall('sandbox_run', { command: 'echo one > f; V=1; fn() { echo fn1; }' });
  let r = await tt.handleToolCall('snapshot', { name: 'cp' });
  assert.equal(r.name, 'cp', JSON.stringify(r));
  assert.ok(r.size > 0);
  assert.deepEqual(await readdir(dir), ['cp.wsbx']);
  await tt.handleToolCall('sandbox_run', { command: 'echo two > f; V=2; fn() { echo fn2; }' });
  r = await tt.handleToolCall('restore', { name: 'cp' });
  assert.equal(r.restored, 'cp', JSON.stringify(r));
  r = await tt.handleToolCall('sandbox_run', { command: 'cat f; echo $V; fn' });
  assert.equal(r.stdout, 'one\n1\nfn1\n');
  const direct = await s.run('cat f; echo $V');
  assert.equal(direct.stdout, 'one\n1\n');
  r = await tt.handleToolCall('restore', { name: 'nope' });
  assert.equal(r.error.code, 'ENOENT');
  r = await tt.handleToolCall('restore', { snapshot: 'aGVsbG8=' });
  assert.equal(r.error.code, 'INVALID_ARGUMENT');
});
