// python3's urllib.request under Node 26: requests go through the core's
// network policy (and Node's fetch underneath). The package carries python3
// only when the C guests are built (make cguests); without it the test is
// skipped. Run through e2e/node_test.go (go test ./e2e -run TestNode).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { Sandbox } = await import(pkg);

async function serve() {
  const seen = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      const url = new URL(req.url, 'http://x');
      if (url.pathname === '/json') {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString(), x: req.headers['x-test'] ?? '' }));
      } else if (url.pathname === '/redirect') {
        res.writeHead(302, { Location: url.searchParams.get('to') });
        res.end();
      } else {
        res.writeHead(404);
        res.end('not found\n');
      }
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, seen, base: `http://127.0.0.1:${server.address().port}` };
}

test('urllib.request in python3 through the rules', async (t) => {
  const { server, base } = await serve();
  const other = await serve();
  const sb = await Sandbox.create({ timeoutMs: 60000, network: { allow: [`${base}/`] } });
  try {
    if ((await sb.run('command -v python3')).exitCode !== 0) {
      t.skip('this package has no python3 (make cguests)');
      return;
    }
    sb.writeFile('/home/user/net.py', `
import json, urllib.request, urllib.error
B, O = ${JSON.stringify(base)}, ${JSON.stringify(other.base)}
req = urllib.request.Request(B + "/json", data=b'{"a": 1}', headers={"X-Test": "hi", "Content-Type": "application/json"})
with urllib.request.urlopen(req) as r:
    print(r.status, r.headers["Content-Type"], json.load(r))
print(json.load(urllib.request.urlopen(B + "/redirect?to=/json"))["method"])
try:
    urllib.request.urlopen(B + "/missing")
except urllib.error.HTTPError as e:
    print("HTTPError", e.code, e.read())
try:
    urllib.request.urlopen(B + "/redirect?to=" + O + "/json")
except urllib.error.URLError as e:
    print("URLError", type(e.reason).__name__, e.reason.strerror)
`);
    const r = await sb.run('python3 net.py');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, [
      "200 application/json {'method': 'POST', 'body': '{\"a\": 1}', 'x': 'hi'}",
      'GET',
      "HTTPError 404 b'not found\\n'",
      `URLError PermissionError wasmsand: network access to ${other.base}/json is not allowed`,
      '',
    ].join('\n'));
    assert.equal(other.seen.length, 0);
  } finally {
    sb.destroy();
    server.close();
    other.server.close();
  }
});
