// git over HTTP in the npm package under Node 26: the sandbox's git clones
// from and pushes to the host's `git http-backend` (run as CGI by a Node
// http server on 127.0.0.1) through Node's fetch(), under the sandbox's
// rules; the host's git checks the result. Run through e2e/node_test.go
// (go test ./e2e -run TestNode). Skipped without /usr/bin/git.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { Sandbox } = await import(pkg);

const git = '/usr/bin/git';
const ident = {
  GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@example.com',
  GIT_COMMITTER_NAME: 'Cid', GIT_COMMITTER_EMAIL: 'cid@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

function host(args, cwd) {
  return execFileSync(git, args, { cwd, env: { ...ident, HOME: cwd, PATH: '/usr/bin:/bin' } }).toString();
}

// gitServer serves the bare repositories under root with git http-backend.
async function gitServer(root) {
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const cgi = spawn(git, ['http-backend'], {
      env: {
        GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method, PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1), CONTENT_TYPE: req.headers['content-type'] ?? '',
        CONTENT_LENGTH: req.headers['content-length'] ?? '', REMOTE_ADDR: '127.0.0.1',
        HTTP_GIT_PROTOCOL: req.headers['git-protocol'] ?? '', HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let started = false;
    cgi.stdout.on('data', (chunk) => {
      if (started) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      started = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString().split('\r\n')) {
        const i = line.indexOf(':');
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    cgi.on('close', () => res.end());
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

test('git clone, push and a denied remote through fetch()', { skip: !existsSync(git) }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'wasmsand-git-'));
  host(['init', '-q', 'seed'], root);
  const seed = join(root, 'seed');
  execFileSync('sh', ['-c', 'printf "one\\n" > a.txt'], { cwd: seed });
  host(['add', '.'], seed);
  host(['commit', '-qm', 'init'], seed);
  host(['clone', '-q', '--bare', 'seed', 'x.git'], root);
  host(['config', 'http.receivepack', 'true'], join(root, 'x.git'));
  const { server, base } = await gitServer(root);
  const sb = await Sandbox.create({ network: { allow: [`${base}/`] }, env: ident });
  try {
    let r = await sb.run(`git clone ${base}/x.git c && (cd c && git log --format=%s && git status -sb && cat a.txt)`);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, 'init\n## master...origin/master\none\n');
    assert.equal(r.stderr, "Cloning into 'c'...\n");

    r = await sb.run('(cd c && printf "two\\n" >> a.txt && git commit -qam two && git push && git switch -q -c feat && git push -u origin feat)');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /^To http:\/\/127\.0\.0\.1:\d+\/x\.git\n {3}[0-9a-f]{7}\.\.[0-9a-f]{7} {2}master -> master\n/);
    assert.match(r.stderr, / \* \[new branch\] {6}feat -> feat\n$/);
    assert.equal(r.stdout, "branch 'feat' set up to track 'origin/feat'.\n");
    assert.equal(host(['log', '--format=%s', 'master'], join(root, 'x.git')), 'two\ninit\n');
    assert.equal(host(['branch', '--format=%(refname:short)'], join(root, 'x.git')), 'feat\nmaster\n');

    r = await sb.run('git clone http://127.0.0.1:9/y.git d; echo $?; test -e d; echo $?');
    assert.equal(r.stdout, '128\n1\n');
    assert.match(r.stderr, /^Cloning into 'd'\.\.\.\nfatal: unable to access 'http:\/\/127\.0\.0\.1:9\/y\.git\/': wasmsand: network access to .* is not allowed\n$/);
  } finally {
    sb.destroy();
    server.close();
    rmSync(root, { recursive: true, force: true });
  }
});
