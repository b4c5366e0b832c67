// The determinism suite's JavaScript runner, shared by Node
// (node/determinism.test.mjs) and Chromium (testdata/index.html). It runs
// testdata/suite.json through createWasmSandbox and describes every step
// in the canonical form suite_test.go gives wazero's results, so the three
// engines can be compared byte for byte.

// hostFunctions are the declared host functions the suite's configs name;
// suite_test.go has the same ones in Go.
export const hostFunctions = {
  add_host: {
    params: ['i32', 'i32'], results: ['i32'],
    fn: (a, b) => {
      if (a === 99) throw new Error('refusing 99');
      return (a + b) | 0;
    },
  },
  mix64: { params: ['i64', 'i32'], results: ['i64'], fn: (a, b) => BigInt.asIntN(64, a * 31n + BigInt(b)) },
  fadd: { params: ['f64', 'f64'], results: ['f64'], fn: (a, b) => a + b },
};

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

// f64bits is the IEEE 754 bit pattern of a number, in hex.
function f64bits(x) {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  return hex(new Uint8Array(dv.buffer));
}

// canonical describes a JavaScript value of an execution the way
// suite_test.go's canonical describes the Go one.
export function canonical(v) {
  if (v === undefined) return 'none';
  if (typeof v === 'bigint') return `i64:${v}`;
  if (typeof v === 'number') return `f64:${f64bits(v)}`;
  if (v instanceof Uint8Array) return `bytes:${hex(v)}`;
  if (Array.isArray(v) && v.every((e) => typeof e === 'number' || typeof e === 'bigint')) {
    return `[${v.map(canonical).join(',')}]`;
  }
  return `json:${JSON.stringify(v)}`;
}

async function sha256(bytes) {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

function errorKey(e) {
  if (!e) return '';
  return [e.code, e.trap, e.check].filter(Boolean).join('/');
}

// payloadOf is a step's payload: args (numbers), json (a value) or string.
function payloadOf(step) {
  if (step.json !== undefined) return step.json;
  if (step.string !== undefined) return step.string;
  return step.args;
}

// runCase runs one case of the suite and returns its canonical steps.
// With async set, the host functions are declared async, which puts the
// guest on JSPI instead of running it synchronously.
export async function runCase(ws, suite, c, readModule, { async = false } = {}) {
  const cfg = { ...suite.config, ...c.config };
  cfg.hostFunctions = Object.fromEntries((cfg.hostFunctions ?? []).map((n) => [n, { ...hostFunctions[n], async }]));
  if (async) cfg.hostFunctions.later = { async: true, fn: async () => {} };
  const inst = ws.create(cfg);
  const out = [];
  try {
    await ws.load(inst, await readModule(c.module));
    let snap = null;
    for (const step of c.steps) {
      switch (step.op ?? 'execute') {
        case 'execute': {
          const r = await ws.execute(inst, step.action, payloadOf(step));
          out.push({
            op: 'execute',
            action: step.action,
            ok: r.ok,
            value: r.ok ? canonical(r.value) : '',
            error: errorKey(r.error),
            gas: String(r.gasUsed),
            hostCalls: r.hostCalls.map((h) => ({
              seq: String(h.seq),
              name: h.name,
              inputs: h.inputs.map(canonical),
              outputs: h.outputs.map(canonical),
              gasAtCall: String(h.gasAtCall),
              capability: h.capability,
              granted: h.granted,
              detail: h.detail,
              error: h.error ?? '',
            })),
            logs: r.logs,
            state: await sha256(ws.snapshot(inst)),
          });
          break;
        }
        case 'snapshot':
          snap = ws.snapshot(inst);
          out.push({ op: 'snapshot', size: String(snap.length), state: await sha256(snap) });
          break;
        case 'restore': {
          let bytes = snap;
          if (step.truncate !== undefined) bytes = snap.slice(0, step.truncate);
          if (step.corrupt !== undefined) {
            bytes = snap.slice();
            bytes[step.corrupt] ^= 0xff;
          }
          let error = '';
          try {
            await ws.restore(inst, bytes);
          } catch (err) {
            error = errorKey(err);
          }
          out.push({ op: 'restore', ok: error === '', error });
          break;
        }
        default:
          throw new Error(`unknown op ${step.op}`);
      }
    }
  } finally {
    ws.destroy(inst);
  }
  return out;
}

// runSuite runs every case and returns the canonical form: one line of
// JSON per case.
export async function runSuite(ws, suite, readModule, options = {}) {
  const lines = [];
  for (const c of suite.cases) {
    lines.push(JSON.stringify({ name: c.name, steps: await runCase(ws, suite, c, readModule, options) }));
  }
  return lines.join('\n') + '\n';
}
