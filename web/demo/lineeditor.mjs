// A line editor for a terminal that has none: it turns the bytes a
// terminal sends for keys (xterm.js onData) into an edited line, with
// cursor movement, history and Ctrl-C, and writes the echo back.

const ESC = '\x1b';

/** The escape sequences of the keys the editor knows. */
const keys = new Map([
  ['\r', 'enter'], ['\n', 'enter'],
  ['\x7f', 'backspace'], ['\b', 'backspace'],
  [`${ESC}[D`, 'left'], [`${ESC}OD`, 'left'], ['\x02', 'left'],
  [`${ESC}[C`, 'right'], [`${ESC}OC`, 'right'], ['\x06', 'right'],
  [`${ESC}[A`, 'up'], [`${ESC}OA`, 'up'], ['\x10', 'up'],
  [`${ESC}[B`, 'down'], [`${ESC}OB`, 'down'], ['\x0e', 'down'],
  [`${ESC}[H`, 'home'], [`${ESC}OH`, 'home'], [`${ESC}[1~`, 'home'], ['\x01', 'home'],
  [`${ESC}[F`, 'end'], [`${ESC}OF`, 'end'], [`${ESC}[4~`, 'end'], ['\x05', 'end'],
  [`${ESC}[3~`, 'delete'], ['\x04', 'delete'],
  ['\t', 'complete'],
  ['\x03', 'interrupt'], ['\x15', 'kill'], ['\x0b', 'killEnd'], ['\x0c', 'clear'], ['\x17', 'killWord'],
]);

/**
 * LineEditor edits one line at a time. write(s) sends text to the
 * terminal; prompt() gives the prompt string. onLine(line) is called on
 * Enter; onInterrupt() on Ctrl-C while busy. While busy (a command runs)
 * only Ctrl-C is handled.
 */
export class LineEditor {
  line = '';
  cursor = 0; // index into line, in code units
  history = [];
  busy = false;
  #histPos = 0; // history.length means the line being typed
  #draft = '';

  constructor({ write, prompt, onLine, onInterrupt, onClear, complete }) {
    this.write = write;
    this.complete = complete;
    this.prompt = prompt;
    this.onLine = onLine;
    this.onInterrupt = onInterrupt;
    this.onClear = onClear;
  }

  /** showPrompt starts a new empty line. */
  showPrompt() {
    this.line = '';
    this.cursor = 0;
    this.#histPos = this.history.length;
    this.write(this.prompt());
  }

  /** feed handles what the terminal sent for one or more keys. */
  feed(data) {
    let i = 0;
    while (i < data.length) {
      const [key, len] = this.#next(data, i);
      i += len;
      if (this.busy) {
        if (key === 'interrupt') this.onInterrupt?.();
        continue;
      }
      if (key === 'enter') {
        this.#submit();
        // The rest of a paste waits for no one: it is dropped while busy.
        continue;
      }
      this.#key(key);
    }
  }

  #next(data, i) {
    if (data[i] === ESC) {
      for (const n of [4, 3, 2]) {
        const k = keys.get(data.substr(i, n));
        if (k) return [k, n];
      }
      // An unknown sequence: skip ESC [ params final.
      const m = /^\x1b(?:\[[0-9;?]*[@-~]|O.|.)?/.exec(data.slice(i));
      return [null, m[0].length];
    }
    const k = keys.get(data[i]);
    if (k) return [k, 1];
    const cp = data.codePointAt(i);
    const len = cp > 0xffff ? 2 : 1;
    if (cp < 0x20) return [null, len]; // other control characters
    return [{ text: data.substr(i, len) }, len];
  }

  #key(key) {
    if (key === null) return;
    if (typeof key === 'object') {
      this.line = this.line.slice(0, this.cursor) + key.text + this.line.slice(this.cursor);
      this.cursor += key.text.length;
      this.#redraw();
      return;
    }
    switch (key) {
      case 'backspace':
        if (this.cursor > 0) {
          const n = this.#charBefore();
          this.line = this.line.slice(0, this.cursor - n) + this.line.slice(this.cursor);
          this.cursor -= n;
        }
        break;
      case 'delete':
        if (this.cursor < this.line.length) {
          const n = this.#charAt();
          this.line = this.line.slice(0, this.cursor) + this.line.slice(this.cursor + n);
        }
        break;
      case 'left': this.cursor -= this.#charBefore(); break;
      case 'right': this.cursor += this.#charAt(); break;
      case 'home': this.cursor = 0; break;
      case 'end': this.cursor = this.line.length; break;
      case 'up': this.#recall(-1); break;
      case 'down': this.#recall(1); break;
      case 'kill': this.line = this.line.slice(this.cursor); this.cursor = 0; break;
      case 'killEnd': this.line = this.line.slice(0, this.cursor); break;
      case 'killWord': {
        const before = this.line.slice(0, this.cursor).replace(/\S*\s*$/, '');
        this.line = before + this.line.slice(this.cursor);
        this.cursor = before.length;
        break;
      }
      case 'interrupt':
        this.write('^C\r\n');
        this.showPrompt();
        return;
      case 'clear':
        this.onClear?.();
        break;
      case 'complete':
        this.#complete();
        return;
      default:
        return;
    }
    this.#redraw();
  }

  // #complete completes the word before the cursor: the one candidate,
  // or their common prefix and a listing of them all.
  #complete() {
    const head = this.line.slice(0, this.cursor);
    const cands = this.complete?.(head) ?? [];
    if (cands.length === 0) return;
    const word = /\S*$/.exec(head)[0];
    let common = cands[0];
    for (const c of cands) {
      while (!c.startsWith(common)) common = common.slice(0, -1);
    }
    let insert = common.slice(word.length);
    if (cands.length === 1 && !common.endsWith('/')) insert += ' ';
    if (cands.length > 1 && insert === '') {
      this.write('\r\n' + cands.join('  ') + '\r\n' + this.prompt());
    }
    this.line = head + insert + this.line.slice(this.cursor);
    this.cursor += insert.length;
    this.#redraw();
  }

  #charBefore() {
    if (this.cursor === 0) return 0;
    const c = this.line.charCodeAt(this.cursor - 1);
    return c >= 0xdc00 && c <= 0xdfff && this.cursor > 1 ? 2 : 1;
  }

  #charAt() {
    if (this.cursor >= this.line.length) return 0;
    const c = this.line.charCodeAt(this.cursor);
    return c >= 0xd800 && c <= 0xdbff ? 2 : 1;
  }

  #recall(dir) {
    const pos = this.#histPos + dir;
    if (pos < 0 || pos > this.history.length) return;
    if (this.#histPos === this.history.length) this.#draft = this.line;
    this.#histPos = pos;
    this.line = pos === this.history.length ? this.#draft : this.history[pos];
    this.cursor = this.line.length;
  }

  // redraw rewrites the prompt and line and puts the cursor in place.
  #redraw() {
    const back = [...this.line.slice(this.cursor)].length;
    this.write(`\r${this.prompt()}${this.line}${ESC}[K${back > 0 ? `${ESC}[${back}D` : ''}`);
  }

  #submit() {
    const line = this.line;
    this.write('\r\n');
    if (line.trim() !== '' && this.history.at(-1) !== line) this.history.push(line);
    this.#histPos = this.history.length;
    this.#draft = '';
    this.line = '';
    this.cursor = 0;
    if (line.trim() === '') {
      this.showPrompt();
      return;
    }
    this.onLine(line);
  }
}
