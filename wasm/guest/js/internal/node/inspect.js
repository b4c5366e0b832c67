// util.inspect and util.format as Node prints them (wasmsand's own code,
// following Node's documented output: compact 3, breakLength 80, depth 2,
// arrays of more than 6 items grouped in columns, at most 100 items).
'use strict';
(function (host) {
  const kObjectType = 0, kArrayType = 1, kArrayExtrasType = 2;
  const customInspect = Symbol.for('nodejs.util.inspect.custom');
  const objToString = Object.prototype.toString;
  const fnToString = Function.prototype.toString;
  const hasOwn = Object.prototype.hasOwnProperty;
  const keyRe = /^[a-zA-Z_][a-zA-Z_0-9]*$/;

  const meta = [];
  for (let i = 0; i < 0x20; i++) meta.push('\\x' + i.toString(16).toUpperCase().padStart(2, '0'));
  meta[8] = '\\b'; meta[9] = '\\t'; meta[10] = '\\n'; meta[12] = '\\f'; meta[13] = '\\r';

  function strEscape(str) {
    let quote = "'";
    if (str.includes("'")) {
      if (!str.includes('"')) quote = '"';
      else if (!str.includes('`') && !str.includes('${')) quote = '`';
    }
    let out = '';
    for (let i = 0; i < str.length; i++) {
      const c = str.charCodeAt(i);
      const ch = str[i];
      if (ch === quote || ch === '\\') out += '\\' + ch;
      else if (c < 0x20) out += meta[c];
      else if (c === 0x7f) out += '\\x7F';
      else if (c >= 0xd800 && c <= 0xdfff) {
        const next = str.charCodeAt(i + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) { out += ch + str[i + 1]; i++; }
        else out += '\\u' + c.toString(16).toUpperCase();
      } else out += ch;
    }
    return quote + out + quote;
  }

  function formatNumber(n) {
    if (Object.is(n, -0)) return '-0';
    return String(n);
  }

  function formatPrimitive(v, ctx) {
    switch (typeof v) {
      case 'string': {
        let trailer = '';
        if (v.length > ctx.maxStringLength) {
          const remaining = v.length - ctx.maxStringLength;
          v = v.slice(0, ctx.maxStringLength);
          trailer = `... ${remaining} more character${remaining > 1 ? 's' : ''}`;
        }
        if (v.length > 16 && v.length > ctx.breakLength - ctx.indentationLvl - 4) {
          const lines = v.split(/(?<=\n)/);
          if (lines.length > 1) {
            return lines.map((l) => strEscape(l)).join(` +\n${' '.repeat(ctx.indentationLvl + 2)}`) + trailer;
          }
        }
        return strEscape(v) + trailer;
      }
      case 'number': return formatNumber(v);
      case 'bigint': return `${v}n`;
      case 'boolean': return `${v}`;
      case 'undefined': return 'undefined';
      case 'symbol': return v.toString();
    }
    return String(v);
  }

  function getConstructorName(obj) {
    let o = obj;
    let depth = 0;
    while (o !== null && o !== undefined) {
      const d = Object.getOwnPropertyDescriptor(o, 'constructor');
      if (d !== undefined && typeof d.value === 'function' && d.value.name !== '') {
        return d.value.name;
      }
      o = Object.getPrototypeOf(o);
      depth++;
      if (depth > 1000) break;
    }
    return null;
  }

  function getPrefix(constructor, tag, fallback, size) {
    if (constructor === null) {
      if (tag !== '' && fallback !== tag) return `[${fallback}${size}: null prototype] [${tag}] `;
      return `[${fallback}${size}: null prototype] `;
    }
    if (tag !== '' && constructor !== tag) return `${constructor}${size} [${tag}] `;
    return `${constructor}${size} `;
  }

  function isError(v) {
    return v instanceof Error || objToString.call(v) === '[object Error]';
  }

  function getKeys(value) {
    const keys = Object.keys(value);
    const syms = Object.getOwnPropertySymbols(value).filter((s) => Object.prototype.propertyIsEnumerable.call(value, s));
    return keys.concat(syms);
  }

  function isIndex(k) {
    if (typeof k !== 'string') return false;
    const n = Number(k);
    return String(n >>> 0) === k && n >>> 0 !== 4294967295;
  }

  function formatValue(ctx, value, recurseTimes, typedArray) {
    if (typeof value !== 'object' && typeof value !== 'function') return formatPrimitive(value, ctx);
    if (value === null) return 'null';
    if (ctx.customInspect) {
      let fn;
      try { fn = value[customInspect]; } catch (e) { fn = undefined; }
      if (typeof fn === 'function' && fn !== inspect) {
        const depth = ctx.depth === null ? null : ctx.depth - recurseTimes;
        const ret = fn.call(value, depth, Object.assign({}, ctx.opts, { depth }), inspect);
        if (ret !== value) {
          if (typeof ret !== 'string') return formatValue(ctx, ret, recurseTimes);
          return ret.replace(/\n/g, `\n${' '.repeat(ctx.indentationLvl)}`);
        }
      }
    }
    if (ctx.seen.includes(value)) {
      let index = 1;
      if (ctx.circular === undefined) {
        ctx.circular = new Map();
        ctx.circular.set(value, index);
      } else {
        index = ctx.circular.get(value);
        if (index === undefined) {
          index = ctx.circular.size + 1;
          ctx.circular.set(value, index);
        }
      }
      return `[Circular *${index}]`;
    }
    return formatRaw(ctx, value, recurseTimes, typedArray);
  }

  function getFunctionBase(value, constructor, tag) {
    let src = '';
    try { src = fnToString.call(value); } catch (e) { src = ''; }
    if (src.startsWith('class') && /^class\b/.test(src)) {
      let base = `[class ${value.name || '(anonymous)'}`;
      const m = /^class\s+[\w$]*\s*extends\s+([\w$.]+)/.exec(src);
      if (m) base += ` extends ${m[1]}`;
      else if (!value.name) base = '[class (anonymous)';
      return base + ']';
    }
    let type = 'Function';
    if (constructor === 'Function' && /^async\b/.test(src)) constructor = /^async\s*(function\s*)?\*/.test(src) ? 'AsyncGeneratorFunction' : 'AsyncFunction';
    if (constructor === 'AsyncFunction' || constructor === 'GeneratorFunction' || constructor === 'AsyncGeneratorFunction') type = constructor;
    let base = `[${type}`;
    if (constructor === null) base += ' (null prototype)';
    if (value.name === '' || typeof value.name !== 'string') base += ' (anonymous)';
    else base += `: ${value.name}`;
    base += ']';
    if (constructor !== type && constructor !== null && constructor !== 'Function') base += ` ${constructor}`;
    if (tag !== '' && constructor !== tag) base += ` [${tag}]`;
    return base;
  }

  function formatError(err, constructor, tag, ctx, keys) {
    const name = err.name != null ? String(err.name) : 'Error';
    const message = err.message != null ? String(err.message) : '';
    let stack = typeof err.stack === 'string' ? err.stack : '';
    if (stack === '') stack = message ? `${name}: ${message}` : name;
    stack = stack.replace(/\n\tat /g, '\n    at ');
    for (const k of ['name', 'message', 'stack']) {
      const i = keys.indexOf(k);
      if (i !== -1 && (k !== 'name' || stack.includes(err[k]))) keys.splice(i, 1);
    }
    if (!/\n\s+at /.test(stack)) stack = `[${stack}]`;
    if (ctx.indentationLvl !== 0) {
      stack = stack.replace(/\n/g, `\n${' '.repeat(ctx.indentationLvl)}`);
    }
    return stack;
  }

  function formatRaw(ctx, value, recurseTimes, typedArray) {
    let keys;
    const constructor = getConstructorName(value);
    let tag = value[Symbol.toStringTag];
    if (typeof tag !== 'string' || (tag !== '' && (ctx.showHidden ? hasOwn : Object.prototype.propertyIsEnumerable).call(value, Symbol.toStringTag))) tag = '';
    let base = '';
    let formatter = getEmptyFormatArray;
    let braces;
    let noIterator = true;
    let extrasType = kObjectType;
    const filterIndexKeys = (ks) => ks.filter((k) => !isIndex(k));

    if (Array.isArray(value)) {
      keys = filterIndexKeys(getKeys(value));
      const prefix = (constructor !== 'Array' || tag !== '') ? getPrefix(constructor, tag, 'Array', `(${value.length})`) : '';
      braces = [`${prefix}[`, ']'];
      if (value.length === 0 && keys.length === 0) return `${braces[0]}]`;
      extrasType = kArrayExtrasType;
      formatter = formatArray;
      noIterator = false;
    } else if (value instanceof Set) {
      keys = getKeys(value);
      const prefix = getPrefix(constructor, tag, 'Set', `(${value.size})`);
      formatter = formatSet;
      if (value.size === 0 && keys.length === 0) return `${prefix}{}`;
      braces = [`${prefix}{`, '}'];
      noIterator = false;
    } else if (value instanceof Map) {
      keys = getKeys(value);
      const prefix = getPrefix(constructor, tag, 'Map', `(${value.size})`);
      formatter = formatMap;
      if (value.size === 0 && keys.length === 0) return `${prefix}{}`;
      braces = [`${prefix}{`, '}'];
      noIterator = false;
    } else if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
      keys = filterIndexKeys(getKeys(value));
      const fallback = constructor || 'TypedArray';
      const prefix = getPrefix(constructor, tag, fallback, `(${value.length})`);
      braces = [`${prefix}[`, ']'];
      if (value.length === 0 && keys.length === 0) return `${braces[0]}]`;
      formatter = formatTypedArray;
      extrasType = kArrayExtrasType;
      noIterator = false;
    }
    if (noIterator) {
      keys = getKeys(value);
      braces = ['{', '}'];
      const str = objToString.call(value);
      if (typeof value === 'function') {
        base = getFunctionBase(value, constructor, tag);
        if (keys.length === 0) return base;
      } else if (str === '[object Arguments]') {
        braces[0] = '[Arguments] [';
        braces[1] = ']';
        extrasType = kArrayExtrasType;
        formatter = formatArguments;
        keys = filterIndexKeys(keys);
        if (value.length === 0 && keys.length === 0) return '[Arguments] []';
      } else if (constructor === 'Object' && tag === '' && !isError(value) && str === '[object Object]' && !(value instanceof Promise)) {
        if (keys.length === 0) return '{}';
      } else if (value instanceof RegExp || str === '[object RegExp]') {
        base = RegExp.prototype.toString.call(value).replace(/\\u002f/gi, '\\/');
        const prefix = getPrefix(constructor, tag, 'RegExp', '');
        if (prefix !== 'RegExp ') base = `${prefix}${base}`;
        keys = keys.filter((k) => k !== 'lastIndex');
        if (keys.length === 0) return base;
      } else if (value instanceof Date || str === '[object Date]') {
        const t = Date.prototype.getTime.call(value);
        base = isNaN(t) ? 'Invalid Date' : Date.prototype.toISOString.call(value);
        const prefix = getPrefix(constructor, tag, 'Date', '');
        if (prefix !== 'Date ') base = `${prefix}${base}`;
        if (keys.length === 0) return base;
      } else if (isError(value)) {
        base = formatError(value, constructor, tag, ctx, keys);
        if (keys.length === 0) return base;
      } else if (value instanceof Promise) {
        braces[0] = `${getPrefix(constructor, tag, 'Promise', '')}{`;
        formatter = formatPromise;
      } else if (value instanceof WeakSet) {
        braces[0] = `${getPrefix(constructor, tag, 'WeakSet', '')}{`;
        formatter = () => ['<items unknown>'];
      } else if (value instanceof WeakMap) {
        braces[0] = `${getPrefix(constructor, tag, 'WeakMap', '')}{`;
        formatter = () => ['<items unknown>'];
      } else if (value instanceof ArrayBuffer) {
        const arr = new Uint8Array(value);
        const hex = Array.from(arr.slice(0, 50), (b) => b.toString(16).padStart(2, '0')).join(' ');
        braces[0] = `${getPrefix(constructor, tag, 'ArrayBuffer', '')}{`;
        formatter = () => [`[Uint8Contents]: <${hex}${arr.length > 50 ? ` ... ${arr.length - 50} more byte${arr.length - 50 > 1 ? 's' : ''}` : ''}>`, `byteLength: ${formatNumber(value.byteLength)}`];
      } else if (str === '[object Number]' || str === '[object String]' || str === '[object Boolean]' || str === '[object Symbol]' || str === '[object BigInt]') {
        let type, prim;
        if (str === '[object Number]') { type = 'Number'; prim = formatNumber(Number.prototype.valueOf.call(value)); }
        else if (str === '[object String]') {
          type = 'String'; prim = strEscape(String.prototype.valueOf.call(value));
          keys = keys.filter((k) => !isIndex(k) && k !== 'length');
        }
        else if (str === '[object Boolean]') { type = 'Boolean'; prim = String(Boolean.prototype.valueOf.call(value)); }
        else if (str === '[object Symbol]') { type = 'Symbol'; prim = Symbol.prototype.toString.call(value); }
        else { type = 'BigInt'; prim = `${BigInt.prototype.valueOf.call(value)}n`; }
        base = `[${type}`;
        if (type !== constructor) base += constructor === null ? ' (null prototype)' : ` (${constructor})`;
        base += `: ${prim}]`;
        if (tag !== '' && tag !== constructor) base += ` [${tag}]`;
        if (keys.length === 0) return base;
      } else {
        if (str === '[object Generator]' && tag === '') tag = 'Generator';
        braces[0] = `${getPrefix(constructor, tag, 'Object', '')}{`;
        if (keys.length === 0) return `${braces[0]}}`;
      }
    }

    if (ctx.depth !== null && recurseTimes > ctx.depth) {
      let name = getPrefix(constructor, tag, 'Object', '').slice(0, -1);
      if (Array.isArray(value)) name = 'Array';
      if (constructor !== null) name = `[${name}]`;
      return name;
    }
    if (ctx.showHidden && Array.isArray(value)) keys.push('length');
    recurseTimes += 1;
    ctx.seen.push(value);
    ctx.currentDepth = recurseTimes;
    let output;
    output = formatter(ctx, value, recurseTimes);
    for (let i = 0; i < keys.length; i++) {
      output.push(formatProperty(ctx, value, recurseTimes, keys[i], extrasType));
    }
    ctx.seen.pop();
    if (ctx.circular !== undefined) {
      const index = ctx.circular.get(value);
      if (index !== undefined) {
        const reference = `<ref *${index}>`;
        base = base === '' ? reference : `${reference} ${base}`;
      }
    }
    return reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
  }

  function getEmptyFormatArray() { return []; }

  function formatArrayLike(ctx, value, recurseTimes, len, has) {
    const output = [];
    const max = Math.min(ctx.maxArrayLength, len);
    let i = 0;
    for (; i < len && output.length < max; i++) {
      if (!has(i)) {
        let j = i;
        while (j < len && !has(j)) j++;
        const n = j - i;
        output.push(`<${n} empty item${n > 1 ? 's' : ''}>`);
        i = j - 1;
        continue;
      }
      output.push(formatProperty(ctx, value, recurseTimes, i, kArrayType));
    }
    const remaining = len - i;
    if (remaining > 0) output.push(`... ${remaining} more item${remaining > 1 ? 's' : ''}`);
    return output;
  }

  function formatArray(ctx, value, recurseTimes) {
    return formatArrayLike(ctx, value, recurseTimes, value.length, (i) => hasOwn.call(value, i));
  }

  function formatArguments(ctx, value, recurseTimes) {
    return formatArrayLike(ctx, value, recurseTimes, value.length, () => true);
  }

  function formatTypedArray(ctx, value, recurseTimes) {
    const len = value.length;
    const max = Math.min(ctx.maxArrayLength, len);
    const output = [];
    for (let i = 0; i < max; i++) output.push(typeof value[i] === 'bigint' ? `${value[i]}n` : formatNumber(value[i]));
    if (len > max) output.push(`... ${len - max} more item${len - max > 1 ? 's' : ''}`);
    return output;
  }

  function formatSet(ctx, value, recurseTimes) {
    const output = [];
    ctx.indentationLvl += 2;
    let i = 0;
    for (const v of value) {
      if (i >= ctx.maxArrayLength) break;
      output.push(formatValue(ctx, v, recurseTimes));
      i++;
    }
    if (value.size > ctx.maxArrayLength) {
      const r = value.size - ctx.maxArrayLength;
      output.push(`... ${r} more item${r > 1 ? 's' : ''}`);
    }
    ctx.indentationLvl -= 2;
    return output;
  }

  function formatMap(ctx, value, recurseTimes) {
    const output = [];
    ctx.indentationLvl += 2;
    let i = 0;
    for (const [k, v] of value) {
      if (i >= ctx.maxArrayLength) break;
      output.push(`${formatValue(ctx, k, recurseTimes)} => ${formatValue(ctx, v, recurseTimes)}`);
      i++;
    }
    if (value.size > ctx.maxArrayLength) {
      const r = value.size - ctx.maxArrayLength;
      output.push(`... ${r} more item${r > 1 ? 's' : ''}`);
    }
    ctx.indentationLvl -= 2;
    return output;
  }

  function formatPromise(ctx, value, recurseTimes) {
    const [state, result] = host.promiseState(value);
    if (state === 'pending') return ['<pending>'];
    ctx.indentationLvl += 2;
    const str = formatValue(ctx, result, recurseTimes);
    ctx.indentationLvl -= 2;
    return [state === 'rejected' ? `<rejected> ${str}` : str];
  }

  function formatProperty(ctx, value, recurseTimes, key, type) {
    let name, str;
    const desc = Object.getOwnPropertyDescriptor(value, key) || { value: value[key], enumerable: true };
    if (desc.value !== undefined || !('get' in desc || 'set' in desc)) {
      const diff = 2;
      ctx.indentationLvl += diff;
      str = formatValue(ctx, desc.value, recurseTimes);
      ctx.indentationLvl -= diff;
    } else if (desc.get !== undefined) {
      str = desc.set !== undefined ? '[Getter/Setter]' : '[Getter]';
    } else if (desc.set !== undefined) {
      str = '[Setter]';
    } else {
      str = 'undefined';
    }
    if (type === kArrayType) return str;
    if (typeof key === 'symbol') name = key.toString();
    else if (key === '__proto__') name = "['__proto__']";
    else if (desc.enumerable === false) name = `[${key}]`;
    else if (keyRe.test(key)) name = key;
    else name = strEscape(key);
    return `${name}: ${str}`;
  }

  function groupArrayElements(ctx, output, value) {
    let totalLength = 0;
    let maxLength = 0;
    let i = 0;
    let outputLength = output.length;
    if (ctx.maxArrayLength < output.length) outputLength--;
    const separatorSpace = 2;
    const dataLen = new Array(outputLength);
    for (; i < outputLength; i++) {
      const len = output[i].length;
      dataLen[i] = len;
      totalLength += len + separatorSpace;
      if (maxLength < len) maxLength = len;
    }
    const actualMax = maxLength + separatorSpace;
    if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength &&
        (totalLength / actualMax > 5 || maxLength <= 6)) {
      const approxCharHeights = 2.5;
      const averageBias = Math.sqrt(actualMax - totalLength / output.length);
      const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
      const columns = Math.min(
        Math.round(Math.sqrt(approxCharHeights * biasedMax * outputLength) / biasedMax),
        Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
        ctx.compact * 4,
        15,
      );
      if (columns <= 1) return output;
      const tmp = [];
      const maxLineLength = [];
      for (let i = 0; i < columns; i++) {
        let lineLength = 0;
        for (let j = i; j < output.length; j += columns) {
          if (dataLen[j] > lineLength) lineLength = dataLen[j];
        }
        maxLineLength.push(lineLength + separatorSpace);
      }
      let order = 'padStart';
      if (value !== undefined) {
        for (let i = 0; i < output.length; i++) {
          if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') {
            order = 'padEnd';
            break;
          }
        }
      }
      for (let i = 0; i < outputLength; i += columns) {
        const max = Math.min(i + columns, outputLength);
        let str = '';
        let j = i;
        for (; j < max - 1; j++) {
          const padding = maxLineLength[j - i] + output[j].length - dataLen[j];
          str += `${output[j]}, `[order](padding, ' ');
        }
        if (order === 'padStart') {
          const padding = maxLineLength[j - i] + output[j].length - dataLen[j] - separatorSpace;
          str += output[j].padStart(padding, ' ');
        } else {
          str += output[j];
        }
        tmp.push(str);
      }
      if (ctx.maxArrayLength < output.length) tmp.push(output[outputLength]);
      output = tmp;
    }
    return output;
  }

  function isBelowBreakLength(ctx, output, start, base) {
    let totalLength = output.length + start;
    if (totalLength + output.length > ctx.breakLength) return false;
    for (let i = 0; i < output.length; i++) {
      totalLength += output[i].length;
      if (totalLength > ctx.breakLength) return false;
    }
    return base === '' || !base.includes('\n');
  }

  function reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value) {
    if (ctx.compact !== true) {
      if (typeof ctx.compact === 'number' && ctx.compact >= 1) {
        const entries = output.length;
        if (extrasType === kArrayExtrasType && entries > 6) output = groupArrayElements(ctx, output, value);
        if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
          const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
          if (isBelowBreakLength(ctx, output, start, base)) {
            const joined = output.join(', ');
            if (!joined.includes('\n')) {
              return `${base ? `${base} ` : ''}${braces[0]} ${joined}` + ` ${braces[1]}`;
            }
          }
        }
      }
      const indentation = `\n${' '.repeat(ctx.indentationLvl)}`;
      return `${base ? `${base} ` : ''}${braces[0]}${indentation}  ${output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
    }
    if (isBelowBreakLength(ctx, output, 0, base)) {
      return `${braces[0]}${base ? ` ${base}` : ''} ${output.join(', ')} ` + braces[1];
    }
    const indentation = ' '.repeat(ctx.indentationLvl);
    const ln = base === '' && braces[0].length === 1 ? ' ' : `${base ? ` ${base}` : ''}\n${indentation}  `;
    return `${braces[0]}${ln}${output.join(`,\n${indentation}  `)} ${braces[1]}`;
  }

  const defaults = {
    showHidden: false, depth: 2, colors: false, customInspect: true, showProxy: false,
    maxArrayLength: 100, maxStringLength: 10000, breakLength: 80, compact: 3, sorted: false, getters: false,
  };

  function inspect(value, opts) {
    const ctx = {
      seen: [], indentationLvl: 0, currentDepth: 0, circular: undefined,
      showHidden: defaults.showHidden, depth: defaults.depth, customInspect: defaults.customInspect,
      maxArrayLength: defaults.maxArrayLength, maxStringLength: defaults.maxStringLength,
      breakLength: defaults.breakLength, compact: defaults.compact, opts: {},
    };
    if (arguments.length > 1 && typeof opts === 'object' && opts !== null) {
      for (const k of Object.keys(opts)) {
        if (k in ctx || k === 'colors' || k === 'sorted' || k === 'getters' || k === 'showProxy') ctx[k] = opts[k];
      }
      if (ctx.depth === Infinity) ctx.depth = null;
      if (ctx.maxArrayLength === null || ctx.maxArrayLength === Infinity) ctx.maxArrayLength = Infinity;
      if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
    } else if (typeof opts === 'boolean') {
      ctx.showHidden = opts;
    }
    ctx.opts = Object.assign({}, defaults, opts && typeof opts === 'object' ? opts : {});
    return formatValue(ctx, value, 0);
  }
  inspect.custom = customInspect;
  inspect.defaultOptions = defaults;

  function formatWithOptions(inspectOptions, ...args) {
    const first = args[0];
    let a = 0;
    let str = '';
    let join = '';
    if (typeof first === 'string') {
      if (args.length === 1) return first;
      let tempStr;
      let lastPos = 0;
      for (let i = 0; i < first.length - 1; i++) {
        if (first.charCodeAt(i) === 37) { // '%'
          const nextChar = first.charCodeAt(++i);
          if (a + 1 !== args.length) {
            switch (nextChar) {
              case 115: { // 's'
                const tempArg = args[++a];
                if (typeof tempArg === 'number') tempStr = formatNumber(tempArg);
                else if (typeof tempArg === 'bigint') tempStr = `${tempArg}n`;
                else if (typeof tempArg !== 'object' || tempArg === null || !hasBuiltInToString(tempArg)) tempStr = String(tempArg);
                else tempStr = inspect(tempArg, Object.assign({}, inspectOptions, { depth: 0, colors: false, compact: 3 }));
                break;
              }
              case 106: // 'j'
                try { tempStr = JSON.stringify(args[++a]); } catch (e) { tempStr = '[Circular]'; }
                if (tempStr === undefined) tempStr = 'undefined';
                break;
              case 100: { // 'd'
                const tempNum = args[++a];
                if (typeof tempNum === 'bigint') tempStr = `${tempNum}n`;
                else if (typeof tempNum === 'symbol') tempStr = 'NaN';
                else tempStr = formatNumber(Number(tempNum));
                break;
              }
              case 79: // 'O'
                tempStr = inspect(args[++a], inspectOptions);
                break;
              case 111: // 'o'
                tempStr = inspect(args[++a], Object.assign({}, inspectOptions, { showHidden: true, showProxy: true, depth: 4 }));
                break;
              case 105: { // 'i'
                const tempInteger = args[++a];
                if (typeof tempInteger === 'bigint') tempStr = `${tempInteger}n`;
                else if (typeof tempInteger === 'symbol') tempStr = 'NaN';
                else tempStr = formatNumber(parseInt(tempInteger));
                break;
              }
              case 102: { // 'f'
                const tempFloat = args[++a];
                if (typeof tempFloat === 'symbol') tempStr = 'NaN';
                else tempStr = formatNumber(parseFloat(tempFloat));
                break;
              }
              case 99: // 'c'
                a += 1;
                tempStr = '';
                break;
              case 37: // '%'
                str += first.slice(lastPos, i);
                lastPos = i + 1;
                continue;
              default:
                continue;
            }
            if (lastPos !== i - 1) str += first.slice(lastPos, i - 1);
            str += tempStr;
            lastPos = i + 1;
          } else if (nextChar === 37) {
            str += first.slice(lastPos, i);
            lastPos = i + 1;
          }
        }
      }
      if (lastPos !== 0) {
        a++;
        join = ' ';
        if (lastPos < first.length) str += first.slice(lastPos);
      }
    }
    while (a < args.length) {
      const value = args[a];
      str += join;
      str += typeof value !== 'string' ? inspect(value, inspectOptions) : value;
      join = ' ';
      a++;
    }
    return str;
  }

  function hasBuiltInToString(value) {
    let o = value;
    while (o !== null && o !== undefined) {
      if (hasOwn.call(o, 'toString') && o !== Object.prototype) {
        const d = Object.getOwnPropertyDescriptor(o, 'constructor');
        return !(d && typeof d.value === 'function' && o === d.value.prototype && !isBuiltinCtor(d.value)) ? isBuiltinProto(o) : false;
      }
      o = Object.getPrototypeOf(o);
    }
    return true;
  }
  const builtinProtos = [Object.prototype, Array.prototype, Error.prototype, Date.prototype, RegExp.prototype, Function.prototype, Number.prototype, String.prototype, Boolean.prototype];
  function isBuiltinProto(o) { return builtinProtos.includes(o) || o instanceof Error; }
  function isBuiltinCtor(f) { return [Object, Array, Error, Date, RegExp, Function, Number, String, Boolean, TypeError, RangeError, SyntaxError].includes(f); }

  host.inspect = inspect;
  host.format = (...args) => formatWithOptions({}, ...args);
  host.formatWithOptions = formatWithOptions;
  host.strEscape = strEscape;
})(__wasmsand);
