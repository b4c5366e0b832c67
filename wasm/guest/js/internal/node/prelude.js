// The parts of the Node-like runtime written in JavaScript: Buffer,
// TextEncoder/TextDecoder, events, util, assert, readline, process.stdin,
// timers/promises, string_decoder, URL. __wasmsand holds the Go helpers.
'use strict';
(function (host) {
  const modules = {};
  host.modules = modules;

  // events
  class EventEmitter {
    constructor() { this._events = Object.create(null); this._maxListeners = 10; }
    _list(name) {
      if (!this._events) Object.defineProperty(this, '_events', { value: Object.create(null), writable: true, configurable: true });
      return this._events[name] || (this._events[name] = []);
    }
    on(name, fn) {
      if (typeof fn !== 'function') throw new TypeError('The "listener" argument must be of type function');
      if (name !== 'newListener' && this._events && this._events.newListener) this.emit('newListener', name, fn);
      this._list(name).push(fn); return this;
    }
    addListener(name, fn) { return this.on(name, fn); }
    prependListener(name, fn) { this._list(name).unshift(fn); return this; }
    once(name, fn) {
      const self = this;
      function wrapper(...args) { self.removeListener(name, wrapper); return fn.apply(this, args); }
      wrapper.listener = fn;
      return this.on(name, wrapper);
    }
    prependOnceListener(name, fn) {
      const self = this;
      function wrapper(...args) { self.removeListener(name, wrapper); return fn.apply(this, args); }
      wrapper.listener = fn;
      return this.prependListener(name, wrapper);
    }
    off(name, fn) { return this.removeListener(name, fn); }
    removeListener(name, fn) {
      const l = this._events && this._events[name];
      if (!l) return this;
      const i = l.findIndex((f) => f === fn || f.listener === fn);
      if (i !== -1) l.splice(i, 1);
      if (l.length === 0) delete this._events[name];
      return this;
    }
    removeAllListeners(name) {
      if (!this._events) return this;
      if (name === undefined) this._events = Object.create(null); else delete this._events[name];
      return this;
    }
    emit(name, ...args) {
      const l = this._events && this._events[name];
      if (!l || l.length === 0) {
        if (name === 'error') {
          const err = args[0];
          if (err instanceof Error) throw err;
          const e = new Error('Unhandled error.' + (err === undefined ? '' : ` (${host.inspect(err)})`));
          e.context = err; e.code = 'ERR_UNHANDLED_ERROR';
          throw e;
        }
        return false;
      }
      for (const fn of l.slice()) fn.apply(this, args);
      return true;
    }
    listenerCount(name) { const l = this._events && this._events[name]; return l ? l.length : 0; }
    listeners(name) { const l = this._events && this._events[name]; return l ? l.map((f) => f.listener || f) : []; }
    rawListeners(name) { const l = this._events && this._events[name]; return l ? l.slice() : []; }
    eventNames() { return this._events ? Reflect.ownKeys(this._events) : []; }
    setMaxListeners(n) { this._maxListeners = n; return this; }
    getMaxListeners() { return this._maxListeners; }
  }
  EventEmitter.EventEmitter = EventEmitter;
  EventEmitter.defaultMaxListeners = 10;
  EventEmitter.once = function (em, name) {
    return new Promise((resolve, reject) => {
      const onError = (err) => { em.removeListener(name, onValue); reject(err); };
      const onValue = (...args) => { if (name !== 'error') em.removeListener('error', onError); resolve(args); };
      em.once(name, onValue);
      if (name !== 'error') em.once('error', onError);
    });
  };
  modules.events = () => EventEmitter;
  host.makeEmitter = function (obj) {
    const proto = EventEmitter.prototype;
    for (const k of Object.getOwnPropertyNames(proto)) {
      if (k !== 'constructor') Object.defineProperty(obj, k, { value: proto[k], writable: true, configurable: true, enumerable: false });
    }
    Object.defineProperty(obj, '_events', { value: Object.create(null), writable: true, configurable: true, enumerable: false });
  };

  // Buffer: a Uint8Array with Node's encodings.
  function normEnc(enc) {
    if (enc === undefined || enc === null) return 'utf8';
    const e = String(enc).toLowerCase();
    switch (e) {
      case 'utf8': case 'utf-8': return 'utf8';
      case 'hex': return 'hex';
      case 'base64': return 'base64';
      case 'base64url': return 'base64url';
      case 'latin1': case 'binary': return 'latin1';
      case 'ascii': return 'ascii';
      case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
    }
    const err = new TypeError(`Unknown encoding: ${enc}`);
    err.code = 'ERR_UNKNOWN_ENCODING';
    throw err;
  }
  class Buffer extends Uint8Array {
    static from(value, encOrOffset, length) {
      if (typeof value === 'string') {
        const bytes = host.encode(value, normEnc(encOrOffset));
        const b = new Buffer(bytes.length);
        b.set(bytes);
        return b;
      }
      if (value instanceof ArrayBuffer) return new Buffer(value, encOrOffset || 0, length === undefined ? value.byteLength - (encOrOffset || 0) : length);
      if (ArrayBuffer.isView(value) || Array.isArray(value)) {
        const b = new Buffer(value.length);
        for (let i = 0; i < value.length; i++) b[i] = value[i] & 255;
        return b;
      }
      if (value && value.type === 'Buffer' && Array.isArray(value.data)) return Buffer.from(value.data);
      if (value && typeof value.length === 'number') return Buffer.from(Array.from(value));
      const e = new TypeError('The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object. Received ' + host.inspect(value));
      e.code = 'ERR_INVALID_ARG_TYPE';
      throw e;
    }
    static alloc(n, fill, enc) {
      const b = new Buffer(n);
      if (fill !== undefined) b.fill(fill, 0, n, enc);
      return b;
    }
    static allocUnsafe(n) { return new Buffer(n); }
    static allocUnsafeSlow(n) { return new Buffer(n); }
    static isBuffer(b) { return b instanceof Buffer; }
    static isEncoding(e) { try { normEnc(e); return true; } catch (_) { return false; } }
    static byteLength(s, enc) {
      if (typeof s !== 'string') return s.byteLength;
      return host.encode(s, normEnc(enc)).length;
    }
    static concat(list, total) {
      if (total === undefined) total = list.reduce((n, b) => n + b.length, 0);
      const out = Buffer.alloc(total);
      let off = 0;
      for (const b of list) {
        if (off >= total) break;
        out.set(b.subarray(0, Math.min(b.length, total - off)), off);
        off += b.length;
      }
      return out;
    }
    static compare(a, b) { return a.compare(b); }
    toString(enc, start, end) {
      start = start === undefined ? 0 : Math.max(0, start | 0);
      end = end === undefined ? this.length : Math.min(this.length, end | 0);
      if (end <= start) return '';
      return host.decode(this.subarray(start, end), normEnc(enc));
    }
    toJSON() { return { type: 'Buffer', data: Array.from(this) }; }
    equals(o) { return this.compare(o) === 0; }
    compare(o) {
      const n = Math.min(this.length, o.length);
      for (let i = 0; i < n; i++) if (this[i] !== o[i]) return this[i] < o[i] ? -1 : 1;
      return this.length === o.length ? 0 : this.length < o.length ? -1 : 1;
    }
    write(s, offset, length, enc) {
      if (typeof offset === 'string') { enc = offset; offset = 0; length = undefined; }
      else if (typeof length === 'string') { enc = length; length = undefined; }
      offset = offset || 0;
      const bytes = host.encode(s, normEnc(enc));
      const n = Math.min(bytes.length, this.length - offset, length === undefined ? Infinity : length);
      this.set(bytes.subarray(0, n), offset);
      return n;
    }
    fill(v, start, end, enc) {
      if (typeof start === 'string') { enc = start; start = 0; end = this.length; }
      start = start || 0; end = end === undefined ? this.length : end;
      if (typeof v === 'string') {
        const bytes = host.encode(v, normEnc(enc));
        if (bytes.length === 0) return Uint8Array.prototype.fill.call(this, 0, start, end);
        for (let i = start, j = 0; i < end; i++, j = (j + 1) % bytes.length) this[i] = bytes[j];
        return this;
      }
      return Uint8Array.prototype.fill.call(this, v, start, end);
    }
    slice(start, end) { return this.subarray(start, end); }
    subarray(start, end) {
      const u = Uint8Array.prototype.subarray.call(this, start, end);
      return new Buffer(u.buffer, u.byteOffset, u.length);
    }
    indexOf(v, from, enc) {
      if (typeof v === 'number') return Uint8Array.prototype.indexOf.call(this, v, from);
      const needle = typeof v === 'string' ? Buffer.from(v, enc) : v;
      outer: for (let i = from || 0; i <= this.length - needle.length; i++) {
        for (let j = 0; j < needle.length; j++) if (this[i + j] !== needle[j]) continue outer;
        return i;
      }
      return -1;
    }
    includes(v, from, enc) { return this.indexOf(v, from, enc) !== -1; }
    readUInt8(o = 0) { return this[o]; }
    readUInt16LE(o = 0) { return this[o] | (this[o + 1] << 8); }
    readUInt16BE(o = 0) { return (this[o] << 8) | this[o + 1]; }
    readUInt32LE(o = 0) { return (this[o] | (this[o + 1] << 8) | (this[o + 2] << 16)) + this[o + 3] * 0x1000000; }
    readUInt32BE(o = 0) { return this[o] * 0x1000000 + ((this[o + 1] << 16) | (this[o + 2] << 8) | this[o + 3]); }
    readInt8(o = 0) { const v = this[o]; return v > 127 ? v - 256 : v; }
    readInt32LE(o = 0) { return this[o] | (this[o + 1] << 8) | (this[o + 2] << 16) | (this[o + 3] << 24); }
    readInt32BE(o = 0) { return (this[o] << 24) | (this[o + 1] << 16) | (this[o + 2] << 8) | this[o + 3]; }
    writeUInt8(v, o = 0) { this[o] = v; return o + 1; }
    writeUInt16LE(v, o = 0) { this[o] = v; this[o + 1] = v >>> 8; return o + 2; }
    writeUInt16BE(v, o = 0) { this[o] = v >>> 8; this[o + 1] = v; return o + 2; }
    writeUInt32LE(v, o = 0) { this[o] = v; this[o + 1] = v >>> 8; this[o + 2] = v >>> 16; this[o + 3] = v >>> 24; return o + 4; }
    writeUInt32BE(v, o = 0) { this[o] = v >>> 24; this[o + 1] = v >>> 16; this[o + 2] = v >>> 8; this[o + 3] = v; return o + 4; }
    [Symbol.for('nodejs.util.inspect.custom')]() {
      const max = 50;
      let s = Array.from(this.subarray(0, max), (b) => b.toString(16).padStart(2, '0')).join(' ');
      if (this.length > max) s += ` ... ${this.length - max} more byte${this.length - max > 1 ? 's' : ''}`;
      return `<${this.constructor.name} ${s}>`.replace(' >', '>');
    }
  }
  Object.defineProperty(Buffer.prototype, 'parent', { get() { return this.buffer; } });
  Buffer.poolSize = 8192;
  host.Buffer = Buffer;
  modules.buffer = () => ({ Buffer, constants: { MAX_LENGTH: 2 ** 32, MAX_STRING_LENGTH: 2 ** 29 - 24 }, kMaxLength: 2 ** 32, atob: host.atob, btoa: host.btoa });

  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(s = '') { return new Uint8Array(host.encode(String(s), 'utf8')); }
  }
  class TextDecoder {
    constructor(enc = 'utf-8', opts = {}) {
      const e = String(enc).toLowerCase();
      if (e !== 'utf-8' && e !== 'utf8') { const err = new RangeError(`The "${enc}" encoding is not supported`); err.code = 'ERR_ENCODING_NOT_SUPPORTED'; throw err; }
      this.fatal = !!opts.fatal;
    }
    get encoding() { return 'utf-8'; }
    decode(b) {
      if (b === undefined) return '';
      const u = b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      return host.decode(u, 'utf8');
    }
  }
  host.TextEncoder = TextEncoder;
  host.TextDecoder = TextDecoder;
  host.atob = (s) => host.decode(host.encode(String(s).replace(/\s+/g, ''), 'base64'), 'latin1');
  host.btoa = (s) => {
    s = String(s);
    for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 255) { const e = new Error('Invalid character'); e.name = 'InvalidCharacterError'; throw e; }
    return host.decode(host.encode(s, 'latin1'), 'base64');
  };
  host.structuredClone = function structuredClone(v) {
    const seen = new Map();
    function clone(x) {
      if (typeof x === 'function' || typeof x === 'symbol') { const e = new Error(`${String(x)} could not be cloned.`); e.name = 'DataCloneError'; throw e; }
      if (typeof x !== 'object' || x === null) return x;
      if (seen.has(x)) return seen.get(x);
      let out;
      if (Array.isArray(x)) { out = []; seen.set(x, out); x.forEach((v, i) => { out[i] = clone(v); }); return out; }
      if (x instanceof Date) return new Date(x.getTime());
      if (x instanceof RegExp) return new RegExp(x.source, x.flags);
      if (x instanceof Map) { out = new Map(); seen.set(x, out); for (const [k, v] of x) out.set(clone(k), clone(v)); return out; }
      if (x instanceof Set) { out = new Set(); seen.set(x, out); for (const v of x) out.add(clone(v)); return out; }
      if (ArrayBuffer.isView(x)) return x.slice();
      if (x instanceof Error) { out = new (globalThis[x.name] || Error)(x.message); seen.set(x, out); return out; }
      out = {}; seen.set(x, out);
      for (const k of Object.keys(x)) out[k] = clone(x[k]);
      return out;
    }
    return clone(v);
  };

  // fs.Stats and fs.Dirent
  class Stats {
    constructor(o) {
      Object.assign(this, o);
      this.atime = new Date(o.atimeMs); this.mtime = new Date(o.mtimeMs);
      this.ctime = new Date(o.ctimeMs); this.birthtime = new Date(o.birthtimeMs);
    }
    isFile() { return (this.mode & 0o170000) === 0o100000; }
    isDirectory() { return (this.mode & 0o170000) === 0o40000; }
    isSymbolicLink() { return (this.mode & 0o170000) === 0o120000; }
    isFIFO() { return (this.mode & 0o170000) === 0o10000; }
    isCharacterDevice() { return (this.mode & 0o170000) === 0o20000; }
    isBlockDevice() { return false; }
    isSocket() { return false; }
  }
  const kType = Symbol('type');
  class Dirent {
    constructor(name, type, dir) { this.name = name; this.parentPath = dir; this.path = dir; this[kType] = type; }
    isFile() { return this[kType] === 1; }
    isDirectory() { return this[kType] === 2; }
    isSymbolicLink() { return this[kType] === 3; }
    isFIFO() { return this[kType] === 4; }
    isCharacterDevice() { return this[kType] === 6; }
    isBlockDevice() { return false; }
    isSocket() { return false; }
  }
  host.Stats = Stats;
  host.Dirent = Dirent;

  // util
  function promisify(fn) {
    if (typeof fn !== 'function') throw new TypeError('The "original" argument must be of type function');
    if (fn[promisify.custom]) return fn[promisify.custom];
    return function (...args) {
      return new Promise((resolve, reject) => {
        fn.call(this, ...args, (err, ...values) => {
          if (err) reject(err); else resolve(values.length > 1 ? values : values[0]);
        });
      });
    };
  }
  promisify.custom = Symbol.for('nodejs.util.promisify.custom');
  function isDeepStrictEqual(a, b) { return deepEqual(a, b, true); }
  function deepEqual(a, b, strict, memo) {
    if (strict ? Object.is(a, b) : (a == b || (a !== a && b !== b))) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    memo = memo || new Map();
    if (memo.get(a) === b) return true;
    memo.set(a, b);
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
    if (a instanceof RegExp && b instanceof RegExp) return String(a) === String(b);
    if (a instanceof Map && b instanceof Map) {
      if (a.size !== b.size) return false;
      for (const [k, v] of a) { if (!b.has(k) || !deepEqual(v, b.get(k), strict, memo)) return false; }
      return true;
    }
    if (a instanceof Set && b instanceof Set) {
      if (a.size !== b.size) return false;
      for (const v of a) {
        if (b.has(v)) continue;
        let found = false;
        for (const w of b) if (deepEqual(v, w, strict, memo)) { found = true; break; }
        if (!found) return false;
      }
      return true;
    }
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (const k of ka) {
      if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
      if (!deepEqual(a[k], b[k], strict, memo)) return false;
    }
    return true;
  }
  const types = {
    isPromise: (v) => v instanceof Promise,
    isDate: (v) => v instanceof Date,
    isRegExp: (v) => v instanceof RegExp,
    isMap: (v) => v instanceof Map,
    isSet: (v) => v instanceof Set,
    isTypedArray: (v) => ArrayBuffer.isView(v) && !(v instanceof DataView),
    isUint8Array: (v) => v instanceof Uint8Array,
    isArrayBuffer: (v) => v instanceof ArrayBuffer,
    isNativeError: (v) => v instanceof Error,
    isAsyncFunction: (v) => typeof v === 'function' && v.constructor && v.constructor.name === 'AsyncFunction',
    isGeneratorFunction: (v) => typeof v === 'function' && v.constructor && /GeneratorFunction$/.test(v.constructor.name),
  };
  const util = {
    inspect: host.inspect,
    format: host.format,
    formatWithOptions: host.formatWithOptions,
    promisify,
    callbackify(fn) {
      return function (...args) {
        const cb = args.pop();
        fn.apply(this, args).then((v) => cb(null, v), (e) => cb(e));
      };
    },
    inherits(ctor, superCtor) {
      Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
      Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
    },
    deprecate(fn) { return fn; },
    isDeepStrictEqual,
    types,
    isArray: Array.isArray,
    TextEncoder, TextDecoder,
    stripVTControlCharacters: (s) => s.replace(/\u001b\[[0-9;]*[A-Za-z]/g, ''),
    toUSVString: (s) => String(s).toWellFormed ? String(s).toWellFormed() : String(s),
  };
  modules.util = () => util;
  host.util = util;

  // assert
  class AssertionError extends Error {
    constructor(options) {
      super(options.message);
      this.name = 'AssertionError';
      this.code = 'ERR_ASSERTION';
      this.actual = options.actual;
      this.expected = options.expected;
      this.operator = options.operator;
      this.generatedMessage = !options.userMessage;
    }
  }
  function fail(actual, expected, message, operator, defaultMsg) {
    if (message instanceof Error) throw message;
    throw new AssertionError({ message: message !== undefined ? message : defaultMsg(), actual, expected, operator, userMessage: message !== undefined });
  }
  const I = (v) => host.inspect(v);
  function makeAssert(strict) {
    function assert(value, message) { assert.ok(value, message); }
    assert.ok = (value, message) => { if (!value) fail(value, true, message, '==', () => (arguments.length === 0 ? 'No value argument passed to `assert.ok()`' : 'The expression evaluated to a falsy value:\n\n  assert.ok(' + I(value) + ')\n')); };
    assert.equal = strict ? (a, b, m) => assert.strictEqual(a, b, m) : (a, b, m) => { if (!(a == b || (a !== a && b !== b))) fail(a, b, m, '==', () => `${I(a)} == ${I(b)}`); };
    assert.notEqual = strict ? (a, b, m) => assert.notStrictEqual(a, b, m) : (a, b, m) => { if (a == b) fail(a, b, m, '!=', () => `${I(a)} != ${I(b)}`); };
    assert.strictEqual = (a, b, m) => { if (!Object.is(a, b)) fail(a, b, m, 'strictEqual', () => `Expected values to be strictly equal:\n\n${I(a)} !== ${I(b)}\n`); };
    assert.notStrictEqual = (a, b, m) => { if (Object.is(a, b)) fail(a, b, m, 'notStrictEqual', () => `Expected "actual" to be strictly unequal to: ${I(b)}`); };
    assert.deepEqual = strict ? (a, b, m) => assert.deepStrictEqual(a, b, m) : (a, b, m) => { if (!deepEqual(a, b, false)) fail(a, b, m, 'deepEqual', () => `Expected values to be loosely deep-equal:\n\n${I(a)}\n\nshould loosely deep-equal\n\n${I(b)}`); };
    assert.deepStrictEqual = (a, b, m) => { if (!deepEqual(a, b, true)) fail(a, b, m, 'deepStrictEqual', () => `Expected values to be strictly deep-equal:\n${I(a)}\n\nshould equal\n\n${I(b)}`); };
    assert.notDeepStrictEqual = (a, b, m) => { if (deepEqual(a, b, true)) fail(a, b, m, 'notDeepStrictEqual', () => `Expected "actual" not to be strictly deep-equal to: ${I(b)}`); };
    assert.notDeepEqual = (a, b, m) => { if (deepEqual(a, b, !!strict)) fail(a, b, m, 'notDeepEqual', () => `Expected "actual" not to be deep-equal to: ${I(b)}`); };
    assert.fail = (m) => { if (m instanceof Error) throw m; throw new AssertionError({ message: m === undefined ? 'Failed' : m, operator: 'fail', userMessage: m !== undefined }); };
    function matches(err, expected) {
      if (expected === undefined) return true;
      if (typeof expected === 'function') {
        if (expected.prototype !== undefined && err instanceof expected) return true;
        if (Error.isPrototypeOf(expected) || expected === Error) return false;
        return expected.call({}, err) === true;
      }
      if (expected instanceof RegExp) return expected.test(String(err));
      if (typeof expected === 'object') {
        return Object.keys(expected).every((k) => expected[k] instanceof RegExp && typeof err[k] === 'string' ? expected[k].test(err[k]) : deepEqual(err[k], expected[k], true));
      }
      return true;
    }
    assert.throws = (fn, expected, m) => {
      if (typeof expected === 'string') { m = expected; expected = undefined; }
      try { fn(); } catch (e) {
        if (!matches(e, expected)) throw e;
        return;
      }
      fail(undefined, expected, m, 'throws', () => 'Missing expected exception.');
    };
    assert.doesNotThrow = (fn, m) => { try { fn(); } catch (e) { fail(e, undefined, m, 'doesNotThrow', () => `Got unwanted exception.\nActual message: "${e && e.message}"`); } };
    assert.rejects = async (p, expected, m) => {
      if (typeof p === 'function') p = p();
      try { await p; } catch (e) { if (!matches(e, expected)) throw e; return; }
      fail(undefined, expected, m, 'rejects', () => 'Missing expected rejection.');
    };
    assert.doesNotReject = async (p, m) => { if (typeof p === 'function') p = p(); try { await p; } catch (e) { fail(e, undefined, m, 'doesNotReject', () => 'Got unwanted rejection.'); } };
    assert.match = (s, re, m) => { if (!re.test(s)) fail(s, re, m, 'match', () => `The input did not match the regular expression ${re}. Input:\n\n${I(s)}\n`); };
    assert.doesNotMatch = (s, re, m) => { if (re.test(s)) fail(s, re, m, 'doesNotMatch', () => `The input was expected to not match the regular expression ${re}. Input:\n\n${I(s)}\n`); };
    assert.ifError = (v) => { if (v !== null && v !== undefined) throw v; };
    assert.AssertionError = AssertionError;
    return assert;
  }
  const assert = makeAssert(false);
  assert.strict = makeAssert(true);
  assert.strict.strict = assert.strict;
  modules.assert = () => assert;
  modules['assert/strict'] = () => assert.strict;

  function asyncIter(items) {
    let i = 0;
    return {
      next() { return Promise.resolve(i < items.length ? { value: items[i++], done: false } : { value: undefined, done: true }); },
      return() { i = items.length; return Promise.resolve({ value: undefined, done: true }); },
      [Symbol.asyncIterator]() { return this; },
    };
  }
  host.asyncIter = asyncIter;

  // process.stdin: read once, when a script first asks for it.
  const stdin = new EventEmitter();
  let stdinState = 'idle';
  let stdinEncoding = null;
  function startStdin() {
    if (stdinState !== 'idle') return;
    stdinState = 'scheduled';
    setImmediate(() => {
      stdinState = 'done';
      const bytes = host.readStdin();
      if (bytes.length > 0) {
        const chunk = Buffer.from(bytes);
        stdin.emit('data', stdinEncoding ? chunk.toString(stdinEncoding) : chunk);
      }
      stdin.emit('end');
      stdin.emit('close');
    });
  }
  stdin.fd = 0;
  stdin.isTTY = false;
  stdin.readable = true;
  stdin.setEncoding = function (enc) { stdinEncoding = normEnc(enc); return this; };
  stdin.resume = function () { startStdin(); return this; };
  stdin.pause = function () { return this; };
  stdin.unref = function () { return this; };
  stdin.ref = function () { return this; };
  stdin.setRawMode = function () { return this; };
  stdin.read = function () {
    if (stdinState === 'done') return null;
    stdinState = 'done';
    const bytes = host.readStdin();
    if (bytes.length === 0) return null;
    const chunk = Buffer.from(bytes);
    return stdinEncoding ? chunk.toString(stdinEncoding) : chunk;
  };
  const origOn = stdin.on;
  stdin.on = function (name, fn) {
    origOn.call(this, name, fn);
    if (name === 'data' || name === 'end' || name === 'readable' || name === 'close') startStdin();
    return this;
  };
  stdin.addListener = stdin.on;
  stdin.once = function (name, fn) { EventEmitter.prototype.once.call(this, name, fn); if (name === 'data' || name === 'end') startStdin(); return this; };
  stdin.pipe = function (dest) {
    this.on('data', (c) => dest.write(c));
    this.on('end', () => { if (dest !== process.stdout && dest !== process.stderr && dest.end) dest.end(); });
    return dest;
  };
  stdin[Symbol.asyncIterator] = function () {
    const chunks = [];
    if (stdinState !== 'done') {
      stdinState = 'done';
      const bytes = host.readStdin();
      if (bytes.length > 0) {
        const chunk = Buffer.from(bytes);
        chunks.push(stdinEncoding ? chunk.toString(stdinEncoding) : chunk);
      }
    }
    return asyncIter(chunks);
  };
  host.stdin = stdin;

  // readline over process.stdin (or any emitter of data/end).
  class Interface extends EventEmitter {
    constructor(input, output) {
      super();
      if (input && input.input !== undefined) { output = input.output; input = input.input; }
      this.input = input; this.output = output;
      this.closed = false;
      this.terminal = false;
      this.line = '';
      this._buf = '';
      this._lines = [];
      this._waiters = [];
      this._ended = false;
      this._questions = [];
      this._paused = false;
      const onData = (chunk) => {
        this._buf += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        let i;
        while ((i = this._buf.search(/\r?\n/)) !== -1) {
          const line = this._buf.slice(0, i);
          this._buf = this._buf.slice(this._buf[i] === '\r' ? i + 2 : i + 1);
          this._line(line);
        }
      };
      const onEnd = () => {
        if (this._buf.length > 0) { const l = this._buf; this._buf = ''; this._line(l); }
        this._ended = true;
        for (const w of this._waiters.splice(0)) w();
        this.close();
      };
      if (input && typeof input.on === 'function') {
        setImmediate(() => { input.on('data', onData); input.on('end', onEnd); });
      }
    }
    _line(line) {
      if (this._questions.length > 0) { this._questions.shift()(line); return; }
      this._lines.push(line);
      for (const w of this._waiters.splice(0)) w();
      this.emit('line', line);
    }
    question(query, opts, cb) {
      if (typeof opts === 'function') cb = opts;
      if (this.output && this.output.write) this.output.write(query);
      this._questions.push(cb);
    }
    setPrompt(p) { this._prompt = p; }
    getPrompt() { return this._prompt || '> '; }
    prompt() { if (this.output && this.output.write) this.output.write(this.getPrompt()); }
    write(s) { if (this.output && this.output.write) this.output.write(s); }
    pause() { this._paused = true; this.emit('pause'); return this; }
    resume() { this._paused = false; this.emit('resume'); return this; }
    close() { if (this.closed) return; this.closed = true; this.emit('close'); }
    [Symbol.asyncIterator]() {
      const self = this;
      let consumed = 0;
      const queued = [];
      self.on('line', () => {});
      return {
        next() {
          return new Promise((resolve) => {
            const step = () => {
              if (consumed < self._lines.length) { resolve({ value: self._lines[consumed++], done: false }); return; }
              if (self._ended || self.closed) { resolve({ value: undefined, done: true }); return; }
              self._waiters.push(step);
            };
            step();
          });
        },
        return() { self.close(); return Promise.resolve({ value: undefined, done: true }); },
        [Symbol.asyncIterator]() { return this; },
      };
    }
  }
  const readline = {
    createInterface: (input, output) => new Interface(input, output),
    Interface,
    clearLine: () => true, cursorTo: () => true, moveCursor: () => true, emitKeypressEvents: () => {},
  };
  readline.promises = {
    createInterface: (input, output) => {
      const rl = new Interface(input, output);
      const q = rl.question.bind(rl);
      rl.question = (query) => new Promise((resolve) => q(query, resolve));
      return rl;
    },
    Interface,
  };
  modules.readline = () => readline;
  modules['readline/promises'] = () => readline.promises;

  modules.timers = () => ({ setTimeout, setInterval, clearTimeout, clearInterval, setImmediate, clearImmediate });
  modules['timers/promises'] = () => ({
    setTimeout: (ms, value) => new Promise((resolve) => setTimeout(() => resolve(value), ms)),
    setImmediate: (value) => new Promise((resolve) => setImmediate(() => resolve(value))),
    setInterval: (ms, value) => ({
      next() { return new Promise((r) => setTimeout(() => r({ value, done: false }), ms)); },
      return() { return Promise.resolve({ value: undefined, done: true }); },
      [Symbol.asyncIterator]() { return this; },
    }),
    scheduler: { wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)), yield: () => new Promise((r) => setImmediate(r)) },
  });
  modules.string_decoder = () => ({
    StringDecoder: class StringDecoder {
      constructor(enc) { this.encoding = normEnc(enc); this._pending = []; }
      write(b) {
        const all = this._pending.length ? Buffer.concat([Buffer.from(this._pending), b]) : b;
        let end = all.length;
        if (this.encoding === 'utf8') {
          let i = all.length - 1, back = 0;
          while (i >= 0 && back < 4 && (all[i] & 0xc0) === 0x80) { i--; back++; }
          if (i >= 0) {
            const lead = all[i];
            const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
            if (need > back + 1) end = i;
          }
        }
        this._pending = Array.from(all.subarray(end));
        return Buffer.from(all.subarray(0, end)).toString(this.encoding);
      }
      end(b) { let s = b ? this.write(b) : ''; if (this._pending.length) { s += Buffer.from(this._pending).toString(this.encoding); this._pending = []; } return s; }
    },
  });

  // URL and URLSearchParams: a WHATWG-style subset for parsing.
  class URLSearchParams {
    constructor(init) {
      this._list = [];
      if (typeof init === 'string') {
        const s = init.startsWith('?') ? init.slice(1) : init;
        for (const part of s.split('&')) {
          if (!part) continue;
          const i = part.indexOf('=');
          const k = i === -1 ? part : part.slice(0, i);
          const v = i === -1 ? '' : part.slice(i + 1);
          this._list.push([dec(k), dec(v)]);
        }
      } else if (init && typeof init === 'object') {
        const entries = Symbol.iterator in init ? init : Object.entries(init);
        for (const [k, v] of entries) this._list.push([String(k), String(v)]);
      }
      function dec(s) { try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch (e) { return s; } }
    }
    get(k) { const e = this._list.find((x) => x[0] === k); return e ? e[1] : null; }
    getAll(k) { return this._list.filter((x) => x[0] === k).map((x) => x[1]); }
    has(k) { return this._list.some((x) => x[0] === k); }
    set(k, v) { const i = this._list.findIndex((x) => x[0] === k); if (i === -1) this._list.push([k, String(v)]); else { this._list[i][1] = String(v); this._list = this._list.filter((x, j) => j <= i || x[0] !== k); } this._update(); }
    append(k, v) { this._list.push([k, String(v)]); this._update(); }
    delete(k) { this._list = this._list.filter((x) => x[0] !== k); this._update(); }
    sort() { this._list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)); this._update(); }
    forEach(fn, self) { for (const [k, v] of this._list) fn.call(self, v, k, this); }
    keys() { return this._list.map((x) => x[0])[Symbol.iterator](); }
    values() { return this._list.map((x) => x[1])[Symbol.iterator](); }
    entries() { return this._list.map((x) => [x[0], x[1]])[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    get size() { return this._list.length; }
    toString() {
      const enc = (s) => encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
      return this._list.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
    }
    _update() { if (this._url) this._url._search = this._list.length ? '?' + this.toString() : ''; }
  }
  const defaultPorts = { 'http:': '80', 'https:': '443', 'ftp:': '21', 'ws:': '80', 'wss:': '443' };
  class URL {
    constructor(input, base) {
      input = String(input).trim();
      const m = /^([a-zA-Z][a-zA-Z0-9+.-]*:)(.*)$/.exec(input);
      if (!m) {
        if (base === undefined) { const e = new TypeError('Invalid URL'); e.code = 'ERR_INVALID_URL'; e.input = input; throw e; }
        const b = new URL(base);
        let path;
        if (input.startsWith('//')) return new URL(b.protocol + input);
        if (input.startsWith('/')) path = input;
        else if (input.startsWith('?') || input.startsWith('#') || input === '') path = b.pathname + (input.startsWith('#') ? b.search : '') + input;
        else path = b.pathname.replace(/[^/]*$/, '') + input;
        return new URL(`${b.protocol}//${b.host}${path}`);
      }
      this._protocol = m[1].toLowerCase();
      let rest = m[2];
      this._username = ''; this._password = ''; this._hostname = ''; this._port = '';
      let hash = '';
      const hi = rest.indexOf('#');
      if (hi !== -1) { hash = rest.slice(hi); rest = rest.slice(0, hi); }
      let search = '';
      const qi = rest.indexOf('?');
      if (qi !== -1) { search = rest.slice(qi); rest = rest.slice(0, qi); }
      if (rest.startsWith('//')) {
        rest = rest.slice(2);
        const si = rest.indexOf('/');
        let auth = si === -1 ? rest : rest.slice(0, si);
        rest = si === -1 ? '' : rest.slice(si);
        const at = auth.lastIndexOf('@');
        if (at !== -1) {
          const cred = auth.slice(0, at); auth = auth.slice(at + 1);
          const ci = cred.indexOf(':');
          this._username = ci === -1 ? cred : cred.slice(0, ci);
          this._password = ci === -1 ? '' : cred.slice(ci + 1);
        }
        const pm = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(auth);
        if (!pm) { const e = new TypeError('Invalid URL'); e.code = 'ERR_INVALID_URL'; e.input = input; throw e; }
        this._hostname = pm[1].toLowerCase();
        this._port = pm[2] && pm[2] !== defaultPorts[this._protocol] ? pm[2] : '';
        if (rest === '' && this._protocol in defaultPorts) rest = '/';
      }
      const segs = [];
      for (const s of rest.split('/')) {
        if (s === '..') { if (segs.length > 1) segs.pop(); } else if (s !== '.') segs.push(s);
      }
      this._pathname = segs.join('/').replace(/ /g, '%20');
      if (rest.endsWith('/.') || rest.endsWith('/..')) this._pathname += '/';
      this._search = search === '?' ? '' : search;
      this._hash = hash === '#' ? '' : hash;
      this._params = new URLSearchParams(this._search);
      this._params._url = this;
    }
    get protocol() { return this._protocol; }
    set protocol(v) { this._protocol = String(v).replace(/:?$/, ':'); }
    get username() { return this._username; }
    get password() { return this._password; }
    get hostname() { return this._hostname; }
    set hostname(v) { this._hostname = String(v); }
    get port() { return this._port; }
    set port(v) { this._port = String(v) === defaultPorts[this._protocol] ? '' : String(v); }
    get host() { return this._hostname + (this._port ? ':' + this._port : ''); }
    get origin() { return this._protocol in defaultPorts ? `${this._protocol}//${this.host}` : 'null'; }
    get pathname() { return this._pathname; }
    set pathname(v) { this._pathname = String(v).startsWith('/') ? String(v) : '/' + v; }
    get search() { return this._search; }
    set search(v) { v = String(v); this._search = v === '' || v === '?' ? '' : v.startsWith('?') ? v : '?' + v; this._params = new URLSearchParams(this._search); this._params._url = this; }
    get searchParams() { return this._params; }
    get hash() { return this._hash; }
    set hash(v) { v = String(v); this._hash = v === '' || v === '#' ? '' : v.startsWith('#') ? v : '#' + v; }
    get href() {
      const cred = this._username ? this._username + (this._password ? ':' + this._password : '') + '@' : '';
      const auth = this._hostname !== '' || this._protocol in defaultPorts ? '//' + cred + this.host : '';
      return `${this._protocol}${auth}${this._pathname}${this._search}${this._hash}`;
    }
    toString() { return this.href; }
    toJSON() { return this.href; }
    static canParse(u, b) { try { new URL(u, b); return true; } catch (e) { return false; } }
    [Symbol.for('nodejs.util.inspect.custom')](depth, opts, inspect) {
      const o = { href: this.href, origin: this.origin, protocol: this.protocol, username: this.username, password: this.password, host: this.host, hostname: this.hostname, port: this.port, pathname: this.pathname, search: this.search, searchParams: this.searchParams, hash: this.hash };
      return 'URL ' + inspect(o, opts);
    }
  }
  URLSearchParams.prototype[Symbol.for('nodejs.util.inspect.custom')] = function (depth, opts, inspect) {
    if (this._list.length === 0) return 'URLSearchParams {}';
    return `URLSearchParams { ${this._list.map(([k, v]) => `${inspect(k)} => ${inspect(v)}`).join(', ')} }`;
  };
  host.URL = URL;
  host.URLSearchParams = URLSearchParams;
  modules.url = () => ({
    URL, URLSearchParams,
    parse: (s) => { const u = new URL(s); return { protocol: u.protocol, host: u.host, hostname: u.hostname, port: u.port || null, pathname: u.pathname, search: u.search || null, query: u.search ? u.search.slice(1) : null, hash: u.hash || null, href: u.href, path: u.pathname + u.search }; },
    fileURLToPath: (u) => decodeURIComponent(new URL(String(u)).pathname),
    pathToFileURL: (p) => new URL('file://' + encodeURI(p)),
    format: (u) => String(u),
  });
})(__wasmsand);

// runCode's result sanitizer: any value to JSON-safe data, with warnings.
(function (host) {
  const MAX_DEPTH = 10, MAX_STRING = 100000, MAX_ITEMS = 1000;
  host.sanitize = function (value) {
    const warnings = [];
    const warned = new Set();
    const warn = (key, msg) => { if (!warned.has(key)) { warned.add(key); warnings.push(msg); } };
    const stack = [];
    function fnName(f) {
      let src = '';
      try { src = Function.prototype.toString.call(f); } catch (e) { src = ''; }
      if (/^class\b/.test(src)) return `[class ${f.name || '(anonymous)'}]`;
      return f.name ? `[Function: ${f.name}]` : '[Function (anonymous)]';
    }
    function str(s) {
      if (s.length > MAX_STRING) {
        warn('string', `a string of ${s.length} characters was cut to ${MAX_STRING}`);
        return s.slice(0, MAX_STRING) + `... (${s.length - MAX_STRING} more characters)`;
      }
      return s;
    }
    function list(items, depth, total) {
      const out = [];
      let i = 0;
      for (const v of items) {
        if (i >= MAX_ITEMS) break;
        const x = conv(v, depth + 1);
        out.push(x === undefined ? null : x);
        i++;
      }
      if (total > MAX_ITEMS) {
        warn('array', `an array of ${total} items was cut to ${MAX_ITEMS}`);
        out.push(`... ${total - MAX_ITEMS} more items`);
      }
      return out;
    }
    function conv(v, depth) {
      switch (typeof v) {
        case 'undefined': return undefined;
        case 'string': return str(v);
        case 'boolean': return v;
        case 'number':
          if (Number.isNaN(v)) return 'NaN';
          if (v === Infinity) return 'Infinity';
          if (v === -Infinity) return '-Infinity';
          return Object.is(v, -0) ? 0 : v;
        case 'bigint': return v.toString();
        case 'symbol': return v.toString();
        case 'function': return fnName(v);
      }
      if (v === null) return null;
      if (stack.includes(v)) { warn('circular', 'the result has circular references, shown as "[Circular]"'); return '[Circular]'; }
      if (depth > MAX_DEPTH) {
        warn('depth', `the result is nested deeper than ${MAX_DEPTH} levels; deeper values are shown as "[Object]" or "[Array]"`);
        return Array.isArray(v) ? '[Array]' : '[Object]';
      }
      stack.push(v);
      try {
        if (v instanceof Date) return isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
        if (v instanceof Error) {
          const o = { name: v.name, message: v.message };
          if (typeof v.stack === 'string') o.stack = v.stack.replace(/\n\tat /g, '\n    at ');
          for (const k of Object.keys(v)) if (!(k in o)) o[k] = conv(v[k], depth + 1);
          return o;
        }
        if (v instanceof RegExp) return String(v);
        if (v instanceof Map) {
          const o = {};
          let allStrings = true;
          for (const k of v.keys()) if (typeof k !== 'string') { allStrings = false; break; }
          if (allStrings && v.size <= MAX_ITEMS) { for (const [k, x] of v) { const c = conv(x, depth + 1); o[k] = c === undefined ? null : c; } return o; }
          return list(Array.from(v, ([k, x]) => [k, x]), depth, v.size);
        }
        if (v instanceof Set) return list(v, depth, v.size);
        if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return list(Array.from(v, (x) => (typeof x === 'bigint' ? x.toString() : x)), depth, v.length);
        if (v instanceof ArrayBuffer) return list(Array.from(new Uint8Array(v)), depth, v.byteLength);
        if (v instanceof Promise) return '[Promise]';
        if (v instanceof WeakMap || v instanceof WeakSet) return `[${v instanceof WeakMap ? 'WeakMap' : 'WeakSet'}]`;
        if (Array.isArray(v)) return list(v, depth, v.length);
        if (typeof v.toJSON === 'function') return conv(v.toJSON(), depth);
        const o = {};
        const keys = Object.keys(v);
        let n = 0;
        for (const k of keys) {
          if (n >= MAX_ITEMS) { warn('keys', `an object of ${keys.length} keys was cut to ${MAX_ITEMS}`); break; }
          let x;
          try { x = v[k]; } catch (e) { x = `[Getter threw: ${e && e.message}]`; }
          const c = conv(x, depth + 1);
          if (c !== undefined) o[k] = c;
          n++;
        }
        return o;
      } finally {
        stack.pop();
      }
    }
    const out = conv(value, 1);
    return { json: out === undefined ? undefined : JSON.stringify(out), warnings };
  };
})(__wasmsand);
