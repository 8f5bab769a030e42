/**
 * The field names of every object in a top-level JSON list, read without holding the document.
 *
 * Upstream loads Kaggle's test.json (about 1.5 GB) whole only to learn the first sample's fields
 * and check that all samples share them. A JavaScript string cannot hold 1.5 GB, so this reads the
 * file as a stream of text, checks it is JSON as Python's json.loads accepts it (strict strings,
 * NaN and Infinity allowed), and keeps nothing but the keys of the list's objects.
 */
import fs from "node:fs";
import { UserError } from "../../core/errors.js";
import { parsePyJson } from "../../pycompat/pyjson.js";

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;
const LITERALS = new Set(["true", "false", "null", "NaN", "Infinity", "-Infinity"]);
const HEX = /^[0-9a-fA-F]$/;

/** Characters a number or a literal (true, NaN, -Infinity, 1.5e-3) is made of. */
function isTokenChar(k: number): boolean {
  return (k >= 0x30 && k <= 0x39) || (k >= 0x61 && k <= 0x7a) || (k >= 0x41 && k <= 0x5a) || k === 0x2e || k === 0x2d || k === 0x2b;
}

type Mode = "value" | "valueOrClose" | "keyOrClose" | "key" | "colon" | "after" | "string" | "token";

class KeyScanner {
  private mode: Mode = "value";
  /** Open containers, innermost last: "[" or "{". */
  private readonly stack: string[] = [];
  private stringIsKey = false;
  /** 0 in plain text, 1 after a backslash, 2..5 while reading \uXXXX digits. */
  private escape = 0;
  private token = "";
  private captured: string | null = null;
  private offset = 0;
  private current: string[] | null = null;

  constructor(
    private readonly where: string,
    private readonly onObject: (keys: string[], index: number) => void,
  ) {}

  private count = 0;

  private fail(what: string): never {
    throw new UserError(`${this.where}: invalid JSON near character ${this.offset}: ${what}`);
  }

  /** Keys of objects directly inside the top-level list are the ones kept. */
  private get atSampleLevel(): boolean {
    return this.stack.length === 2 && this.stack[0] === "[" && this.stack[1] === "{";
  }

  private valueDone(): void {
    this.mode = "after";
  }

  private open(c: string): void {
    if (this.stack.length === 0 && c !== "[") this.fail("expected a list of samples");
    this.stack.push(c);
    if (this.atSampleLevel) this.current = [];
    this.mode = c === "[" ? "valueOrClose" : "keyOrClose";
  }

  private close(c: string): void {
    const top = this.stack.pop();
    if ((c === "]" && top !== "[") || (c === "}" && top !== "{")) this.fail(`unexpected "${c}"`);
    if (top === "{" && this.stack.length === 1 && this.current) {
      this.onObject(this.current, this.count++);
      this.current = null;
    }
    this.valueDone();
  }

  private endToken(): void {
    const t = this.token;
    if (!NUMBER.test(t) && !LITERALS.has(t)) this.fail(`unexpected "${t.slice(0, 20)}"`);
    if (this.stack.length === 0) this.fail("expected a list of samples");
    this.token = "";
    this.valueDone();
  }

  private stringChar(c: string, code: number): void {
    if (this.escape === 1) {
      if (c === "u") this.escape = 2;
      else if ('"\\/bfnrt'.includes(c)) this.escape = 0;
      else this.fail("invalid \\escape");
    } else if (this.escape >= 2) {
      if (!HEX.test(c)) this.fail("invalid \\uXXXX escape");
      this.escape = this.escape === 5 ? 0 : this.escape + 1;
    } else if (c === "\\") this.escape = 1;
    else if (c === '"') {
      this.mode = this.stringIsKey ? "colon" : "after";
      if (this.captured !== null) {
        const key = parsePyJson(`"${this.captured}"`, this.where) as string;
        if (!this.current!.includes(key)) this.current!.push(key);
        this.captured = null;
      }
      return;
    } else if (code < 0x20) this.fail("invalid control character in string");
    if (this.captured !== null) this.captured += c;
  }

  feed(text: string): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (this.mode === "string") {
        // Plain characters are skipped in bulk; only quotes, backslashes, escapes and control characters stop here.
        if (this.escape === 0 && this.captured === null) {
          let j = i;
          for (; j < n; j++) {
            const k = text.charCodeAt(j);
            if (k === 0x22 || k === 0x5c || k < 0x20) break;
          }
          this.offset += j - i;
          i = j;
          if (i === n) break;
        }
        this.stringChar(text[i], text.charCodeAt(i));
        i++;
        this.offset++;
        continue;
      }
      if (this.mode === "token") {
        let j = i;
        while (j < n && isTokenChar(text.charCodeAt(j))) j++;
        this.token += text.slice(i, j);
        this.offset += j - i;
        i = j;
        if (i === n) break;
        this.endToken();
      }
      const code = text.charCodeAt(i);
      if (!(code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09)) this.structural(text[i]);
      i++;
      this.offset++;
    }
  }

  private structural(c: string): void {
    switch (this.mode) {
      case "value":
      case "valueOrClose":
        if (c === "]" && this.mode === "valueOrClose") return this.close(c);
        if (this.stack.length === 1 && c !== "{") this.fail(`sample ${this.count} is not an object`);
        if (c === "[" || c === "{") return this.open(c);
        if (c === '"') {
          if (this.stack.length === 0) this.fail("expected a list of samples");
          this.mode = "string";
          this.stringIsKey = false;
          return;
        }
        if (c === "-" || isTokenChar(c.charCodeAt(0))) {
          this.mode = "token";
          this.token = c;
          return;
        }
        return this.fail("expecting value");
      case "keyOrClose":
      case "key":
        if (c === "}" && this.mode === "keyOrClose") return this.close(c);
        if (c !== '"') return this.fail("expecting property name enclosed in double quotes");
        this.mode = "string";
        this.stringIsKey = true;
        this.captured = this.atSampleLevel ? "" : null;
        return;
      case "colon":
        if (c !== ":") return this.fail("expecting ':' delimiter");
        this.mode = "value";
        return;
      case "after": {
        if (this.stack.length === 0) return this.fail("extra data after the list");
        const top = this.stack[this.stack.length - 1];
        if (c === ",") {
          this.mode = top === "[" ? "value" : "key";
          return;
        }
        if (c === "]" || c === "}") return this.close(c);
        return this.fail("expecting ',' delimiter");
      }
      default:
        return this.fail("unexpected character");
    }
  }

  end(): number {
    if (this.mode === "token") this.endToken();
    if (this.mode !== "after" || this.stack.length !== 0) this.fail("the document ends early");
    return this.count;
  }
}

/** {@link scanListKeys} over text given in pieces (split anywhere); `where` names it in errors. */
export function scanListKeysInText(pieces: Iterable<string>, where: string, onObject: (keys: string[], index: number) => void): number {
  const scanner = new KeyScanner(where, onObject);
  for (const p of pieces) scanner.feed(p);
  return scanner.end();
}

/**
 * Call `onObject(keys, index)` for each object of the JSON list in `file` (keys deduplicated, in
 * first-appearance order, as a Python dict keeps them); returns how many there were.
 */
export function scanListKeys(file: string, onObject: (keys: string[], index: number) => void): number {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (e) {
    throw new UserError(`Cannot read ${file}: ${(e as Error).message}`);
  }
  const scanner = new KeyScanner(file, onObject);
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const buf = Buffer.alloc(1 << 22);
  let first = true;
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      let text: string;
      try {
        text = decoder.decode(buf.subarray(0, n), { stream: n > 0 });
      } catch {
        throw new UserError(`${file} is not valid UTF-8 text`);
      }
      if (first && text.length > 0) {
        if (text.charCodeAt(0) === 0xfeff) throw new UserError(`${file}: starts with a UTF-8 byte order mark, which Python's json.load refuses`);
        first = false;
      }
      scanner.feed(text);
      if (n === 0) break;
    }
  } finally {
    fs.closeSync(fd);
  }
  return scanner.end();
}
