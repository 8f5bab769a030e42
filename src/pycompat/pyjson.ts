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
import { JsonTokenizer, textSource, type PyJson, type PyJsonObject } from "./json-tokenizer.js";
import { pyFloatRepr } from "./pyfloat.js";
import { comparePyStr } from "./pystr.js";

export type { PyJson, PyJsonObject } from "./json-tokenizer.js";

/** Whether a value is a JSON object (a Python dict). */
export function isPyJsonObject(v: PyJson): v is PyJsonObject {
  return v instanceof Map;
}

// ---------------------------------------------------------------------------------------------
// Decoding (json.loads with its defaults: strict strings, NaN/Infinity literals accepted), by the
// shared tokenizer of json-tokenizer.ts.

/** Python's `json.loads(text)`; `where` names the input in error messages. */
export function parsePyJson(text: string, where = "<input>"): PyJson {
  const t = new JsonTokenizer(textSource(text), where);
  if (text.charCodeAt(0) === 0xfeff) t.fail("unexpected UTF-8 byte order mark (Python's json.load refuses it)");
  return t.document();
}

/** The text of `file` as Python's `open(file, encoding="utf-8").read()` gives it: strict UTF-8, a BOM kept. */
export function readPyText(file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(fs.readFileSync(file));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new UserError(`${file} does not exist`);
    throw new UserError(`${file} is not valid UTF-8 text (${(e as Error).message})`);
  }
}

/** Python's `json.load(open(file))` with a UTF-8 locale: strict UTF-8, the BOM kept (and refused). */
export function readPyJson(file: string): PyJson {
  return parsePyJson(readPyText(file), file);
}

// ---------------------------------------------------------------------------------------------
// Encoding (json.dumps with ensure_ascii=True, allow_nan=True).

/** Layout of the encoded text, as `json.dumps` takes it. */
export interface PyJsonDumpOptions {
  /** None (one line, ", " between items), a number of spaces, or an indent string. */
  indent?: number | string | null;
  /** sort_keys=True: every object's keys in Python's str order (by code point); the value itself is left as it is. */
  sortKeys?: boolean;
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

/** A scalar as `json.dumps` writes it (floats by repr, NaN and infinities as Python spells them). */
export function pyJsonScalar(v: null | boolean | bigint | number | string): string {
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

/** The text being built: pieces are appended, and handed out as a chunk once it reaches `size`. */
interface Chunks {
  text: string;
  readonly size: number;
}

interface Layout {
  indent: string | null;
  sortKeys: boolean;
}

function keysInPyOrder(keys: string[]): string[] {
  for (let i = 1; i < keys.length; i++) if (comparePyStr(keys[i - 1], keys[i]) > 0) return keys.sort(comparePyStr);
  return keys;
}

// One generator per container, none per scalar or piece: documents of hundreds of megabytes go through here.
function* encodeContainer(v: PyJson[] | PyJsonObject, layout: Layout, level: number, out: Chunks): Generator<string, void, undefined> {
  const isArray = Array.isArray(v);
  const [open, close] = isArray ? ["[", "]"] : ["{", "}"];
  if ((isArray ? v.length : v.size) === 0) {
    out.text += open + close;
    return;
  }
  // Python's separators: "," plus a newline and indent when indenting, ", " on one line otherwise.
  const inner = layout.indent === null ? "" : `\n${layout.indent.repeat(level + 1)}`;
  const sep = layout.indent === null ? ", " : `,${inner}`;
  const keys = isArray ? null : layout.sortKeys ? keysInPyOrder([...v.keys()]) : [...v.keys()];
  const n = isArray ? v.length : keys!.length;
  for (let i = 0; i < n; i++) {
    out.text += i === 0 ? open + inner : sep;
    let item: PyJson;
    if (keys === null) item = (v as PyJson[])[i];
    else {
      out.text += `${pyJsonQuote(keys[i])}: `;
      item = (v as PyJsonObject).get(keys[i])!;
    }
    if (Array.isArray(item) || item instanceof Map) yield* encodeContainer(item, layout, level + 1, out);
    else out.text += pyJsonScalar(item);
    if (out.text.length >= out.size) {
      yield out.text;
      out.text = "";
    }
  }
  out.text += layout.indent === null ? close : `\n${layout.indent.repeat(level)}${close}`;
}

function indentString(indent: number | string | null | undefined): string | null {
  if (indent === null || indent === undefined) return null;
  return typeof indent === "number" ? " ".repeat(Math.max(0, indent)) : indent;
}

/** The text pieces of `json.dumps(value, indent=..., sort_keys=...)`, batched so a large document never needs one string. */
export function* pyJsonChunks(value: PyJson, opts: PyJsonDumpOptions = {}, chunkChars = 1 << 20): Generator<string, void, undefined> {
  const out: Chunks = { text: "", size: chunkChars };
  if (Array.isArray(value) || value instanceof Map) yield* encodeContainer(value, { indent: indentString(opts.indent), sortKeys: opts.sortKeys ?? false }, 0, out);
  else out.text = pyJsonScalar(value);
  if (out.text.length > 0) yield out.text;
}

/** Python's `json.dumps(value, indent=..., sort_keys=...)`. */
export function dumpPyJson(value: PyJson, opts: PyJsonDumpOptions = {}): string {
  let out = "";
  for (const piece of pyJsonChunks(value, opts)) out += piece;
  return out;
}

/** Python's `json.dump(value, open(file, "w"), indent=..., sort_keys=...)`: no trailing newline; written atomically. */
export function writePyJson(file: string, value: PyJson, opts: PyJsonDumpOptions = {}): void {
  writeFileAtomic(file, pyJsonChunks(value, opts));
}
