// Differential corpus: each snippet (separated by lines "//---") runs as
// `node -e SNIPPET` in the real Node and in the sandbox's node; stdout and
// the exit status must agree. Snippets must not depend on engine-specific
// text (error stacks, V8 messages).
//---
console.log(1 + 2)
//---
console.log("hello", "world", 42, true, null, undefined)
//---
let x = 1; const y = 2; var z = x + y; console.log(z)
//---
class A { constructor(n) { this.n = n } get double() { return this.n * 2 } static make() { return new A(5) } }; console.log(A.make().double)
//---
class A { constructor() { this.a = 1 } }; class B extends A { constructor() { super(); this.b = 2 } }; console.log(new B())
//---
const f = (a, b = 2, ...rest) => a + b + rest.length; console.log(f(1), f(1, 3, 4, 5))
//---
const { a, b: { c }, ...rest } = { a: 1, b: { c: 2 }, d: 3, e: 4 }; console.log(a, c, rest)
//---
const [p, , q = 9, ...r] = [1, 2, undefined, 4, 5]; console.log(p, q, r)
//---
console.log([...'abc', ...[1, 2]], { ...{ a: 1 }, b: 2 })
//---
const name = 'x'; console.log(`a ${name} b ${1 + 1}`, String.raw`\n${1}`)
//---
function* g() { yield 1; yield* [2, 3]; return 4 }; console.log([...g()]); const it = g(); console.log(it.next(), it.next())
//---
Promise.resolve(1).then(v => console.log('then', v)); console.log('sync')
//---
(async () => { const v = await new Promise(r => setTimeout(() => r(7), 10)); console.log('awaited', v) })()
//---
const o = { a: { b: null } }; console.log(o?.a?.b?.c, o.x?.y, o.a.b ?? 'dflt', 0 ?? 1, null || 'or')
//---
console.log(2n ** 64n, typeof 1n, BigInt(10) * 3n, 7n / 2n)
//---
const m = new Map([['a', 1], ['b', { c: 2 }]]); m.set(3, [4]); console.log(m, m.size, m.get('b'))
//---
const s = new Set([1, 2, 2, 3, 'x']); console.log(s, s.has(2), [...s].length)
//---
console.log(JSON.stringify({ a: [1, { b: 2 }], c: 'x' }), JSON.stringify({ a: 1, b: [1, 2] }, null, 2))
//---
console.log(JSON.parse('{"a":[1,2,{"b":null}],"c":"d"}'))
//---
console.log('a1b22c333'.match(/\d+/g), 'x-y_z'.replace(/[-_]/g, '.'), /(?<year>\d{4})/.exec('in 2024').groups.year)
//---
console.log('abc'.padStart(5, '*'), 'abc'.at(-1), [1, 2, 3].at(-1), 'a,b'.split(','), ' x '.trim())
//---
console.log([3, 1, 2].sort(), [1, 2, 3].map(x => x * 2).filter(x => x > 2).reduce((a, b) => a + b, 0))
//---
console.log([1, [2, [3, [4]]]].flat(), [1, [2, [3, [4]]]].flat(Infinity), [[1, 2], [3]].flatMap(x => x))
//---
console.log(Object.entries({ a: 1, b: 2 }), Object.fromEntries([['x', 1]]), Object.keys([4, 5]))
//---
console.log([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27])
//---
console.log(Array.from({ length: 120 }, (_, i) => i))
//---
console.log(['apple', 'banana', 'cherry', 'date', 'elderberry', 'fig', 'grape', 'honeydew'])
//---
console.log({ a: { b: { c: { d: { e: 1 } } } } })
//---
console.log({ a: { b: { c: {} } } }, [[[[1]]]], [[[]]])
//---
console.log({ 'a-b': 1, 'c d': 2, e_f: 3, $g: 4, '1x': 5, 22: 6 })
//---
console.log(['it\'s', "say \"hi\"", `both ' and "`, 'new\nline', 'tab\t', '\u0001'])
//---
console.log([undefined, null, NaN, -0, 0, Infinity, -Infinity, 1e21, 1.5e-7, 0.1 + 0.2])
//---
console.log([function foo() {}, () => {}, class Bar {}, async function baz() {}, function* gen() {}, Math.max])
//---
console.log(Symbol('s'), [Symbol.iterator], { [Symbol('k')]: 1 })
//---
const a = [1, 2, 3]; a.extra = 'x'; console.log(a)
//---
const c = { name: 'c' }; c.self = c; c.list = [c]; console.log(c)
//---
console.log(new Date(0).toISOString(), new Date(Date.UTC(2020, 1, 29)).getUTCDay())
//---
console.log([new Date(86400000)], { d: new Date(0) })
//---
console.log(/ab+c/gi, [/x/], new RegExp('a/b'))
//---
console.log(new Error('boom').message, new TypeError('t').name, new RangeError('r') instanceof Error)
//---
try { null.x } catch (e) { console.log(e instanceof TypeError, e.name) }
//---
try { throw { code: 42 } } catch ({ code }) { console.log('caught', code) } finally { console.log('finally') }
//---
console.log('%s is %d years and %i days, %f', 'Bob', 42.5, 3.9, '1.5', 'extra')
//---
console.log('%o %O %j %%', [1], { a: 1 }, { b: 2 })
//---
console.log('%c styled', 'color: red')
//---
console.log('a%sb', 'X', { y: 1 })
//---
console.log(Number('12px'), parseInt('12px'), parseFloat('3.14abc'), (255).toString(16), (0.000001234).toPrecision(2))
//---
console.log((1234.5678).toFixed(2), Number.MAX_SAFE_INTEGER, Number.EPSILON > 0, Math.round(2.5), Math.round(-2.5))
//---
console.log(typeof null, typeof undefined, typeof {}, typeof [], typeof '', typeof 1, typeof Symbol(), typeof (() => 1))
//---
console.log([1, 2, 3].includes(2), 'abc'.includes('b'), [NaN].includes(NaN), [NaN].indexOf(NaN))
//---
const wm = new WeakMap(); const k = {}; wm.set(k, 1); console.log(wm.get(k), wm.has({}))
//---
console.log(new Uint8Array([1, 2, 300]), new Float64Array(2), new Int16Array([-1]))
//---
console.log(Buffer.from('hello').toString('base64'), Buffer.from('aGk=', 'base64').toString(), Buffer.from('hi').toString('hex'))
//---
console.log(Buffer.from('héllo'), Buffer.byteLength('héllo'), Buffer.concat([Buffer.from('a'), Buffer.from('b')]).toString())
//---
console.log(Buffer.alloc(3), Buffer.from([1, 2, 3]).equals(Buffer.from([1, 2, 3])), Buffer.isBuffer(Buffer.alloc(0)))
//---
const p = require('path'); console.log(p.join('/a/b', '../c', './d.txt'), p.basename('/x/y.js', '.js'), p.extname('f.tar.gz'), p.dirname('/a/b/c'))
//---
const p = require('path'); console.log(p.normalize('/a//b/../c/.'), p.normalize(''), p.normalize('a/'), p.join(), p.isAbsolute('a'), p.isAbsolute('/a'))
//---
const p = require('path'); console.log(p.relative('/a/b/c', '/a/d'), p.relative('/a', '/a/b/c'), p.resolve('/x', 'y', '..', 'z'))
//---
const p = require('path'); console.log(p.parse('/home/u/file.txt'), p.format({ dir: '/a', name: 'b', ext: '.c' }))
//---
const p = require('path'); console.log(p.basename('/a/b/'), p.dirname('/a/b/'), p.dirname('a'), p.extname('.bashrc'), p.extname('a.'), p.sep, p.delimiter)
//---
const util = require('util'); console.log(util.format('%s=%d', 'x', 5), util.inspect({ a: [1, { b: 2 }] }, { depth: 0 }))
//---
const util = require('util'); console.log(util.inspect('str'), util.inspect([1, 2], { compact: false }), util.isDeepStrictEqual({ a: [1] }, { a: [1] }))
//---
const util = require('util'); console.log(util.inspect({ a: { b: { c: { d: { e: 1 } } } } }, { depth: Infinity }))
//---
const util = require('util'); const f = util.promisify((x, cb) => cb(null, x * 2)); f(21).then(v => console.log(v))
//---
const EventEmitter = require('events'); const e = new EventEmitter(); e.on('x', (a, b) => console.log('x', a, b)); e.once('y', () => console.log('y')); e.emit('x', 1, 2); e.emit('y'); console.log(e.emit('y'), e.listenerCount('x'))
//---
const assert = require('assert'); assert.strictEqual(1, 1); assert.deepStrictEqual({ a: [1] }, { a: [1] }); try { assert.strictEqual(1, 2) } catch (e) { console.log(e.code, e.name) }
//---
const assert = require('assert'); assert.throws(() => { throw new TypeError('x') }, TypeError); console.log('ok')
//---
setTimeout(() => console.log('t2'), 20); setTimeout(() => console.log('t1'), 10); console.log('t0')
//---
let n = 0; const id = setInterval(() => { n++; console.log('tick', n); if (n === 3) clearInterval(id) }, 5)
//---
const t = setTimeout(() => console.log('never'), 10); clearTimeout(t); console.log('cleared')
//---
setTimeout((a, b) => console.log(a + b), 1, 2, 3)
//---
queueMicrotask(() => console.log('micro')); Promise.resolve().then(() => console.log('promise')); console.log('sync')
//---
setTimeout(() => console.log('timeout'), 0); Promise.resolve().then(() => console.log('micro')); console.log('main')
//---
(async () => { const r = await Promise.all([1, Promise.resolve(2), new Promise(r => setTimeout(() => r(3), 5))]); console.log(r) })()
//---
Promise.allSettled([Promise.reject(new Error('no')), 1]).then(r => console.log(r.map(x => x.status)))
//---
Promise.race([new Promise(r => setTimeout(() => r('slow'), 50)), new Promise(r => setTimeout(() => r('fast'), 5))]).then(console.log)
//---
Promise.any([Promise.reject(1), Promise.resolve(2)]).then(v => console.log('any', v))
//---
(async () => { try { await Promise.reject(new Error('bad')) } catch (e) { console.log('caught', e.message) } })()
//---
async function* ag() {}; console.log('skip')
//---
console.log(process.argv.length, typeof process.argv[0], process.exitCode)
//---
console.log(typeof process.env, typeof process.cwd(), process.platform)
//---
process.stdout.write('no newline'); process.stdout.write(' then\n')
//---
process.exitCode = 3; console.log('set exit code')
//---
console.log('before'); process.exit(5); console.log('after')
//---
process.on('exit', (c) => console.log('exiting', c)); console.log('main')
//---
console.error('to stderr'); console.log('to stdout')
//---
console.table([{ a: 1, b: 'x' }, { a: 2, c: true }])
//---
console.table([[1, 2], [3, 4]])
//---
console.table({ r1: { c: 1 }, r2: { c: 2 } })
//---
console.group('G'); console.log('inside'); console.group(); console.log('deeper'); console.groupEnd(); console.groupEnd(); console.log('out')
//---
console.count(); console.count(); console.count('x'); console.countReset(); console.count()
//---
console.dir({ a: { b: { c: { d: 1 } } } })
//---
console.info('info'); console.debug('debug')
//---
console.log([[1, 2, [3, 4, [5, [6]]]], { a: [{ b: { c: 1 } }] }])
//---
console.log({ f() {}, g: function () {}, h: () => {}, async i() {} })
//---
console.log(Object.create(null), Object.assign(Object.create(null), { a: 1 }))
//---
class Point { constructor(x, y) { this.x = x; this.y = y } toString() { return `(${this.x}, ${this.y})` } }; console.log(new Point(1, 2), `${new Point(3, 4)}`, [new Point(0, 0)])
//---
class Empty {}; console.log(new Empty(), [new Empty()], { e: new Empty() })
//---
console.log({ get a() { return 1 }, set b(v) {}, get c() { return 1 }, set c(v) {} })
//---
console.log([1, , 3], new Array(5), [, ,])
//---
console.log(new Number(3), new String('ab'), new Boolean(false))
//---
console.log([true, false], { t: true }, [null], [undefined])
//---
console.log('x'.repeat(100))
//---
console.log(['x'.repeat(30), 'y'.repeat(30), 'z'.repeat(30)])
//---
console.log({ longKeyNumberOne: 'value one', longKeyNumberTwo: 'value two', longKeyNumberThree: 'three' })
//---
console.log({ a: 'line1\nline2 is a longer line that goes on and on and on', b: 1 })
//---
console.log(Array.from({ length: 30 }, (_, i) => 'item' + i))
//---
console.log(Array.from({ length: 10 }, (_, i) => ({ id: i })))
//---
console.log([1.5, 22.25, 333, 4, 5, 6, 7, -8])
//---
console.log(new Map([[{ a: 1 }, [1, 2]], ['k', new Set([1])]]))
//---
console.log([new Map(), new Set(), {}, []], new Map([[1, new Map([[2, new Map([[3, new Map()]])]])]]))
//---
const obj = { arr: Array.from({ length: 8 }, (_, i) => i * 1000) }; console.log(obj)
//---
label: for (let i = 0; i < 3; i++) { for (let j = 0; j < 3; j++) { if (j === 1) continue label; if (i === 2) break label; console.log(i, j) } }
//---
let s = 0; for (const v of [1, 2, 3]) s += v; for (const k in { a: 1, b: 2 }) s += k.length; let i = 0; do { i++ } while (i < 5); while (i < 10) i += 2; console.log(s, i)
//---
switch (3) { case 1: console.log(1); case 3: console.log(3); case 4: console.log(4); break; default: console.log('d') }
//---
const sym = Symbol.for('app'); console.log(Symbol.keyFor(sym), sym.description, sym === Symbol.for('app'))
//---
const proxy = new Proxy({}, { get: (t, k) => `got ${String(k)}` }); console.log(proxy.foo, Reflect.has({ a: 1 }, 'a'), Reflect.ownKeys({ a: 1, [Symbol('s')]: 2 }).length)
//---
const frozen = Object.freeze({ a: 1 }); frozen.a = 2; console.log(frozen.a, Object.isFrozen(frozen))
//---
'use strict'; try { undefinedVariable } catch (e) { console.log(e.name) }
//---
console.log(encodeURIComponent('a b&c/d'), decodeURIComponent('%E2%9C%93'), encodeURI('http://x/a b'), escape === undefined)
//---
console.log([..."héllo wörld"].length, 'ß'.toUpperCase(), 'İ'.toLowerCase().length, 'abc'.localeCompare('abd'))
//---
console.log('😀'.length, [...'😀'].length, '😀'.codePointAt(0), String.fromCodePoint(128512))
//---
console.log(Math.max(1, 5, 3), Math.min(), Math.abs(-2), Math.floor(-1.5), Math.trunc(-1.5), Math.sign(-3), Math.hypot(3, 4), Math.cbrt(27))
//---
console.log(Number.isInteger(5.0), Number.isSafeInteger(2 ** 53), (25).toString(2), parseInt('ff', 16), Number('0x10'), +'  12  ')
//---
console.log([10, 1, 5, 100].sort(), [10, 1, 5, 100].sort((a, b) => a - b), ['b', 'a', 'C'].sort())
//---
const arr = [5, 1, 4]; console.log(arr.toSorted ? 'has toSorted' : 'no toSorted', arr.findLast(x => x > 1), arr.findLastIndex(x => x > 10))
//---
console.log(Object.groupBy ? Object.groupBy([1, 2, 3], x => x % 2 ? 'odd' : 'even') : 'no groupBy')
//---
console.log(structuredClone({ a: [1, { b: 2 }], d: new Date(0) }))
//---
console.log(new URL('https://user@example.com:8080/p/a/t/h?query=string#hash').pathname, new URL('https://example.com/a?x=1&y=2').searchParams.get('y'))
//---
const u = new URL('https://example.com/a/b?x=1'); console.log(u.host, u.origin, u.search, u.hash, u.protocol, String(u))
//---
const sp = new URLSearchParams('a=1&b=2&a=3'); console.log(sp.getAll('a'), sp.toString(), [...sp.keys()])
//---
console.log(new TextEncoder().encode('hé'), new TextDecoder().decode(new Uint8Array([104, 195, 169])))
//---
console.log(atob('aGVsbG8='), btoa('hello'))
//---
const os = require('os'); console.log(os.EOL === '\n', typeof os.tmpdir(), typeof os.homedir())
//---
console.log(typeof require, typeof module, typeof exports, typeof __filename)
//---
console.log(typeof globalThis, globalThis === global, typeof setTimeout, typeof queueMicrotask, typeof structuredClone)
//---
const fn = function named() {}; console.log(fn.name, (() => {}).name, fn.length, ((a, b) => 0).length)
//---
console.log([1, 2, 3].join('-'), [1, [2, [3]]].toString(), String([null, undefined]), String({}))
//---
console.log(Array.isArray([]), Array.of(7), new Array(3).fill(0), [1, 2, 3].copyWithin(0, 1), [1, 2, 3].reverse())
//---
console.log([1, 2, 3, 4].slice(1, -1), [1, 2, 3, 4].splice(1, 2), 'abcdef'.substring(4, 1), 'abcdef'.slice(-2))
//---
const d = new Date(Date.UTC(2024, 0, 15, 10, 30)); console.log(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCHours(), d.toISOString(), JSON.stringify(d))
//---
console.log(new Date('2024-03-01T00:00:00Z').getTime(), Date.UTC(1970, 0, 2), isNaN(new Date('garbage')))
//---
const counter = (() => { let c = 0; return { inc: () => ++c, get: () => c } })(); counter.inc(); counter.inc(); console.log(counter.get())
//---
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }; console.log(fib(20))
//---
const memo = new Map(); const f = n => n < 2 ? BigInt(n) : memo.get(n) ?? (memo.set(n, f(n - 1) + f(n - 2)), memo.get(n)); console.log(f(90))
//---
let s = ''; for (let i = 0; i < 5; i++) s += String.fromCharCode(65 + i); console.log(s, s.split('').reverse().join(''))
//---
const data = [{ n: 'a', v: 3 }, { n: 'b', v: 1 }, { n: 'c', v: 2 }]; console.log(data.sort((x, y) => x.v - y.v).map(d => d.n).join(''))
//---
const words = 'the quick brown fox jumps over the lazy dog the end'.split(' '); const freq = {}; for (const w of words) freq[w] = (freq[w] || 0) + 1; console.log(freq)
//---
console.log(JSON.stringify([new Map(), new Set([1]), undefined, () => 1, Symbol('x'), NaN, -0]))
//---
console.log(JSON.stringify({ date: new Date(0), nested: { toJSON() { return 'custom' } } }))
//---
try { JSON.parse('{bad') } catch (e) { console.log(e.name) }
//---
try { BigInt(1.5) } catch (e) { console.log(e.name) }
//---
try { new Array(-1) } catch (e) { console.log(e.name) }
//---
console.log(Object.getOwnPropertyNames(class { static s() {} m() {} }.prototype))
//---
class Temp { static #count = 0; static inc() { return ++Temp.#count } }; Temp.inc(); console.log(Temp.inc())
//---
class Acc { #v = 1; get v() { return this.#v } }; console.log(new Acc().v, new Acc())
//---
const it = { from: 1, to: 3, [Symbol.iterator]() { let c = this.from, t = this.to; return { next: () => c <= t ? { value: c++, done: false } : { value: undefined, done: true } } } }; console.log([...it], Array.from(it, x => x * 10))
//---
const tag = (s, ...v) => s.raw.join('|') + v.join(','); console.log(tag`a${1}b${2}c`)
//---
let a1 = 1, b1 = 2; [a1, b1] = [b1, a1]; console.log(a1, b1)
//---
const nested = { l1: { l2: { l3: { l4: 'deep' } } } }; const { l1: { l2: { l3: { l4 } } } } = nested; console.log(l4)
//---
console.log(0.1 * 3, 1 / 3, 100 / 3, 2 ** 0.5, 1e300 * 1e10, -1e-7, 123456789012345680000)
//---
console.log([0, -0, +0].map(x => Object.is(x, -0)), -0 === 0, [-0], String(-0), `${-0}`)
//---
console.log(void 0, (1, 2), !!'', !!'0', [] + [], [] + {}, 1 + '2', '3' * '4', true + 1)
//---
console.log(Number.parseFloat('1e3'), (1e21).toString(), (123.456).toExponential(2), (0).toFixed(2), (-1.005).toFixed(2))
//---
console.log(Intl === undefined ? 'no Intl' : typeof Intl)
//---
const fs = require('fs'); fs.writeFileSync('corpus-tmp.txt', 'line1\nline2\n'); fs.appendFileSync('corpus-tmp.txt', 'line3\n'); console.log(fs.readFileSync('corpus-tmp.txt', 'utf8').split('\n').length, fs.existsSync('corpus-tmp.txt')); fs.unlinkSync('corpus-tmp.txt'); console.log(fs.existsSync('corpus-tmp.txt'))
//---
const fs = require('fs'); fs.mkdirSync('corpus-d/a/b', { recursive: true }); fs.writeFileSync('corpus-d/a/f.txt', 'x'); console.log(fs.readdirSync('corpus-d/a').sort(), fs.statSync('corpus-d/a').isDirectory(), fs.statSync('corpus-d/a/f.txt').size); fs.rmSync('corpus-d', { recursive: true }); console.log(fs.existsSync('corpus-d'))
//---
const fs = require('fs'); try { fs.readFileSync('no-such-file-here') } catch (e) { console.log(e.code, e.syscall, e.message) }
//---
const fs = require('fs'); fs.promises.writeFile('corpus-p.txt', 'abc').then(() => fs.promises.readFile('corpus-p.txt', 'utf8')).then(s => { console.log('read', s); fs.unlinkSync('corpus-p.txt') })
//---
const fs = require('fs'); fs.writeFileSync('corpus-b.bin', Buffer.from([0, 1, 255])); console.log(fs.readFileSync('corpus-b.bin')); fs.unlinkSync('corpus-b.bin')
//---
const fs = require('fs'); fs.writeFile('corpus-cb.txt', 'cb', (err) => { console.log('written', err); fs.readFile('corpus-cb.txt', 'utf8', (err, d) => { console.log(err, d); fs.unlinkSync('corpus-cb.txt') }) })
//---
const fs = require('fs'); fs.mkdirSync('corpus-t'); fs.writeFileSync('corpus-t/x', ''); console.log(fs.readdirSync('corpus-t', { withFileTypes: true }).map(d => [d.name, d.isFile(), d.isDirectory()])); fs.rmSync('corpus-t', { recursive: true, force: true })
//---
const fs = require('fs'); try { fs.mkdirSync('.') } catch (e) { console.log(e.code) }; try { fs.rmdirSync('no-such-dir') } catch (e) { console.log(e.code) }
//---
const cp = require('child_process'); console.log(cp.execSync('echo hi').toString().trim(), cp.execSync('printf abc', { encoding: 'utf8' }))
//---
const cp = require('child_process'); const r = cp.spawnSync('sh', ['-c', 'echo out; echo err >&2; exit 3'], { encoding: 'utf8' }); console.log(r.status, JSON.stringify(r.stdout), JSON.stringify(r.stderr))
//---
const cp = require('child_process'); try { cp.execSync('exit 4', { stdio: 'pipe' }) } catch (e) { console.log('status', e.status) }
//---
const cp = require('child_process'); console.log(cp.execSync('cat', { input: 'from input' }).toString())
//---
const cp = require('child_process'); console.log(cp.execFileSync('echo', ['a', 'b'], { encoding: 'utf8' }))
//---
try { require('./no-such-module') } catch (e) { console.log(e.code) }
//---
const { StringDecoder } = require('string_decoder'); const sd = new StringDecoder('utf8'); const b = Buffer.from('€'); console.log(sd.write(b.subarray(0, 1)) + '|' + sd.write(b.subarray(1)))
//---
const { setTimeout: sleep } = require('timers/promises'); sleep(5, 'v').then(v => console.log('slept', v))
//---
console.log([1, 2, 3].entries().next(), new Map([[1, 2]]).keys().next(), typeof [][Symbol.iterator])
//---
console.log(Object.getPrototypeOf(async function () {}).constructor.name, Object.getPrototypeOf(function* () {}).constructor.name)
//---
const g1 = (function* () { const x = yield 1; console.log('got', x) })(); g1.next(); g1.next('sent')
//---
console.log(Array.prototype.concat.call([1], [2], 3), [3, 2, 1].indexOf(1), [1, 2].lastIndexOf(2), [1, 2, 3].some(x => x > 2), [1, 2].every(x => x > 0))
//---
console.log(new Set([1, 2]).size, [...new Set('hello')].join(''), new Map(Object.entries({ a: 1 })).get('a'))
//---
console.log(Number('1_000'), 1_000_000, 0b101, 0o17, 0xff, 1e3)
//---
console.log(`multi
line`, 'a\\b', '\x41', '\u{1F600}'.length)
//---
const big = 12345678901234567890n; console.log(big, big.toString(16), BigInt.asUintN(8, 257n), -5n % 3n, typeof (5n > 3))
//---
console.log([1n, 2n], { n: 10n }, new Map([[1n, 2n]]))
//---
console.log(Math.max(...[1, 5, 3]), [..."ab"].map((c, i) => c + i), Object.entries({ x: 1 }).map(([k, v]) => k + v))
