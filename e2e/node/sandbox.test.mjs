// Tests of the wasmsand npm package under Node with JSPI. Run through
// e2e/node_test.go (go test ./e2e), or by hand after building the package:
//
//	go run ./web/mkpackage -o build/npm
//	WASMSAND_PKG=build/npm node --test e2e/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { Sandbox, SandboxError } = await import(pkg);

// loopWasm is `(module (func (export "_start") (loop (br 0))))`.
const loopWasm = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x04, 0x01, 0x60, 0x00, 0x00,
  0x03, 0x02, 0x01, 0x00,
  0x07, 0x0a, 0x01, 0x06, 0x5f, 0x73, 0x74, 0x61, 0x72, 0x74, 0x00, 0x00,
  0x0a, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b,
]);

async function withSandbox(options, fn) {
  const sb = await Sandbox.create(options);
  try {
    return await fn(sb);
  } finally {
    sb.destroy();
  }
}

test('info reports the js engine with JSPI', async () => {
  const info = await Sandbox.info();
  assert.equal(info.engine, 'js');
  assert.equal(info.jspi, true);
  assert.equal(typeof info.version, 'string');
});

test('commands', async (t) => {
  const sb = await Sandbox.create();
  t.after(() => sb.destroy());
  const cases = [
    { cmd: 'echo hi', stdout: 'hi\n' },
    { cmd: 'seq 3', stdout: '1\n2\n3\n' },
    { cmd: 'seq 100 | grep 7 | wc -l', stdout: '19\n' },
    { cmd: "printf 'b\\na\\nc\\n' | sort", stdout: 'a\nb\nc\n' },
    { cmd: 'yes | head -1', stdout: 'y\n' },
    { cmd: 'false', stdout: '', exitCode: 1 },
    { cmd: 'exit 7', stdout: '', exitCode: 7 },
    { cmd: 'nosuchcommand', stdout: '', exitCode: 127 },
    { cmd: 'sleep 0.2 && echo late & echo early; wait', stdout: 'early\nlate\n' },
    { cmd: 'cat', stdout: 'from stdin', stdin: 'from stdin' },
    { cmd: 'echo $X $Y', stdout: 'x 2\n', env: { X: 'x', Y: 2 } },
    { cmd: 'pwd', stdout: '/tmp\n', cwd: '/tmp' },
  ];
  for (const c of cases) {
    const r = await sb.run(c.cmd, { stdin: c.stdin, env: c.env, cwd: c.cwd });
    assert.equal(r.stdout, c.stdout, `${c.cmd}: stdout (stderr ${r.stderr})`);
    assert.equal(r.exitCode, c.exitCode ?? 0, `${c.cmd}: exit code (stderr ${r.stderr})`);
  }
  const r = await sb.run('seq 2 | wc -l');
  assert.equal(typeof r.executionTimeMs, 'number');
  assert.equal(r.metrics.processes, 2);
  assert.ok(r.metrics.fuelUsed > 0, 'fuelUsed');
  assert.ok(r.metrics.peakMemoryBytes > 0, 'peakMemoryBytes');
  assert.equal(r.metrics.timedOut, false);
  assert.equal((await sb.run('pwd')).stdout, '/home/user\n', 'cwd restored after a run');
});

test('yes | head -1 ends at once', async () => {
  await withSandbox({ timeoutMs: 5000 }, async (sb) => {
    const start = performance.now();
    const r = await sb.run('yes | head -1');
    assert.equal(r.stdout, 'y\n');
    assert.ok(performance.now() - start < 2000, `took ${performance.now() - start} ms`);
  });
});

test('streaming output', async () => {
  await withSandbox({}, async (sb) => {
    let out = '';
    let err = '';
    const r = await sb.run('seq 3; echo oops >&2; printf "h\\303\\251"', {
      onStdout: (s) => { out += s; },
      onStderr: (s) => { err += s; },
    });
    assert.equal(out, '1\n2\n3\nhé');
    assert.equal(r.stdout, out);
    assert.equal(err, 'oops\n');
  });
});

test('a tight loop times out with exit 124 and the event loop stays responsive', async () => {
  await withSandbox({ timeoutMs: 1000 }, async (sb) => {
    sb.writeFile('/home/user/loop.wasm', loopWasm, { mode: 0o755 });
    let ticks = 0;
    const timer = setInterval(() => { ticks++; }, 20);
    const start = performance.now();
    const r = await sb.run('./loop.wasm');
    const took = performance.now() - start;
    clearInterval(timer);
    assert.equal(r.exitCode, 124, r.stderr);
    assert.match(r.stderr, /command timed out/);
    assert.equal(r.metrics.timedOut, true);
    // Bounds that hold on a loaded machine: the loop ended (by its
    // timeout, not by running on), and timers ran while it spun.
    assert.ok(took < 20000, `took ${took} ms`);
    assert.ok(ticks >= 3, `only ${ticks} timer ticks ran during the loop`);
    assert.equal((await sb.run('echo still here')).stdout, 'still here\n');
  });
});

test('fuel limit', async () => {
  await withSandbox({ fuel: 20_000_000 }, async (sb) => {
    sb.writeFile('/home/user/loop.wasm', loopWasm, { mode: 0o755 });
    const r = await sb.run('./loop.wasm');
    assert.notEqual(r.exitCode, 0);
    assert.match(r.stderr, /fuel exhausted/);
  });
});

test('a tool out of memory says so in one line, as natively', async () => {
  await withSandbox({ memoryLimitBytes: 32 << 20, timeoutMs: 60_000 }, async (sb) => {
    // A Go tool: the sandbox words the runtime's crash as GNU would.
    const jq = await sb.run(`jq -n '[range(1e9)]'`);
    assert.equal(jq.stderr, 'jq: memory exhausted\n');
    assert.equal(jq.exitCode, 2);
    // awk: GNU awk's own fatal error where the C guests are in the
    // package, else GoAWK's crash worded as for jq.
    const gnu = (await sb.run('awk --version')).stdout.startsWith('GNU Awk');
    const awk = await sb.run(`awk 'BEGIN { s = "x"; while (1) s = s s }'`);
    assert.match(awk.stderr, gnu ? /^awk: cmd\. line:1: fatal: .*cannot allocate \d+ bytes of memory: [^\n]+\n$/ : /^awk: memory exhausted\n$/);
    assert.equal(awk.exitCode, 2);
    assert.equal((await sb.run('echo fine | cat')).stdout, 'fine\n');
  });
});

test('a full filesystem gives ENOSPC', async () => {
  await withSandbox({ fsLimitBytes: 64 * 1024 }, async (sb) => {
    assert.throws(() => sb.writeFile('/tmp/big', new Uint8Array(128 * 1024)),
      (e) => e instanceof SandboxError && e.code === 'ENOSPC');
    const r = await sb.run('yes > /tmp/big');
    assert.notEqual(r.exitCode, 0);
    assert.match(r.stderr, /no space left on device/i);
  });
});

test('sandboxes are isolated', async () => {
  const [a, b] = await Promise.all([Sandbox.create(), Sandbox.create()]);
  try {
    a.writeFile('/tmp/secret', 'a only');
    await a.run('export MARK=a; echo from-a > /home/user/f');
    assert.throws(() => b.readFile('/tmp/secret'), (e) => e.code === 'ENOENT');
    const r = await b.run('cat /home/user/f; echo "[$MARK]"');
    assert.equal(r.stdout, '[]\n');
    assert.notEqual(r.stderr, '');
    const [ra, rb] = await Promise.all([a.run('seq 5 | wc -l'), b.run('seq 7 | wc -l')]);
    assert.equal(ra.stdout, '5\n');
    assert.equal(rb.stdout, '7\n');
  } finally {
    a.destroy();
    b.destroy();
  }
});

test('AbortSignal stops a command', async () => {
  await withSandbox({ timeoutMs: 10000 }, async (sb) => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const start = performance.now();
    await assert.rejects(sb.run('sleep 5', { signal: ac.signal }),
      (e) => e instanceof SandboxError && e.code === 'ABORTED' && typeof e.result?.exitCode === 'number');
    assert.ok(performance.now() - start < 2000);
    await assert.rejects(sb.run('echo no', { signal: AbortSignal.abort() }), (e) => e.code === 'ABORTED');
    assert.equal((await sb.run('echo yes')).stdout, 'yes\n');
  });
});

test('file API round trip', async () => {
  await withSandbox({}, async (sb) => {
    sb.mkdir('/work/sub');
    sb.writeFile('/work/sub/a.txt', 'hello\n');
    sb.writeFile('/work/sub/b.bin', new Uint8Array([0, 1, 2, 255]));
    assert.equal(sb.readTextFile('/work/sub/a.txt'), 'hello\n');
    assert.deepEqual(sb.readFile('/work/sub/b.bin'), new Uint8Array([0, 1, 2, 255]));
    assert.deepEqual(sb.readDir('/work/sub').map((e) => `${e.name}:${e.type}`), ['a.txt:file', 'b.bin:file']);
    const st = sb.stat('/work/sub/b.bin');
    assert.equal(st.size, 4);
    assert.equal(st.isFile, true);
    assert.equal(sb.stat('/work').isDir, true);
    const r = await sb.run('cat /work/sub/a.txt | wc -c; echo made > /work/out');
    assert.equal(r.stdout, '6\n');
    assert.equal(sb.readTextFile('/work/out'), 'made\n');
    sb.rm('/work/sub/a.txt');
    assert.throws(() => sb.stat('/work/sub/a.txt'), (e) => e.code === 'ENOENT');
    assert.throws(() => sb.rm('/work'), (e) => e.code === 'ENOTEMPTY');
    sb.rm('/work', { recursive: true });
    assert.throws(() => sb.readDir('/work'), (e) => e.code === 'ENOENT');
    sb.setEnv('GREETING', 'hi there');
    assert.equal(sb.getEnv('GREETING'), 'hi there');
    assert.equal((await sb.run('echo "$GREETING"')).stdout, 'hi there\n');
    assert.throws(() => sb.readFile(42), (e) => e.code === 'INVALID_ARGUMENT');
    // Tab completion: commands first, then files.
    assert.ok(sb.complete('ech').includes('echo'));
    sb.writeFile('/home/user/notes.txt', 'x');
    assert.deepEqual(sb.complete('cat no'), ['notes.txt']);
  });
});

test('the host is never visible', async () => {
  await withSandbox({}, async (sb) => {
    // The Go runtime got private stubs: nothing leaks onto the real global.
    for (const name of ['Go', 'fs', 'path', 'wasmsandHost']) {
      assert.equal(globalThis[name], undefined, `globalThis.${name}`);
    }
    assert.equal(typeof globalThis.process.cwd(), 'string', 'the real process is untouched');
    const passwd = sb.readTextFile('/etc/passwd');
    let r = await sb.run('cat /etc/passwd');
    assert.equal(r.stdout, passwd);
    assert.doesNotMatch(r.stdout, /daemon|nobody|_apt/);
    r = await sb.run('ls /');
    assert.deepEqual(r.stdout.trim().split(/\s+/).sort(), sb.readDir('/').map((e) => e.name).sort());
    assert.deepEqual(r.stdout.trim().split(/\s+/).sort(), ['bin', 'dev', 'etc', 'home', 'mnt', 'tmp', 'usr']);
    r = await sb.run('echo /*');
    assert.equal(r.stdout, '/bin /dev /etc /home /mnt /tmp /usr\n');
    r = await sb.run('cd /root');
    assert.notEqual(r.exitCode, 0);
    r = await sb.run('echo $HOME; cd; pwd; source ~/.bashrc');
    assert.equal(r.stdout, '/home/user\n/home/user\n');
    assert.notEqual(r.exitCode, 0, 'no ~/.bashrc in the VFS');
    r = await sb.run(`cat ${process.cwd()}/package.json /proc/self/environ`);
    assert.equal(r.stdout, '');
    r = await sb.run('env');
    assert.doesNotMatch(r.stdout, new RegExp(`${process.env.USER ?? 'root'}=|NODE|GOROOT`));
  });
});

test('destroy is idempotent and later calls fail with CLOSED', async () => {
  const sb = await Sandbox.create();
  const running = sb.run('sleep 5');
  sb.destroy();
  sb.destroy();
  const r = await running.catch((e) => e);
  assert.ok(r.exitCode !== 0 || r.code === 'CLOSED', 'a running command stops');
  await assert.rejects(sb.run('echo hi'), (e) => e.code === 'CLOSED');
  assert.throws(() => sb.readFile('/etc/passwd'), (e) => e.code === 'CLOSED');
});

test('bad options and modules give clear errors', async () => {
  await assert.rejects(Sandbox.create({ timeoutMs: 'soon' }), (e) => e.code === 'INVALID_ARGUMENT' && /timeoutMs/.test(e.message));
  await withSandbox({}, async (sb) => {
    sb.writeFile('/home/user/bad.wasm', loopWasm.slice(0, 20), { mode: 0o755 });
    const r = await sb.run('./bad.wasm');
    assert.equal(r.exitCode, 126);
    assert.match(r.stderr, /bad\.wasm/);
  });
});
