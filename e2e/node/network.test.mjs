// Network tests of the npm package under Node 26: curl and wget in the
// sandbox reach a local Node http server through Node's fetch(), under the
// sandbox's rules. Run through e2e/node_test.go (go test ./e2e -run TestNode).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { Sandbox, SandboxError } = await import(pkg);

// serve starts a server on 127.0.0.1 and records what it saw.
async function serve() {
  const seen = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      const url = new URL(req.url, 'http://x');
      if (url.pathname === '/echo') {
        res.end(`${req.method} ${req.url}\n${body}\n`);
      } else if (url.pathname === '/big') {
        const n = Number(url.searchParams.get('n'));
        res.setHeader('Content-Length', n);
        const chunk = Buffer.alloc(65536, 'x');
        let left = n;
        const more = () => {
          while (left > 0) {
            const k = Math.min(left, chunk.length);
            left -= k;
            if (!res.write(chunk.subarray(0, k))) return res.once('drain', more);
          }
          res.end();
        };
        more();
      } else if (url.pathname === '/redirect') {
        res.writeHead(302, { Location: url.searchParams.get('to') });
        res.end();
      } else if (url.pathname === '/slow') {
        setTimeout(() => res.end('late\n'), 2000);
      } else if (url.pathname === '/auth') {
        res.end(`auth=${req.headers.authorization ?? ''}\n`);
      } else {
        res.writeHead(404);
        res.end('not found\n');
      }
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, seen, base: `http://127.0.0.1:${server.address().port}` };
}

test('curl and wget through fetch(), under the rules', async () => {
  const { server, seen, base } = await serve();
  const other = await serve();
  const sb = await Sandbox.create({
    network: {
      allow: [`${base}/`],
      headers: { [`${base}/auth`]: { Authorization: 'Bearer s3cr3t' } },
    },
  });
  try {
    let r = await sb.run(`curl -s -d a=1 ${base}/echo`);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, 'POST /echo\na=1\n');

    r = await sb.run(`wget -q -O - ${base}/echo?x=1`);
    assert.equal(r.stdout, 'GET /echo?x=1\n\n');

    r = await sb.run(`curl -sS ${other.base}/echo`);
    assert.equal(r.exitCode, 7);
    assert.equal(r.stderr, `curl: (7) wasmsand: network access to ${other.base}/echo is not allowed\n`);
    assert.equal(other.seen.length, 0);

    r = await sb.run(`curl -sSL '${base}/redirect?to=${other.base}/echo'`);
    assert.equal(r.exitCode, 7, r.stderr);
    assert.equal(other.seen.length, 0);

    r = await sb.run(`curl -s ${base}/auth; env | grep -c s3cr3t; curl -sv -o /dev/null ${base}/auth 2>&1 | grep -c s3cr3t`);
    assert.equal(r.stdout, 'auth=Bearer s3cr3t\n0\n0\n');

    const n = 4 << 20;
    r = await sb.run(`curl -s -o big '${base}/big?n=${n}' && wc -c < big`);
    assert.equal(r.stdout, `${n}\n`, r.stderr);

    sb.allowNetwork([`GET ${other.base}/`]);
    r = await sb.run(`curl -s ${other.base}/echo; curl -sS -d x ${other.base}/echo`);
    assert.equal(r.stdout, 'GET /echo\n\n');
    assert.match(r.stderr, /method POST is not allowed/);
    assert.throws(() => sb.allowNetwork(['ftp://x/']), SandboxError);
  } finally {
    sb.destroy();
    server.close();
    other.server.close();
  }
});

test('timeouts, refused connections and budgets', async () => {
  const { server, base } = await serve();
  const closed = await serve();
  closed.server.close();
  const sb = await Sandbox.create({
    network: { allow: [`${base}/`, `${closed.base}/`, 'http://127.0.0.1:1/'], timeoutMs: 1000, maxRequests: 4 },
  });
  try {
    let r = await sb.run(`curl -sS -m 0.3 ${base}/slow`);
    assert.equal(r.exitCode, 28, r.stderr);
    assert.match(r.stderr, /^curl: \(28\) Operation timed out after 300 milliseconds/);
    r = await sb.run(`curl -sS ${base}/slow`);
    assert.equal(r.exitCode, 28, r.stderr);
    r = await sb.run(`curl -sS ${closed.base}/`);
    assert.equal(r.exitCode, 7, r.stderr);
    assert.match(r.stderr, /^curl: \(7\) Failed to connect to 127.0.0.1 port \d+ after \d+ ms: Couldn't connect to server/);
    // fetch() refuses port 1 itself (a "bad port"): a failed connection.
    r = await sb.run('curl -sS http://127.0.0.1:1/');
    assert.equal(r.exitCode, 7, r.stderr);
    r = await sb.run(`for i in 1 2 3 4 5; do curl -sS -o /dev/null ${base}/echo; echo $?; done`);
    assert.equal(r.stdout, '0\n0\n0\n0\n7\n');
    assert.match(r.stderr, /network budget exhausted: 4 requests allowed per run/);
  } finally {
    sb.destroy();
    server.close();
  }
});

test('no network without rules', async () => {
  const { server, seen, base } = await serve();
  const sb = await Sandbox.create();
  try {
    const r = await sb.run(`curl -sS ${base}/echo`);
    assert.equal(r.exitCode, 7);
    assert.match(r.stderr, /is not allowed/);
    assert.equal(seen.length, 0);
  } finally {
    sb.destroy();
    server.close();
  }
});

test('bad network options are refused', async () => {
  await assert.rejects(Sandbox.create({ network: { allow: ['ftp://x/'] } }), SandboxError);
  await assert.rejects(Sandbox.create({ network: { allow: 'https://x/' } }), SandboxError);
});
