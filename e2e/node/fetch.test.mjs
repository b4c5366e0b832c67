// fetch() in the sandbox's node and in runCode under Node 26: requests
// reach a local Node http server through the core's network policy (and
// Node's own fetch underneath). Run through e2e/node_test.go (go test ./e2e
// -run TestNode).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { Sandbox } = await import(pkg);

// serve starts a server on 127.0.0.1 and records what it saw.
async function serve() {
  const seen = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ method: req.method, url: req.url });
      const url = new URL(req.url, 'http://x');
      if (url.pathname === '/json') {
        res.setHeader('Content-Type', 'application/json');
        res.setHeader('X-Reply', 'yes');
        res.end(JSON.stringify({ method: req.method, query: url.search, body, type: req.headers['content-type'] ?? '', x: req.headers['x-test'] ?? '' }));
      } else if (url.pathname === '/redirect') {
        res.writeHead(Number(url.searchParams.get('code') ?? 302), { Location: url.searchParams.get('to') });
        res.end();
      } else if (url.pathname.startsWith('/status/')) {
        res.writeHead(Number(url.pathname.slice(8)));
        res.end('status\n');
      } else {
        res.end('hello\n');
      }
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, seen, base: `http://127.0.0.1:${server.address().port}` };
}

async function node(sb, script) {
  sb.writeFile('/home/user/f.js', script);
  return sb.run('node f.js');
}

test('fetch() in node: GET, POST JSON, headers, redirects, denials, budget', async () => {
  const { server, base } = await serve();
  const other = await serve();
  const sb = await Sandbox.create({ timeoutMs: 20000, network: { allow: [`${base}/`], maxRequests: 12 } });
  try {
    let r = await node(sb, `(async () => {
      let r = await fetch('${base}/json?q=1', { headers: { 'X-Test': 'hi' } });
      console.log(r.status, r.statusText, r.ok, r.url, r.redirected, r.headers.get('x-reply'), r.headers.has('content-type'));
      console.log(JSON.stringify(await r.json()));
      r = await fetch('${base}/json', { method: 'POST', body: JSON.stringify({ a: 1 }), headers: { 'content-type': 'application/json' } });
      console.log(JSON.stringify(await r.json()));
      r = await fetch('${base}/status/404');
      console.log(r.status, r.ok, (await r.arrayBuffer()).byteLength);
      r = await fetch('${base}/redirect?to=/json');
      console.log(r.status, r.redirected, r.url.endsWith('/json'));
      r = await fetch('${base}/redirect?to=/json', { redirect: 'manual' });
      console.log(r.status, r.headers.get('location'));
      await fetch('${base}/redirect?to=/json', { redirect: 'error' }).catch((e) => console.log(e.name, e.message));
      await fetch('${base}/redirect?to=${other.base}/json').catch((e) => console.log(e.name, e.code, e.message));
      await fetch('${other.base}/json').catch((e) => console.log(e.name, e.message));
    })()`);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, [
      `200 OK true ${base}/json?q=1 false yes true`,
      '{"method":"GET","query":"?q=1","body":"","type":"","x":"hi"}',
      '{"method":"POST","query":"","body":"{\\"a\\":1}","type":"application/json","x":""}',
      '404 false 7',
      '200 true true',
      '302 /json',
      'TypeError fetch failed: unexpected redirect to /json',
      `TypeError ERR_WASMSAND_NETWORK_DENIED fetch failed: wasmsand: network access to ${other.base}/json is not allowed`,
      `TypeError fetch failed: wasmsand: network access to ${other.base}/json is not allowed`,
      '',
    ].join('\n'));
    assert.equal(other.seen.length, 0);

    // The budget: 12 requests per run; the script above made 9.
    r = await node(sb, `(async () => {
      for (let i = 0; i < 13; i++) await fetch('${base}/').catch((e) => { console.log(i, e.code, e.message); process.exit(0); });
    })()`);
    assert.equal(r.stdout, '12 ERR_WASMSAND_NETWORK_BUDGET fetch failed: network budget exhausted: 12 requests allowed per run\n', r.stderr);
  } finally {
    sb.destroy();
    server.close();
    other.server.close();
  }
});

test('fetch() is denied without a network rule', async () => {
  const { server, base, seen } = await serve();
  const sb = await Sandbox.create();
  try {
    const r = await node(sb, `fetch('${base}/json').catch((e) => console.log(e instanceof TypeError, e.code, e.message))`);
    assert.equal(r.stdout, `true ERR_WASMSAND_NETWORK_DENIED fetch failed: wasmsand: network access to ${base}/json is not allowed\n`, r.stderr);
    assert.equal(seen.length, 0);
  } finally {
    sb.destroy();
    server.close();
  }
});

test('runCode uses fetch() and api.fetch()', async () => {
  const { server, base } = await serve();
  const sb = await Sandbox.create({ network: { allow: [`GET ${base}/`] } });
  try {
    const r = await sb.runCode({
      code: `
        const r = await fetch('${base}/json?x=1');
        console.log('status', r.status);
        const t = await (await api.fetch('${base}/')).text();
        const denied = await fetch('${base}/json', { method: 'POST', body: '1' }).catch((e) => e.message);
        return { query: (await r.json()).query, t, denied };`,
    });
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.stdout, 'status 200\n');
    assert.deepEqual(r.result, { query: '?x=1', t: 'hello\n', denied: `fetch failed: wasmsand: network access to ${base}/json is not allowed (method POST is not allowed)` });
  } finally {
    sb.destroy();
    server.close();
  }
});
