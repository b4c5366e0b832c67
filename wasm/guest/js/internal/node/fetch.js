// fetch() and its classes — Headers, Request, Response, AbortController,
// AbortSignal — over host.httpRequest, which makes one request through the
// sandbox's network policy. fetch follows redirects itself, one request
// (and one policy check) per hop, as curl -L does.
'use strict';
(function (host) {
  const te = new host.TextEncoder();
  const td = new host.TextDecoder();

  function normName(name) {
    name = String(name);
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new TypeError(`Headers: invalid header name: "${name}"`);
    return name.toLowerCase();
  }
  function normValue(v) {
    v = String(v).replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
    if (/[\r\n\0]/.test(v)) throw new TypeError(`Headers: invalid header value: "${v}"`);
    return v;
  }

  const customInspect = Symbol.for('nodejs.util.inspect.custom');

  // view is what console.log shows of an object: props in an object whose
  // class is called name, as Node shows its fetch classes.
  function view(name, props) {
    const C = { [name]: class {} }[name];
    return Object.assign(new C(), props);
  }

  class Headers {
    constructor(init) {
      this._map = new Map(); // lower-case name → values
      this._names = new Map(); // lower-case name → the name as first given
      if (init === undefined || init === null) return;
      if (init instanceof Headers) {
        for (const [k, vs] of init._map) { this._map.set(k, vs.slice()); this._names.set(k, init._names.get(k)); }
      } else if (typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const p = Array.from(pair);
          if (p.length !== 2) throw new TypeError('Headers: each header pair must be [name, value]');
          this.append(p[0], p[1]);
        }
      } else if (typeof init === 'object') {
        for (const k of Object.keys(init)) this.append(k, init[k]);
      } else {
        throw new TypeError('Headers: init must be an object, an array of pairs or a Headers');
      }
    }
    append(name, value) {
      const k = normName(name);
      const v = normValue(value);
      const vs = this._map.get(k);
      if (vs) vs.push(v); else { this._map.set(k, [v]); this._names.set(k, String(name)); }
    }
    set(name, value) {
      const k = normName(name);
      if (!this._map.has(k)) this._names.set(k, String(name));
      this._map.set(k, [normValue(value)]);
    }
    delete(name) { const k = normName(name); this._map.delete(k); this._names.delete(k); }
    has(name) { return this._map.has(normName(name)); }
    get(name) {
      const vs = this._map.get(normName(name));
      return vs ? vs.join(', ') : null;
    }
    getSetCookie() { return (this._map.get('set-cookie') || []).slice(); }
    *entries() {
      for (const k of Array.from(this._map.keys()).sort()) {
        if (k === 'set-cookie') for (const v of this._map.get(k)) yield [k, v];
        else yield [k, this._map.get(k).join(', ')];
      }
    }
    *keys() { for (const [k] of this.entries()) yield k; }
    *values() { for (const [, v] of this.entries()) yield v; }
    forEach(fn, thisArg) { for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this); }
    [Symbol.iterator]() { return this.entries(); }
    get [Symbol.toStringTag]() { return 'Headers'; }
    [customInspect]() {
      const o = {};
      for (const [k, vs] of this._map) o[this._names.get(k) || k] = vs.join(', ');
      return view('Headers', o);
    }
  }

  // bodyBytes turns a body init into bytes and its default content type.
  function bodyBytes(body) {
    if (body === undefined || body === null) return [null, null];
    if (typeof body === 'string') return [te.encode(body), 'text/plain;charset=UTF-8'];
    if (body instanceof host.URLSearchParams) return [te.encode(body.toString()), 'application/x-www-form-urlencoded;charset=UTF-8'];
    if (body instanceof ArrayBuffer) return [new Uint8Array(body.slice(0)), null];
    if (ArrayBuffer.isView(body)) return [new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)), null];
    if (body instanceof Response || body instanceof Request) return [body._bytes, body.headers.get('content-type')];
    return [te.encode(String(body)), 'text/plain;charset=UTF-8'];
  }

  // BodyStream is the body as a one-chunk stream: getReader().read() and
  // for await...of give the whole body (already read from the host) once.
  class BodyStream {
    constructor(owner) { this._owner = owner; this._reader = null; }
    get locked() { return this._reader !== null; }
    getReader() {
      if (this._reader) throw new TypeError('ReadableStream is locked');
      const owner = this._owner;
      const stream = this;
      if (owner._used) throw new TypeError('Body is unusable: Body has already been read');
      owner._used = true;
      let done = false;
      this._reader = {
        read() {
          if (done) return Promise.resolve({ done: true, value: undefined });
          done = true;
          const b = owner._bytes;
          return Promise.resolve(b.length ? { done: false, value: new Uint8Array(b) } : { done: true, value: undefined });
        },
        releaseLock() { if (stream._reader === this) stream._reader = null; },
        cancel() { done = true; return Promise.resolve(); },
        closed: Promise.resolve(undefined),
      };
      return this._reader;
    }
    cancel() { this._owner._used = true; return Promise.resolve(); }
    [Symbol.asyncIterator]() {
      const r = this.getReader();
      return { next: () => r.read(), return: () => { r.cancel(); return Promise.resolve({ done: true, value: undefined }); }, [Symbol.asyncIterator]() { return this; } };
    }
    get [Symbol.toStringTag]() { return 'ReadableStream'; }
    [customInspect]() { return view('ReadableStream', { locked: this.locked, state: 'readable', supportsBYOB: false }); }
  }

  // The body methods Request and Response share.
  const bodyMethods = {
    _take() {
      if (this._used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
      this._used = true;
      return Promise.resolve(this._bytes || new Uint8Array(0));
    },
    get bodyUsed() { return this._used; },
    get body() {
      if (this._bytes === null) return null;
      if (!this._stream) this._stream = new BodyStream(this);
      return this._stream;
    },
    text() { return this._take().then((b) => td.decode(b)); },
    json() { return this.text().then((s) => JSON.parse(s)); },
    arrayBuffer() { return this._take().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)); },
    bytes() { return this._take().then((b) => new Uint8Array(b)); },
  };
  function mixBody(cls) {
    for (const k of Object.getOwnPropertyNames(bodyMethods)) {
      Object.defineProperty(cls.prototype, k, Object.getOwnPropertyDescriptor(bodyMethods, k));
    }
  }

  const methods = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH'];

  class Request {
    constructor(input, init) {
      init = init || {};
      let base = null;
      if (input instanceof Request) base = input;
      const url = base ? base.url : new host.URL(String(input)).href;
      let method = init.method !== undefined ? String(init.method) : base ? base.method : 'GET';
      if (methods.includes(method.toUpperCase())) method = method.toUpperCase();
      if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(method)) throw new TypeError(`'${method}' is not a valid HTTP method.`);
      this._url = url;
      this._method = method;
      this._headers = new Headers(init.headers !== undefined ? init.headers : base ? base.headers : undefined);
      this._redirect = init.redirect !== undefined ? String(init.redirect) : base ? base.redirect : 'follow';
      if (!['follow', 'manual', 'error'].includes(this._redirect)) throw new TypeError(`Request: redirect must be 'follow', 'manual' or 'error', not '${this._redirect}'`);
      this._signal = init.signal !== undefined ? init.signal : base ? base.signal : null;
      const [b, type] = init.body !== undefined ? bodyBytes(init.body) : base ? [base._bytes, null] : [null, null];
      if (b !== null && (method === 'GET' || method === 'HEAD')) throw new TypeError('Request with GET/HEAD method cannot have body.');
      if (type && !this._headers.has('content-type')) this._headers.set('content-type', type);
      this._bytes = b;
      this._used = false;
    }
    get url() { return this._url; }
    get method() { return this._method; }
    get headers() { return this._headers; }
    get redirect() { return this._redirect; }
    get signal() { return this._signal; }
    clone() {
      if (this._used) throw new TypeError('Request.clone: Body has already been read');
      return new Request(this);
    }
    get [Symbol.toStringTag]() { return 'Request'; }
    [customInspect]() {
      return view('Request', { method: this.method, url: this.url, headers: this.headers, redirect: this.redirect, signal: this.signal });
    }
  }
  mixBody(Request);

  class Response {
    constructor(body, init) {
      init = init || {};
      const status = init.status === undefined ? 200 : Number(init.status);
      if (!Number.isInteger(status) || status < 200 || status > 599) throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`);
      const [b, type] = bodyBytes(body);
      this._status = status;
      this._statusText = init.statusText === undefined ? '' : String(init.statusText);
      this._headers = new Headers(init.headers);
      if (type && !this._headers.has('content-type')) this._headers.set('content-type', type);
      this._bytes = b;
      this._used = false;
      this._url = '';
      this._redirected = false;
      this._type = 'default';
    }
    static json(data, init) {
      const r = new Response(JSON.stringify(data), init);
      r._headers.set('content-type', 'application/json');
      return r;
    }
    static error() {
      const r = new Response(null, { status: 200 });
      r._status = 0;
      r._type = 'error';
      return r;
    }
    static redirect(url, status) {
      status = status === undefined ? 302 : status;
      if (![301, 302, 303, 307, 308].includes(status)) throw new RangeError(`Invalid status code ${status}`);
      return new Response(null, { status, headers: { location: new host.URL(String(url)).href } });
    }
    get status() { return this._status; }
    get statusText() { return this._statusText; }
    get ok() { return this._status >= 200 && this._status <= 299; }
    get headers() { return this._headers; }
    get url() { return this._url; }
    get redirected() { return this._redirected; }
    get type() { return this._type; }
    clone() {
      if (this._used) throw new TypeError('Response.clone: Body has already been read');
      const r = Object.create(Response.prototype);
      Object.assign(r, this);
      r._headers = new Headers(this._headers);
      return r;
    }
    get [Symbol.toStringTag]() { return 'Response'; }
    [customInspect]() {
      return view('Response', {
        status: this.status, statusText: this.statusText, headers: this.headers, body: this.body, bodyUsed: this.bodyUsed,
        ok: this.ok, redirected: this.redirected, type: this.type, url: this.url,
      });
    }
  }
  mixBody(Response);

  function abortError(name, msg) {
    const e = new Error(msg);
    e.name = name;
    e.code = name === 'TimeoutError' ? 23 : 20;
    return e;
  }

  // AbortSignal. A signal from AbortSignal.timeout(ms) carries its deadline,
  // which fetch hands to the host as the request's timeout; it aborts when
  // read after the deadline (it fires no event by itself, so it never keeps
  // the script alive).
  class AbortSignal {
    constructor() {
      this._aborted = false;
      this._reason = undefined;
      this._listeners = [];
      this._deadline = undefined;
      this.onabort = null;
    }
    static abort(reason) {
      const s = new AbortSignal();
      s._abort(reason === undefined ? abortError('AbortError', 'This operation was aborted') : reason);
      return s;
    }
    static timeout(ms) {
      ms = Number(ms);
      if (!(ms >= 0)) throw new TypeError('AbortSignal.timeout: ms must be a non-negative number');
      const s = new AbortSignal();
      s._deadline = Date.now() + ms;
      return s;
    }
    static any(signals) {
      const s = new AbortSignal();
      for (const x of signals) {
        if (x.aborted) { s._abort(x.reason); return s; }
        if (x._deadline !== undefined && (s._deadline === undefined || x._deadline < s._deadline)) s._deadline = x._deadline;
        x.addEventListener('abort', () => s._abort(x.reason));
      }
      return s;
    }
    _check() {
      if (!this._aborted && this._deadline !== undefined && Date.now() >= this._deadline) {
        this._abort(abortError('TimeoutError', 'The operation was aborted due to timeout'));
      }
    }
    get aborted() { this._check(); return this._aborted; }
    get reason() { this._check(); return this._reason; }
    throwIfAborted() { if (this.aborted) throw this._reason; }
    addEventListener(type, fn) { if (type === 'abort' && typeof fn === 'function') this._listeners.push(fn); }
    removeEventListener(type, fn) { this._listeners = this._listeners.filter((f) => f !== fn); }
    _abort(reason) {
      if (this._aborted) return;
      this._aborted = true;
      this._reason = reason;
      const ev = { type: 'abort', target: this };
      if (typeof this.onabort === 'function') this.onabort(ev);
      for (const fn of this._listeners.slice()) fn.call(this, ev);
    }
    get [Symbol.toStringTag]() { return 'AbortSignal'; }
    [customInspect]() { return view('AbortSignal', { aborted: this.aborted }); }
  }

  class AbortController {
    constructor() { this._signal = new AbortSignal(); }
    get signal() { return this._signal; }
    abort(reason) { this._signal._abort(reason === undefined ? abortError('AbortError', 'This operation was aborted') : reason); }
  }

  const codes = {
    denied: 'ERR_WASMSAND_NETWORK_DENIED', budget: 'ERR_WASMSAND_NETWORK_BUDGET', timeout: 'ETIMEDOUT',
    resolve: 'ENOTFOUND', connect: 'ECONNREFUSED', badurl: 'ERR_INVALID_URL', partial: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
    failed: 'ECONNRESET',
  };

  // failed is the TypeError fetch rejects with: "fetch failed: " and the
  // reason, which is also the message of its cause.
  function failed(msg, code) {
    const cause = new Error(msg);
    cause.code = code;
    const e = new TypeError(`fetch failed: ${msg}`);
    e.cause = cause;
    e.code = code;
    return e;
  }

  const maxRedirects = 20;

  function doFetch(input, init) {
    const req = new Request(input, init);
    const signal = req.signal;
    if (signal && signal.aborted) throw signal.reason;
    let url = req.url;
    let method = req.method;
    let body = req._bytes;
    let headers = Array.from(req.headers.entries());
    for (let hop = 0; ; hop++) {
      const scheme = new host.URL(url).protocol;
      if (scheme !== 'http:' && scheme !== 'https:') throw failed(`${scheme.slice(0, -1)} URLs are not supported: ${url}`, 'ERR_INVALID_URL');
      let timeout = 0;
      if (signal && signal._deadline !== undefined) timeout = Math.max(1, Math.ceil(signal._deadline - Date.now()));
      const r = host.httpRequest(method, url, headers, body, timeout);
      if (r.error !== undefined) {
        if (r.kind === 'timeout' && signal && signal._deadline !== undefined) {
          signal._abort(abortError('TimeoutError', 'The operation was aborted due to timeout'));
          throw signal.reason;
        }
        throw failed(r.error, codes[r.kind] || 'ECONNRESET');
      }
      const res = new Response(null);
      res._status = r.status;
      res._statusText = r.statusText;
      res._headers = new Headers(r.headers.map(([k, v]) => [k.toLowerCase(), v]));
      res._bytes = method === 'HEAD' ? null : r.body;
      res._url = url;
      res._redirected = hop > 0;
      res._type = 'basic';
      const loc = res._headers.get('location');
      if (![301, 302, 303, 307, 308].includes(r.status) || loc === null || req.redirect === 'manual') return res;
      if (req.redirect === 'error') throw failed(`unexpected redirect to ${loc}`, 'ERR_WASMSAND_REDIRECT');
      if (hop >= maxRedirects) throw failed('redirect count exceeded', 'ERR_WASMSAND_REDIRECT');
      const next = new host.URL(loc, url);
      if (next.origin !== new host.URL(url).origin) headers = headers.filter(([k]) => !['authorization', 'cookie', 'proxy-authorization'].includes(k));
      url = next.href;
      if (r.status === 303 ? method !== 'HEAD' : (r.status === 301 || r.status === 302) && method === 'POST') {
        method = 'GET';
        body = null;
        headers = headers.filter(([k]) => !['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'].includes(k));
      }
    }
  }

  function fetch(input, init) {
    return new Promise((resolve) => resolve(doFetch(input, init)));
  }

  host.fetch = fetch;
  host.Headers = Headers;
  host.Request = Request;
  host.Response = Response;
  host.AbortController = AbortController;
  host.AbortSignal = AbortSignal;
})(__wasmsand);
