// The wasmsand demo: one sandbox behind an xterm.js terminal, with file
// upload and download and a panel of limits and metrics.
import { Terminal } from './vendor/xterm.mjs';
import { FitAddon } from './vendor/addon-fit.mjs';
import { Sandbox, SandboxError } from './wasmsand/browser.mjs';
import { LineEditor } from './lineeditor.mjs';

const MiB = 1 << 20;

/** The limits of the demo's sandbox. */
const limits = {
  timeoutMs: 30_000,
  memoryLimitBytes: 256 * MiB,
  fsLimitBytes: 64 * MiB,
  maxProcesses: 32,
  outputLimitBytes: 8 * MiB,
};

const $ = (id) => document.getElementById(id);

function formatBytes(n) {
  if (n >= MiB) return `${(n / MiB).toFixed(n >= 10 * MiB ? 0 : 1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(0)} KiB`;
  return `${n} B`;
}

function fillList(dl, rows) {
  dl.replaceChildren(...rows.flatMap(([k, v]) => {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    return [dt, dd];
  }));
}

const term = new Terminal({
  convertEol: true,
  cursorBlink: true,
  fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, monospace',
  fontSize: 14,
  scrollback: 5000,
  theme: { background: '#000000', foreground: '#d8dee4' },
});
const fit = new FitAddon();
term.loadAddon(fit);
term.open($('terminal'));
fit.fit();
new ResizeObserver(() => fit.fit()).observe($('terminal'));

let atLineStart = true;
// out writes command output; red marks standard error.
function out(s, red = false) {
  if (s === '') return;
  term.write(red ? `\x1b[31m${s}\x1b[0m` : s);
  atLineStart = s.endsWith('\n');
}

fillList($('limits'), [
  ['timeout', `${limits.timeoutMs / 1000} s per command`],
  ['memory', `${formatBytes(limits.memoryLimitBytes)} per process`],
  ['disk', formatBytes(limits.fsLimitBytes)],
  ['processes', String(limits.maxProcesses)],
  ['output', `${formatBytes(limits.outputLimitBytes)} per stream`],
]);

function showProgress({ loaded, total }) {
  const bar = $('progress');
  bar.max = Math.max(total, 1);
  bar.value = loaded;
  $('progress-text').textContent = `${formatBytes(loaded)} of ${formatBytes(total)}`;
}

function setState(state, text) {
  document.body.dataset.state = state;
  $('status').textContent = text;
}

setState('loading', 'loading wasmsand…');
out('\x1b[2mloading the wasmsand core…\x1b[0m\r\n');

let sandbox;
let running = null; // the AbortController of the running command

function cwd() {
  return sandbox?.getEnv('PWD') || '/home/user';
}

function prompt() {
  const dir = cwd().replace(/^\/home\/user(?=\/|$)/, '~');
  return `\x1b[1;32muser@wasmsand\x1b[0m:\x1b[1;34m${dir}\x1b[0m$ `;
}

function showMetrics(r, note) {
  const m = r.metrics;
  fillList($('metrics'), [
    ['exit code', note ? `${r.exitCode} (${note})` : String(r.exitCode)],
    ['time', `${r.executionTimeMs.toFixed(1)} ms`],
    ['fuel used', m.fuelUsed.toLocaleString('en')],
    ['peak memory', formatBytes(m.peakMemoryBytes)],
    ['processes', String(m.processes)],
    ['timed out', m.timedOut ? 'yes' : 'no'],
  ]);
}

const editor = new LineEditor({
  write: (s) => term.write(s),
  prompt,
  onLine: runLine,
  onInterrupt() {
    if (running) {
      running.abort();
      out('^C');
    }
  },
  onClear: () => term.clear(),
  complete: (line) => sandbox?.complete(line) ?? [],
});
term.onData((data) => editor.feed(data));

async function runLine(line) {
  editor.busy = true;
  setState('running', 'running…');
  const ac = new AbortController();
  running = ac;
  try {
    const r = await sandbox.run(line, {
      signal: ac.signal,
      onStdout: out,
      onStderr: (s) => out(s, true),
    });
    demo.lastResult = r;
    showMetrics(r, r.metrics.timedOut ? 'timed out' : '');
  } catch (err) {
    if (err instanceof SandboxError && err.code === 'ABORTED') {
      demo.lastResult = err.result;
      if (err.result) showMetrics(err.result, 'stopped with Ctrl-C');
    } else {
      out(`wasmsand: ${err.message}\n`, true);
    }
  } finally {
    running = null;
    if (!atLineStart) {
      term.write('\x1b[7m%\x1b[0m\r\n'); // like zsh: the output had no final newline
      atLineStart = true;
    }
    editor.busy = false;
    setState('ready', 'ready');
    editor.showPrompt();
  }
}

// Examples: a click types the command.
for (const code of document.querySelectorAll('#examples code')) {
  code.addEventListener('click', () => {
    if (!editor.busy && sandbox) {
      editor.feed('\x15' + code.textContent);
    }
    term.focus();
  });
}

function fileMessage(text, bad = false) {
  const p = $('file-message');
  p.textContent = text;
  p.classList.toggle('bad', bad);
}

$('upload').addEventListener('change', async (ev) => {
  const input = ev.target;
  const dir = cwd();
  const done = [];
  try {
    for (const f of input.files) {
      const path = `${dir.replace(/\/$/, '')}/${f.name}`;
      sandbox.writeFile(path, new Uint8Array(await f.arrayBuffer()));
      done.push(path);
    }
    fileMessage(`uploaded ${done.join(', ')}`);
  } catch (err) {
    fileMessage(`upload failed: ${err.message}`, true);
  }
  input.value = '';
  term.focus();
});

/** download saves a sandbox file through the browser and returns its Blob. */
function download(path) {
  const bytes = sandbox.readFile(path);
  const blob = new Blob([bytes], { type: 'application/octet-stream' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = path.split('/').filter(Boolean).at(-1) || 'download';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  return blob;
}

$('download-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const path = $('download-path').value.trim();
  try {
    const st = sandbox.stat(path);
    if (st.isDir) throw new SandboxError('EISDIR', `${path} is a directory`);
    const blob = download(path);
    fileMessage(`downloaded ${path} (${formatBytes(blob.size)})`);
  } catch (err) {
    fileMessage(`download failed: ${err.message}`, true);
  }
});

/** The page's state, for the curious and for tests. */
const demo = { term, editor, limits, download, lastResult: null, sandbox: null };
globalThis.demo = demo;

try {
  sandbox = await Sandbox.create({ ...limits, onProgress: showProgress });
  // A terminal is an interactive shell: aliases expand, as in bash.
  await sandbox.run('shopt -s expand_aliases');
  demo.sandbox = sandbox;
  const info = sandbox.info();
  fillList($('runtime'), [
    ['engine', `browser WebAssembly${info.jspi ? ' + JSPI' : ''}`],
    ['version', info.version],
    ['go', info.goVersion],
  ]);
  sandbox.writeFile('/home/user/README.txt',
    'Welcome to wasmsand.\nEvery command here is WebAssembly running in this page.\nTry: cat README.txt | wc -w\n');
  out('\x1b[1mwasmsand\x1b[0m — bash over an in-memory filesystem, in your browser. Type \x1b[1mls /usr/bin\x1b[0m to see the tools.\r\n');
  setState('ready', 'ready');
  editor.showPrompt();
  term.focus();
} catch (err) {
  setState('failed', 'failed to start');
  out(`\x1b[31mwasmsand could not start: ${err.message}\x1b[0m\r\n`);
}
