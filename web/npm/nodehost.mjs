// nodeHost(dir) is the host side of a mount in Node.js: the Go core's VFS
// resolves sandbox paths itself and hands this object plain names below
// the mounted directory ("." or "a/b/c", never "..", never empty parts).
//
// Confinement does not trust paths: every call walks from a descriptor of
// the mounted directory one component at a time, each opened with
// O_DIRECTORY|O_NOFOLLOW through Linux's /proc/self/fd/N/NAME (the kernel
// resolves the magic link to that exact directory, then NAME in it, as
// openat(2) would). A directory swapped for a symlink after the VFS looked
// at it fails to open instead of being followed, and the final name is
// never followed either (O_NOFOLLOW, lstat, readlink, unlink, rename and
// link do not follow it; chmod and utimes go through an O_PATH descriptor
// of the file itself). Other systems have no such magic links: there,
// nodeHost refuses to mount.
//
// Every method returns {v: value} or {e: 'ERRNO'}; it never throws, since
// the core calls it synchronously from Go.
//
// node:fs is taken from process: an import of it would make Node load
// fs/promises too, several milliseconds of every start.
const fs = process.getBuiltinModule('node:fs');

const C = fs.constants;
const O_PATH = 0o10000000; // Linux: a descriptor that pins an inode without opening it

class HostError extends Error {
  constructor(code) {
    super(code);
    this.code = code;
  }
}

function result(fn) {
  try {
    return { v: fn() };
  } catch (err) {
    return { e: typeof err?.code === 'string' ? err.code : 'EIO' };
  }
}

function parts(rel) {
  if (typeof rel !== 'string') throw new HostError('EINVAL');
  if (rel === '.') return [];
  const p = rel.split('/');
  for (const c of p) {
    if (c === '' || c === '.' || c === '..' || c.includes('\0')) throw new HostError('EINVAL');
  }
  return p;
}

function statObj(st) {
  let type = 'other';
  if (st.isFile()) type = 'file';
  else if (st.isDirectory()) type = 'dir';
  else if (st.isSymbolicLink()) type = 'symlink';
  else if (st.isFIFO()) type = 'fifo';
  else if (st.isCharacterDevice()) type = 'chardev';
  return {
    type,
    mode: Number(st.mode & 0o7777n),
    size: Number(st.size),
    nlink: Number(st.nlink),
    dev: String(st.dev),
    ino: String(st.ino),
    atimeNs: String(st.atimeNs),
    mtimeNs: String(st.mtimeNs),
    ctimeNs: String(st.ctimeNs),
  };
}

/** nodeHost(dir) opens the host directory dir for mounting. */
export function nodeHost(dir) {
  if (process.platform !== 'linux') {
    throw new HostError('ENOTSUP');
  }
  const rootFd = fs.openSync(dir, C.O_RDONLY | C.O_DIRECTORY);
  let closed = false;
  const at = (fd, name) => `/proc/self/fd/${fd}/${name}`;
  const self = (fd) => `/proc/self/fd/${fd}`;

  // inDir(comps, fn) opens the directory comps names (one component at a
  // time, never following a symlink) and calls fn with its descriptor.
  function inDir(comps, fn) {
    if (closed) throw new HostError('EBADF');
    let fd = rootFd;
    try {
      for (const c of comps) {
        const next = fs.openSync(at(fd, c), C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
        if (fd !== rootFd) fs.closeSync(fd);
        fd = next;
      }
      return fn(fd);
    } finally {
      if (fd !== rootFd) fs.closeSync(fd);
    }
  }
  // onName(rel, fn) calls fn with a path naming rel's last component in
  // its (pinned) parent directory.
  function onName(rel, fn) {
    const p = parts(rel);
    if (p.length === 0) throw new HostError('EINVAL');
    return inDir(p.slice(0, -1), (d) => fn(at(d, p[p.length - 1])));
  }
  // pinned(rel, fn) calls fn with a /proc path of an O_PATH descriptor of
  // rel itself, which must not be a symlink.
  function pinned(rel, fn) {
    const p = parts(rel);
    const use = (path) => {
      const fd = fs.openSync(path, O_PATH | C.O_NOFOLLOW);
      try {
        const st = fs.fstatSync(fd);
        if (!st.isFile() && !st.isDirectory()) throw new HostError('ENOTSUP');
        return fn(self(fd));
      } finally {
        fs.closeSync(fd);
      }
    };
    if (p.length === 0) return use(self(rootFd));
    return onName(rel, use);
  }

  return {
    lstat: (rel) => result(() => {
      const p = parts(rel);
      if (p.length === 0) return statObj(fs.fstatSync(rootFd, { bigint: true }));
      return onName(rel, (path) => statObj(fs.lstatSync(path, { bigint: true })));
    }),
    readDir: (rel) => result(() => inDir(parts(rel), (d) => {
      const out = [];
      for (const name of fs.readdirSync(self(d))) {
        try {
          out.push({ name, stat: statObj(fs.lstatSync(at(d, name), { bigint: true })) });
        } catch {
          // removed since it was listed
        }
      }
      return out;
    })),
    readlink: (rel) => result(() => onName(rel, (path) => fs.readlinkSync(path))),
    open: (rel, read, write, create, excl, perm) => result(() => onName(rel, (path) => {
      let flags = C.O_NOFOLLOW | C.O_NONBLOCK;
      flags |= read && write ? C.O_RDWR : write ? C.O_WRONLY : C.O_RDONLY;
      if (create) flags |= C.O_CREAT;
      if (excl) flags |= C.O_EXCL;
      const fd = fs.openSync(path, flags, perm);
      if (!fs.fstatSync(fd).isFile()) {
        fs.closeSync(fd);
        throw new HostError('ENXIO');
      }
      return fd;
    })),
    mkdir: (rel, perm) => result(() => onName(rel, (path) => { fs.mkdirSync(path, { mode: perm }); })),
    remove: (rel) => result(() => onName(rel, (path) => {
      if (fs.lstatSync(path).isDirectory()) fs.rmdirSync(path);
      else fs.unlinkSync(path);
    })),
    rename: (a, b) => result(() => onName(a, (pa) => onName(b, (pb) => { fs.renameSync(pa, pb); }))),
    link: (a, b) => result(() => onName(a, (pa) => onName(b, (pb) => { fs.linkSync(pa, pb); }))),
    symlink: (target, rel) => result(() => onName(rel, (path) => { fs.symlinkSync(target, path); })),
    chmod: (rel, mode) => result(() => pinned(rel, (path) => { fs.chmodSync(path, mode); })),
    // Times in ms since the epoch; null leaves one as it is.
    chtimes: (rel, atimeMs, mtimeMs) => result(() => pinned(rel, (path) => {
      const st = fs.statSync(path);
      fs.utimesSync(path, (atimeMs ?? st.atimeMs) / 1000, (mtimeMs ?? st.mtimeMs) / 1000);
    })),
    fread: (fd, len, pos) => result(() => {
      const buf = new Uint8Array(len);
      const n = fs.readSync(fd, buf, 0, len, pos);
      return buf.subarray(0, n);
    }),
    fwrite: (fd, buf, pos) => result(() => fs.writeSync(fd, buf, 0, buf.length, pos)),
    fstat: (fd) => result(() => statObj(fs.fstatSync(fd, { bigint: true }))),
    ftruncate: (fd, size) => result(() => { fs.ftruncateSync(fd, size); }),
    fclose: (fd) => result(() => { fs.closeSync(fd); }),
    close: () => result(() => {
      if (!closed) {
        closed = true;
        fs.closeSync(rootFd);
      }
    }),
  };
}
