// Host mounts in Node: the loader opens the directory with Node's fs and
// the core resolves every path inside it. Run through e2e/node_test.go, or
// by hand: WASMSAND_PKG=build/npm node --test e2e/node/mount.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { resolve, join } from 'node:path';
import * as fs from 'node:fs';
import * as os from 'node:os';

const pkg = pathToFileURL(resolve(process.env.WASMSAND_PKG ?? 'build/npm') + '/index.mjs');
const { Sandbox, SandboxError } = await import(pkg);

// hostTree makes top/data (to mount) beside top/outside/secret.txt, with
// escape routes planted in data.
function hostTree() {
  const top = fs.mkdtempSync(join(os.tmpdir(), 'wasmsand-mount-'));
  const data = join(top, 'data');
  fs.mkdirSync(join(data, 'docs', 'deep'), { recursive: true });
  fs.mkdirSync(join(top, 'outside'));
  fs.writeFileSync(join(top, 'outside', 'secret.txt'), 'SECRET\n');
  fs.writeFileSync(join(data, 'readme.txt'), 'hello from the host\n');
  fs.writeFileSync(join(data, 'docs', 'deep', 'leaf.txt'), 'leaf\n');
  fs.writeFileSync(join(data, 'big.txt'), 'line\n'.repeat(300000));
  fs.symlinkSync('/etc/hostname', join(data, 'abs'));
  fs.symlinkSync('../outside/secret.txt', join(data, 'climb'));
  fs.symlinkSync(join(top, 'outside'), join(data, 'absdir'));
  return { top, data };
}

test('a read-only mount: read, list, find, wc; every write is EROFS', async (t) => {
  const { top, data } = hostTree();
  t.after(() => fs.rmSync(top, { recursive: true, force: true }));
  const sb = await Sandbox.create({ mounts: [{ path: '/mnt/data', hostPath: data, readOnly: true }] });
  t.after(() => sb.destroy());
  const ok = [
    ['cat /mnt/data/readme.txt', 'hello from the host\n'],
    ['ls /mnt/data', 'abs\nabsdir\nbig.txt\nclimb\ndocs\nreadme.txt\n'],
    ['find /mnt/data/docs | sort', '/mnt/data/docs\n/mnt/data/docs/deep\n/mnt/data/docs/deep/leaf.txt\n'],
    ['wc -l < /mnt/data/big.txt', '300000\n'],
    ['cd /mnt/data/docs/deep && cat leaf.txt && pwd', 'leaf\n/mnt/data/docs/deep\n'],
  ];
  for (const [cmd, want] of ok) {
    const r = await sb.run(cmd);
    assert.equal(r.stdout, want, `${cmd} (stderr ${r.stderr})`);
    assert.equal(r.exitCode, 0, cmd);
  }
  assert.equal(sb.readTextFile('/mnt/data/readme.txt'), 'hello from the host\n');
  for (const cmd of ['echo x > /mnt/data/readme.txt', 'rm /mnt/data/readme.txt', 'mv /mnt/data/readme.txt /mnt/data/r',
    'touch /mnt/data/n', 'mkdir /mnt/data/d', 'chmod 600 /mnt/data/readme.txt', 'tar -cf /tmp/t.tar -C /mnt/data docs && tar -xf /tmp/t.tar -C /mnt/data']) {
    const r = await sb.run(cmd);
    assert.notEqual(r.exitCode, 0, cmd);
    assert.match(r.stderr, /[Rr]ead-only file system/, cmd);
  }
  assert.throws(() => sb.writeFile('/mnt/data/x', 'x'), (e) => e instanceof SandboxError && e.code === 'EROFS');
  assert.equal(fs.readFileSync(join(data, 'readme.txt'), 'utf8'), 'hello from the host\n');
  assert.equal(fs.readdirSync(data).length, 6);
});

test('no way out of a mount', async (t) => {
  const { top, data } = hostTree();
  t.after(() => fs.rmSync(top, { recursive: true, force: true }));
  const sb = await Sandbox.create({ mounts: [{ path: '/mnt/data', hostPath: data }] });
  t.after(() => sb.destroy());
  for (const cmd of [
    'cat /mnt/data/../outside/secret.txt',
    'cat /mnt/data/climb',
    'cat /mnt/data/absdir/secret.txt',
    `cat ${top}/outside/secret.txt`,
    'cd /mnt/data/docs && cat ../../outside/secret.txt',
    'ln -s /etc/passwd /mnt/data/l',
    'ln -s ../outside /mnt/data/l',
    'ln /etc/hostname /mnt/data/l',
    'mkdir -p /mnt/data/docs/x && ln -s ../../absdir /mnt/data/docs/x/l && mv /mnt/data/docs/x/l /mnt/data/l',
    'mv /mnt/data/docs/x /mnt/data/x',
  ]) {
    const r = await sb.run(cmd);
    assert.notEqual(r.exitCode, 0, `${cmd} succeeded: ${r.stdout}`);
    assert.doesNotMatch(r.stdout, /SECRET/, cmd);
  }
  const host = (await sb.run('cat /etc/hostname')).stdout;
  assert.equal((await sb.run('cat /mnt/data/abs')).stdout, host, 'an absolute symlink resolves in the sandbox');
  assert.equal(fs.readFileSync(join(top, 'outside', 'secret.txt'), 'utf8'), 'SECRET\n');
  assert.equal(fs.readdirSync(join(top, 'outside')).length, 1);
  assert.ok(!fs.existsSync(join(data, 'l')));
});

test('a writable mount, sb.mount and the fs limit', async (t) => {
  const { top, data } = hostTree();
  t.after(() => fs.rmSync(top, { recursive: true, force: true }));
  const sb = await Sandbox.create({ fsLimitBytes: 1 << 20 });
  t.after(() => sb.destroy());
  sb.mount('/mnt/w', data);
  const steps = [
    ['echo new > /mnt/w/new.txt && cat /mnt/w/new.txt', 'new\n'],
    ['mkdir -p /mnt/w/x/y && mv /mnt/w/new.txt /mnt/w/x/y/ && ls /mnt/w/x/y', 'new.txt\n'],
    ['ln -s y/new.txt /mnt/w/x/l && cat /mnt/w/x/l', 'new\n'],
    ['chmod 600 /mnt/w/x/y/new.txt && stat -c %a /mnt/w/x/y/new.txt', '600\n'],
    ['echo more >> /mnt/w/x/y/new.txt && rm -r /mnt/w/docs && ls /mnt/w | wc -l', '6\n'],
  ];
  for (const [cmd, want] of steps) {
    const r = await sb.run(cmd);
    assert.equal(r.stdout, want, `${cmd} (stderr ${r.stderr})`);
  }
  assert.equal(fs.readFileSync(join(data, 'x', 'y', 'new.txt'), 'utf8'), 'new\nmore\n');
  assert.equal(fs.statSync(join(data, 'x', 'y', 'new.txt')).mode & 0o777, 0o600);
  const r = await sb.run('head -c 2000000 /dev/zero > /mnt/w/fill');
  assert.notEqual(r.exitCode, 0);
  assert.match(r.stderr, /No space left on device/);
  assert.ok(fs.statSync(join(data, 'fill')).size <= 1 << 20);
  await sb.run('rm /mnt/w/fill');
  sb.unmount('/mnt/w');
  assert.equal((await sb.run('ls -A /mnt/w | wc -l')).stdout, '0\n');
  assert.throws(() => sb.mount('/mnt/z', join(top, 'missing')), (e) => e instanceof SandboxError && e.code === 'ENOENT');
  assert.throws(() => sb.mount('mnt/z', data), (e) => e instanceof SandboxError && e.code === 'INVALID_ARGUMENT');
  await sb.run('echo keep > /home/user/k');
  assert.throws(() => sb.mount('/home/user', data), (e) => e instanceof SandboxError && e.code === 'ENOTEMPTY');
  assert.equal(sb.readTextFile('/home/user/k'), 'keep\n');
});

test('a directory swapped for a symlink out, while guests read through it', async (t) => {
  const { top, data } = hostTree();
  t.after(() => fs.rmSync(top, { recursive: true, force: true }));
  fs.mkdirSync(join(data, 'd'));
  fs.writeFileSync(join(data, 'd', 'secret.txt'), 'inside\n');
  fs.symlinkSync('../outside', join(data, 'evil'));
  const sb = await Sandbox.create({ mounts: [{ path: '/mnt/data', hostPath: data }] });
  t.after(() => sb.destroy());
  let swaps = 0;
  const timer = setInterval(() => {
    for (let i = 0; i < 20; i++) {
      fs.renameSync(join(data, 'd'), join(data, 'd-aside'));
      fs.renameSync(join(data, i % 2 ? 'evil' : 'absdir'), join(data, 'd'));
      fs.renameSync(join(data, 'd'), join(data, i % 2 ? 'evil' : 'absdir'));
      fs.renameSync(join(data, 'd-aside'), join(data, 'd'));
      swaps++;
    }
  }, 0);
  let r;
  try {
    r = await sb.run('for i in $(seq 60); do cat /mnt/data/d/secret.txt; ls /mnt/data/d; chmod 777 /mnt/data/d/secret.txt; done 2>/dev/null; true');
  } finally {
    clearInterval(timer);
  }
  assert.doesNotMatch(r.stdout, /SECRET/, `read outside after ${swaps} swaps`);
  assert.match(r.stdout, /inside/);
  assert.equal(fs.statSync(join(top, 'outside', 'secret.txt')).mode & 0o777, 0o644);
});
