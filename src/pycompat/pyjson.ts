/**
 * JSON read and written the way Python's `json` module does it, so preparers that round-trip
 * Kaggle's JSON through `json.load` / `json.dump(..., indent=4)` produce the same bytes.
 *
 * JavaScript's own JSON cannot do this: it forgets whether a number was written "3" or "3.0"
 * (Python keeps int and float apart and prints them differently), loses integers beyond 2^53,
 * reorders object keys that look like array indices, and writes non-ASCII characters raw.
 * Here Python's int is a `bigint`, Python's float a `number`, and an object a `Map`, which
 * keeps insertion order (a repeated key keeps its first position and its last value, as a
 * Python dict does).
 */
import fs from "node:fs";
import { UserError } from "../core/errors.js";
import { writeFileAtomic } from "../core/atomic.js";
import { pyFloatRepr } from "./pyfloat.js";

/** A value as Python's `json.load` returns it: int is bigint, float is number, dict is Map. */
export type PyJson = null | boolean | bigint | number | string | PyJson[] | PyJsonObject;

/** A JSON object with Python dict semantics (insertion-ordered, string keys). */
export type PyJsonObject = Map<string, PyJson>;

/** Whether a value is a JSON object (a Python dict). */
export function isPyJsonObject(v: PyJson): v is PyJsonObject {
  return v instanceof Map;
}

// ---------------------------------------------------------------------------------------------
// Decoding (json.loads with its defaults: strict strings, NaN/Infinity literals accepted).

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

class Decoder {
  pos = 0;

  constructor(
    private readonly s: string,
    private readonly where: string,
  ) {}

  fail(what: string, at = this.pos): never {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      if (this.s.charCodeAt(i) === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    throw new UserError(`${this.where}: invalid JSON at line ${line} column ${at - lineStart + 1} (char ${at}): ${what}`);
  }

  skipWs(): void {
    while (this.pos < this.s.length && WS.has(this.s.charCodeAt(this.pos))) this.pos++;
  }

  value(depth: number): PyJson {
    // Python gives up with RecursionError near this depth too; a bound keeps the JS stack safe.
    if (depth > 900) this.fail("nesting too deep");
    const s = this.s;
    const c = s[this.pos];
    if (c === '"') return this.string();
    if (c === "{") return this.object(depth);
    if (c === "[") return this.array(depth);
    for (const [lit, v] of LITERALS) {
      if (s.startsWith(lit, this.pos)) {
        this.pos += lit.length;
        return v;
      }
    }
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(s);
    if (!m) this.fail("expecting value");
    this.pos += m[0].length;
    // Python: a fraction or an exponent makes a float, anything else an arbitrary-size int.
    return m[1] !== undefined || m[2] !== undefined ? Number(m[0]) : BigInt(m[0]);
  }

  string(): string {
    const s = this.s;
    const start = this.pos;
    let i = this.pos + 1;
    let out = "";
    let chunk = i;
    for (;;) {
      if (i >= s.length) this.fail("unterminated string", start);
      const code = s.charCodeAt(i);
      if (code === 0x22) break;
      if (code < 0x20) this.fail("invalid control character in string", i);
      if (code !== 0x5c) {
        i++;
        continue;
      }
      out += s.slice(chunk, i);
      const e = s[i + 1];
      if (e === "u") {
        const hex = s.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid \\uXXXX escape", i);
        // Surrogate halves stay UTF-16 units: paired they are the same string Python builds.
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else if (e !== undefined && e in SIMPLE_ESCAPES) {
        out += SIMPLE_ESCAPES[e];
        i += 2;
      } else this.fail("invalid \\escape", i);
      chunk = i;
    }
    this.pos = i + 1;
    return out + s.slice(chunk, i);
  }

  object(depth: number): PyJsonObject {
    const out: PyJsonObject = new Map();
    this.pos++;
    this.skipWs();
    if (this.s[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      if (this.s[this.pos] !== '"') this.fail("expecting property name enclosed in double quotes");
      const key = this.string();
      this.skipWs();
      if (this.s[this.pos] !== ":") this.fail("expecting ':' delimiter");
      this.pos++;
      this.skipWs();
      out.set(key, this.value(depth + 1));
      this.skipWs();
      const c = this.s[this.pos++];
      if (c === "}") return out;
      if (c !== ",") this.fail("expecting ',' delimiter", this.pos - 1);
      this.skipWs();
    }
  }

  array(depth: number): PyJson[] {
    const out: PyJson[] = [];
    this.pos++;
    this.skipWs();
    if (this.s[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.skipWs();
      const c = this.s[this.pos++];
      if (c === "]") return out;
      if (c !== ",") this.fail("expecting ',' delimiter", this.pos - 1);
      this.skipWs();
    }
  }
}

const LITERALS: [string, PyJson][] = [
  ["null", null],
  ["true", true],
  ["false", false],
  ["NaN", NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
];

/** Python's `json.loads(text)`; `where` names the input in error messages. */
export function parsePyJson(text: string, where = "<input>"): PyJson {
  const d = new Decoder(text, where);
  if (text.charCodeAt(0) === 0xfeff) d.fail("unexpected UTF-8 byte order mark (Python's json.load refuses it)");
  d.skipWs();
  const v = d.value(0);
  d.skipWs();
  if (d.pos !== text.length) d.fail("extra data after the JSON value");
  return v;
}

/** Python's `json.load(open(file))` with a UTF-8 locale: strict UTF-8, the BOM kept (and refused). */
export function readPyJson(file: string): PyJson {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(fs.readFileSync(file));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new UserError(`${file} does not exist`);
    throw new UserError(`${file} is not valid UTF-8 text (${(e as Error).message})`);
  }
  return parsePyJson(text, file);
}

// ---------------------------------------------------------------------------------------------
// Encoding (json.dumps with ensure_ascii=True, allow_nan=True, no key sorting).

/** Layout of the encoded text, as `json.dumps` takes it. */
export interface PyJsonDumpOptions {
  /** None (one line, ", " between items), a number of spaces, or an indent string. */
  indent?: number | string | null;
}

const SHORT_ESCAPES: Record<number, string> = { 0x22: '\\"', 0x5c: "\\\\", 0x08: "\\b", 0x0c: "\\f", 0x0a: "\\n", 0x0d: "\\r", 0x09: "\\t" };

/** A string as `json.dumps` quotes it with ensure_ascii: only printable ASCII stays literal. */
export function pyJsonQuote(s: string): string {
  let out = '"';
  let chunk = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(chunk, i);
    // Python escapes a code point above U+FFFF as its surrogate pair: exactly the UTF-16 units here.
    out += SHORT_ESCAPES[c] ?? `\\u${c.toString(16).padStart(4, "0")}`;
    chunk = i + 1;
  }
  return out + s.slice(chunk) + '"';
}

function scalarText(v: null | boolean | bigint | number | string): string {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "string") return pyJsonQuote(v);
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "Infinity";
  if (v === -Infinity) return "-Infinity";
  return pyFloatRepr(v);
}

function* encode(v: PyJson, indent: string | null, level: number): Generator<string, void, undefined> {
  const isArray = Array.isArray(v);
  if (!isArray && !(v instanceof Map)) {
    yield scalarText(v);
    return;
  }
  const size = isArray ? v.length : v.size;
  const [open, close] = isArray ? ["[", "]"] : ["{", "}"];
  if (size === 0) {
    yield open + close;
    return;
  }
  // Python's separators: "," plus a newline and indent when indenting, ", " on one line otherwise.
  const inner = indent === null ? "" : `\n${indent.repeat(level + 1)}`;
  const sep = indent === null ? ", " : `,${inner}`;
  let first = true;
  const items: Iterable<[string | null, PyJson]> = isArray ? v.map((x): [null, PyJson] => [null, x]) : v.entries();
  for (const [key, item] of items) {
    yield first ? open + inner : sep;
    first = false;
    if (key !== null) yield `${pyJsonQuote(key)}: `;
    yield* encode(item, indent, level + 1);
  }
  yield indent === null ? close : `\n${indent.repeat(level)}${close}`;
}

function indentString(indent: number | string | null | undefined): string | null {
  if (indent === null || indent === undefined) return null;
  return typeof indent === "number" ? " ".repeat(Math.max(0, indent)) : indent;
}

/** The text pieces of `json.dumps(value, indent=...)`, batched so a large document never needs one string. */
export function* pyJsonChunks(value: PyJson, opts: PyJsonDumpOptions = {}, chunkChars = 1 << 20): Generator<string, void, undefined> {
  let buf = "";
  for (const piece of encode(value, indentString(opts.indent), 0)) {
    buf += piece;
    if (buf.length >= chunkChars) {
      yield buf;
      buf = "";
    }
  }
  if (buf.length > 0) yield buf;
}

/** Python's `json.dumps(value, indent=...)`. */
export function dumpPyJson(value: PyJson, opts: PyJsonDumpOptions = {}): string {
  let out = "";
  for (const piece of pyJsonChunks(value, opts)) out += piece;
  return out;
}

/** Python's `json.dump(value, open(file, "w"), indent=...)`: no trailing newline; written atomically. */
export function writePyJson(file: string, value: PyJson, opts: PyJsonDumpOptions = {}): void {
  writeFileAtomic(file, pyJsonChunks(value, opts));
}
