/**
 * Python's `json.load` and `json.dump(indent=4, sort_keys=True)` for the multi-hundred-megabyte
 * COCO-style metadata files of the herbarium and iNaturalist competitions.
 *
 * src/pycompat/pyjson.ts parses a JavaScript string, and V8 caps strings at about 512 MiB, which the
 * largest Kaggle metadata files come close to. This reader walks the raw bytes instead and only
 * decodes one JSON string at a time. It yields the same values as `parsePyJson` (int as bigint,
 * float as number, dict as Map) and shares its error behaviour. Keys and small ints repeat millions
 * of times in these files, so they are shared rather than allocated per record.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../../core/errors.js";
import { pyFloatRepr } from "../../pycompat/pyfloat.js";
import { pyJsonQuote, type PyJson, type PyJsonObject } from "../../pycompat/pyjson.js";
import { comparePyStr } from "../../pycompat/pystr.js";

/** How Python opened the file: `encoding="utf-8"` (strict) or `encoding="latin-1"` (every byte a code point). */
export type MetadataEncoding = "utf-8" | "latin-1";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SIMPLE_ESCAPES: Record<number, string> = { 0x22: '"', 0x5c: "\\", 0x2f: "/", 0x62: "\b", 0x66: "\f", 0x6e: "\n", 0x72: "\r", 0x74: "\t" };
const LITERALS: [string, PyJson][] = [
  ["null", null],
  ["true", true],
  ["false", false],
  ["NaN", NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
];
// Ints below this are shared bigints: licence ids, widths, heights and category ids repeat endlessly.
const SMALL_INTS = 1 << 17;
// A dict with unique keys per record (rare here) must not grow the key cache without bound.
const KEY_CACHE_LIMIT = 1 << 14;

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

class ByteDecoder {
  pos = 0;
  private readonly keys = new Map<string, string>();
  private readonly smallInts: bigint[] = [];
  private readonly utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

  constructor(
    private readonly b: Buffer,
    private readonly where: string,
    private readonly latin1: boolean,
  ) {}

  fail(what: string, at = this.pos): never {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at && i < this.b.length; i++) {
      if (this.b[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    throw new UserError(`${this.where}: invalid JSON at line ${line} column ${at - lineStart + 1} (byte ${at}): ${what}`);
  }

  skipWs(): void {
    const b = this.b;
    while (this.pos < b.length && isWs(b[this.pos])) this.pos++;
  }

  value(depth: number): PyJson {
    if (depth > 900) this.fail("nesting too deep");
    const c = this.b[this.pos];
    if (c === QUOTE) return this.string();
    if (c === 0x7b) return this.object(depth);
    if (c === 0x5b) return this.array(depth);
    for (const [lit, v] of LITERALS) {
      if (this.startsWith(lit)) {
        this.pos += lit.length;
        return v;
      }
    }
    return this.number();
  }

  startsWith(lit: string): boolean {
    if (this.pos + lit.length > this.b.length) return false;
    for (let i = 0; i < lit.length; i++) if (this.b[this.pos + i] !== lit.charCodeAt(i)) return false;
    return true;
  }

  /** The JSON number grammar: what does not fit stays unread, as Python's scanner leaves it. */
  number(): bigint | number {
    const b = this.b;
    const start = this.pos;
    let i = start;
    if (b[i] === 0x2d) i++;
    if (b[i] === 0x30) i++;
    else if (b[i] >= 0x31 && b[i] <= 0x39) while (isDigit(b[i])) i++;
    else this.fail("expecting value", start);
    const intEnd = i;
    let isFloat = false;
    if (b[i] === 0x2e && isDigit(b[i + 1])) {
      i += 2;
      while (isDigit(b[i])) i++;
      isFloat = true;
    }
    if (b[i] === 0x65 || b[i] === 0x45) {
      let j = i + 1;
      if (b[j] === 0x2b || b[j] === 0x2d) j++;
      if (isDigit(b[j])) {
        while (isDigit(b[j])) j++;
        i = j;
        isFloat = true;
      }
    }
    this.pos = i;
    const text = b.toString("latin1", start, i);
    if (isFloat) return Number(text);
    if (intEnd - start <= 6 && b[start] !== 0x2d) {
      const n = Number(text);
      if (n < SMALL_INTS) return (this.smallInts[n] ??= BigInt(n));
    }
    return BigInt(text);
  }

  string(): string {
    const b = this.b;
    const start = this.pos;
    let i = start + 1;
    let chunk = i;
    let out = "";
    let ascii = true;
    for (;;) {
      if (i >= b.length) this.fail("unterminated string", start);
      const c = b[i];
      if (c === QUOTE) break;
      if (c < 0x20) this.fail("invalid control character in string", i);
      if (c !== BACKSLASH) {
        if (c >= 0x80) ascii = false;
        i++;
        continue;
      }
      out += this.decode(chunk, i, ascii);
      ascii = true;
      const e = b[i + 1];
      if (e === 0x75) {
        const hex = b.toString("latin1", i + 2, Math.min(i + 6, b.length));
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid \\uXXXX escape", i);
        // Surrogate halves stay separate UTF-16 units; paired, they make the string Python builds.
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else if (e !== undefined && e in SIMPLE_ESCAPES) {
        out += SIMPLE_ESCAPES[e];
        i += 2;
      } else this.fail("invalid \\escape", i);
      chunk = i;
    }
    this.pos = i + 1;
    return out + this.decode(chunk, i, ascii);
  }

  /** Text of the bytes [from, to), which hold no escapes (so never split a UTF-8 sequence). */
  decode(from: number, to: number, ascii: boolean): string {
    if (from === to) return "";
    if (ascii || this.latin1) return this.b.toString("latin1", from, to);
    try {
      return this.utf8.decode(this.b.subarray(from, to));
    } catch {
      return this.fail("invalid UTF-8 in string (Python's utf-8 codec refuses it)", from);
    }
  }

  key(): string {
    const k = this.string();
    const known = this.keys.get(k);
    if (known !== undefined) return known;
    if (this.keys.size < KEY_CACHE_LIMIT) this.keys.set(k, k);
    return k;
  }

  object(depth: number): PyJsonObject {
    const out: PyJsonObject = new Map();
    const b = this.b;
    this.pos++;
    this.skipWs();
    if (b[this.pos] === 0x7d) {
      this.pos++;
      return out;
    }
    for (;;) {
      if (b[this.pos] !== QUOTE) this.fail("expecting property name enclosed in double quotes");
      const key = this.key();
      this.skipWs();
      if (b[this.pos] !== 0x3a) this.fail("expecting ':' delimiter");
      this.pos++;
      this.skipWs();
      out.set(key, this.value(depth + 1));
      this.skipWs();
      const c = b[this.pos++];
      if (c === 0x7d) return out;
      if (c !== 0x2c) this.fail("expecting ',' delimiter", this.pos - 1);
      this.skipWs();
    }
  }

  array(depth: number): PyJson[] {
    const out: PyJson[] = [];
    const b = this.b;
    this.pos++;
    this.skipWs();
    if (b[this.pos] === 0x5d) {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.skipWs();
      const c = b[this.pos++];
      if (c === 0x5d) return out;
      if (c !== 0x2c) this.fail("expecting ',' delimiter", this.pos - 1);
      this.skipWs();
    }
  }
}

/** Python's `json.loads(bytes.decode(encoding))` on raw bytes; `where` names the input in errors. */
export function parseMetadataBytes(bytes: Buffer, where: string, encoding: MetadataEncoding): PyJson {
  const d = new ByteDecoder(bytes, where, encoding === "latin-1");
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) d.fail("starts with a UTF-8 byte order mark, which Python's json.load refuses");
  d.skipWs();
  if (d.pos >= bytes.length) d.fail("expecting value");
  const v = d.value(0);
  d.skipWs();
  if (d.pos !== bytes.length) d.fail("extra data after the JSON value");
  return v;
}

/** Python's `json.load(open(file, encoding=...))`, for files too large for one JavaScript string. */
export function readMetadataJson(file: string, encoding: MetadataEncoding): PyJson {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new UserError(`${file} does not exist`);
    throw e;
  }
  return parseMetadataBytes(bytes, file, encoding);
}


function keysSorted(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (comparePyStr(keys[i - 1], keys[i]) > 0) return false;
  return true;
}

function scalarText(v: null | boolean | bigint | number | string): string {
  if (typeof v === "string") return pyJsonQuote(v);
  if (typeof v === "bigint") return v.toString();
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "Infinity";
  if (v === -Infinity) return "-Infinity";
  return pyFloatRepr(v);
}

/** Text appended piece by piece and flushed to a file descriptor in large writes. */
class Sink {
  private buf = "";
  constructor(private readonly fd: number) {}

  add(s: string): void {
    this.buf += s;
    if (this.buf.length >= 1 << 20) this.flush();
  }

  flush(): void {
    const b = Buffer.from(this.buf, "utf8");
    let off = 0;
    while (off < b.length) off += fs.writeSync(this.fd, b, off, b.length - off);
    this.buf = "";
  }
}

// json.dump's indented layout: "," + newline between items, ": " after keys, empty containers as [] / {}.
function encodeSorted(v: PyJson, indent: string, pad: string, out: Sink): void {
  if (Array.isArray(v)) {
    if (v.length === 0) return out.add("[]");
    const inner = pad + indent;
    for (let i = 0; i < v.length; i++) {
      out.add(i === 0 ? `[\n${inner}` : `,\n${inner}`);
      encodeSorted(v[i], indent, inner, out);
    }
    return out.add(`\n${pad}]`);
  }
  if (!(v instanceof Map)) return out.add(scalarText(v));
  if (v.size === 0) return out.add("{}");
  const keys = [...v.keys()];
  if (!keysSorted(keys)) keys.sort(comparePyStr);
  const inner = pad + indent;
  keys.forEach((k, i) => {
    out.add(`${i === 0 ? "{" : ","}\n${inner}${pyJsonQuote(k)}: `);
    encodeSorted(v.get(k)!, indent, inner, out);
  });
  out.add(`\n${pad}}`);
}

/**
 * Python's `json.dump(value, open(file, "w"), indent=indent, sort_keys=True)`, streamed to disk
 * (through a temporary file renamed at the end). Keys are sorted while writing, so the value
 * itself is left as it is.
 */
export function writeSortedPyJson(file: string, value: PyJson, indent = 4): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = fs.openSync(tmp, "wx");
  try {
    const sink = new Sink(fd);
    encodeSorted(value, " ".repeat(indent), "", sink);
    sink.flush();
    fs.closeSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  fs.renameSync(tmp, file);
}
