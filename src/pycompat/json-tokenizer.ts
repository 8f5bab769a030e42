/**
 * The one scanner of JSON text behind every JSON reader here: Python's `json.loads` (pyjson.ts),
 * the byte-level reader of multi-hundred-megabyte COCO metadata, pandas' bundled ujson, and the
 * streamed key scan of a 1.5 GB list. It reads strings (escapes, control characters, \uXXXX),
 * numbers in Python's grammar, the literals and the structure between values, with Python's
 * error messages. What differs between those readers is a small layer on top, not another scanner:
 * a {@link JsonDialect} (how a number becomes a value, what NaN means, raw control characters,
 * how deep), a {@link JsonSource} (a string, raw bytes, or text arriving in pieces) and options
 * (how an error names its position, key interning).
 */
import { UserError } from "../core/errors.js";

/** A value as Python's `json.load` returns it: int is bigint, float is number, dict is Map. */
export type PyJson = null | boolean | bigint | number | string | PyJson[] | PyJsonObject;

/** A JSON object with Python dict semantics (insertion-ordered, string keys). */
export type PyJsonObject = Map<string, PyJson>;

/** What {@link JsonSource.at} returns past the last unit. */
export const END = -1;

/** JSON text as the tokenizer reads it: the UTF-16 code units of a string, or the bytes of a file. */
export interface JsonSource {
  /** The unit at `i` (a UTF-16 code unit or a byte), or END past the last one. */
  at(i: number): number;
  /** The first position from `i` on holding a quote, a backslash, a unit below 0x20, or the end: where plain string text stops. */
  plainEnd(i: number): number;
  /**
   * The text of units [from, to), a run without escapes (`ascii` when the caller knows them all
   * ASCII); undefined when it is not valid in the source's encoding.
   */
  text(from: number, to: number, ascii: boolean): string | undefined;
  /** What error messages call a position: a string's "char" or a file's "byte". */
  readonly unit: "char" | "byte";
}

// The hot loops over units live in each source, so each runs over one kind of storage.
const isPlain = (c: number): boolean => c !== 0x22 && c !== 0x5c && c >= 0x20;

class TextSource implements JsonSource {
  readonly unit = "char";
  constructor(private readonly s: string) {}

  at(i: number): number {
    return i < this.s.length ? this.s.charCodeAt(i) : END;
  }

  plainEnd(i: number): number {
    const s = this.s;
    while (i < s.length && isPlain(s.charCodeAt(i))) i++;
    return i;
  }

  text(from: number, to: number): string {
    return this.s.slice(from, to);
  }
}

/** A JavaScript string as a source. */
export function textSource(s: string): JsonSource {
  return new TextSource(s);
}

class BytesSource implements JsonSource {
  readonly unit = "byte";
  private readonly utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

  constructor(
    private readonly b: Buffer,
    private readonly latin1: boolean,
  ) {}

  at(i: number): number {
    return i < this.b.length ? this.b[i] : END;
  }

  plainEnd(i: number): number {
    const b = this.b;
    while (i < b.length && isPlain(b[i])) i++;
    return i;
  }

  text(from: number, to: number, ascii: boolean): string | undefined {
    if (ascii || this.latin1) return this.b.toString("latin1", from, to);
    const t = this.b.toString("utf8", from, to);
    // Node's decoder replaces invalid UTF-8 with U+FFFD; only then is the strict one needed to tell.
    if (!t.includes("\ufffd")) return t;
    try {
      return this.utf8.decode(this.b.subarray(from, to));
    } catch {
      return undefined;
    }
  }
}

/**
 * Raw bytes as a source, decoded one string at a time as Python's codec would: strict UTF-8 (a
 * string holding invalid UTF-8 is an error) or Latin-1 (every byte one code point). Escapes and
 * quotes are ASCII, so a run between them never splits a UTF-8 sequence.
 */
export function bytesSource(b: Buffer, encoding: "utf-8" | "latin-1"): JsonSource {
  return new BytesSource(b, encoding === "latin-1");
}

/**
 * Text given in pieces (split anywhere) as a source, for documents larger than one JavaScript
 * string can hold. Only a window is kept: what lies before the position last passed to
 * {@link StreamedText.release} is dropped when the next piece is read (so a tokenizer over it
 * needs a `locate` that does not count lines from the start).
 */
export class StreamedText implements JsonSource {
  readonly unit = "char";
  private window = "";
  private base = 0;
  private keepFrom = 0;
  private done = false;
  private readonly pieces: Iterator<string>;

  constructor(pieces: Iterable<string>) {
    this.pieces = pieces[Symbol.iterator]();
  }

  /** The tokenizer will read nothing before `pos` any more. */
  release(pos: number): void {
    this.keepFrom = Math.max(this.keepFrom, pos);
  }

  at(i: number): number {
    const k = i - this.base;
    return k < this.window.length ? this.window.charCodeAt(k) : this.more(i);
  }

  plainEnd(i: number): number {
    while (isPlain(this.at(i))) i++;
    return i;
  }

  text(from: number, to: number): string {
    return this.window.slice(from - this.base, to - this.base);
  }

  private more(i: number): number {
    while (i - this.base >= this.window.length) {
      if (this.done) return END;
      const next = this.pieces.next();
      if (next.done) {
        this.done = true;
        return END;
      }
      // Dropping the released head only when a piece arrives keeps the copying linear in the text.
      if (this.keepFrom > this.base) {
        this.window = this.window.slice(this.keepFrom - this.base);
        this.base = this.keepFrom;
      }
      this.window += next.value;
    }
    return this.window.charCodeAt(i - this.base);
  }
}

/** What one JSON reader makes of the text beyond the shared grammar. */
export interface JsonDialect {
  /** Words read as values ("-Infinity" included), in the order they are tried. */
  readonly literals: readonly (readonly [string, PyJson])[];
  /** Whether a raw character below U+0020 may stand in a string (Python's strict=False). */
  readonly rawControlChars: boolean;
  /** The deepest nesting accepted (Python's recursion limit stops it near 900 levels). */
  readonly maxDepth: number;
  /**
   * The number at `t.pos` (a "-" or a digit stands there), with `t.pos` moved past it; `keep`
   * is false when the value is only validated, so it need not be built.
   */
  number(t: JsonTokenizer, keep: boolean): PyJson;
}

/** Python's `json.loads` with its defaults: strict strings, NaN and ±Infinity accepted. */
export const PYTHON_JSON: JsonDialect = {
  literals: [
    ["null", null],
    ["true", true],
    ["false", false],
    ["NaN", NaN],
    ["Infinity", Infinity],
    ["-Infinity", -Infinity],
  ],
  rawControlChars: false,
  maxDepth: 900,
  number(t, keep) {
    const start = t.scanNumber();
    return keep ? t.pyNumberValue(start) : null;
  },
};

/** How a reader's errors look and what it does with object keys. */
export interface JsonTokenizerOptions {
  dialect?: JsonDialect;
  /** The position part of an error ("at line 2 column 5 (char 9)" by default). */
  locate?: (at: number) => string;
  /** Maps each object key read (a reader of huge files shares repeated keys this way). */
  key?: (k: string) => string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const COMMA = 0x2c;
const COLON = 0x3a;
const ZERO = 0x30;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const SIMPLE_ESCAPES: Record<number, string> = { 0x22: '"', 0x5c: "\\", 0x2f: "/", 0x62: "\b", 0x66: "\f", 0x6e: "\n", 0x72: "\r", 0x74: "\t" };
const NO_LITERAL = Symbol("no literal");

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

function lineColumn(src: JsonSource, at: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    const c = src.at(i);
    if (c === END) break;
    if (c === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return `at line ${line} column ${at - lineStart + 1} (${src.unit} ${at})`;
}

/**
 * A cursor over JSON text: each method reads one piece of the grammar at `pos` and moves past it,
 * failing with a UserError that names the input (`where`) and the position.
 */
export class JsonTokenizer {
  pos = 0;
  /** Whether the number {@link scanNumber} last read has a fraction or an exponent. */
  isFloat = false;
  readonly dialect: JsonDialect;

  constructor(
    readonly src: JsonSource,
    readonly where: string,
    private readonly opts: JsonTokenizerOptions = {},
  ) {
    this.dialect = opts.dialect ?? PYTHON_JSON;
  }

  /** Throws the UserError for `what` going wrong at `at`. */
  fail(what: string, at = this.pos): never {
    const place = this.opts.locate ? this.opts.locate(at) : lineColumn(this.src, at);
    throw new UserError(`${this.where}: invalid JSON ${place}: ${what}`);
  }

  /** The unit at `pos`, or END. */
  peek(): number {
    return this.src.at(this.pos);
  }

  /** Moves past JSON whitespace (space, tab, newline, carriage return; nothing else). */
  skipWs(): void {
    for (;;) {
      const c = this.src.at(this.pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.pos++;
    }
  }

  /** The whole input as one value: whitespace around it, and nothing else after it. */
  document(): PyJson {
    this.skipWs();
    const v = this.value();
    this.skipWs();
    if (this.peek() !== END) this.fail("extra data after the JSON value");
    return v;
  }

  /** The value at `pos`; with `keep` false it is only validated, and containers come back empty. */
  value(depth = 0, keep = true): PyJson {
    if (depth > this.dialect.maxDepth) this.fail("nesting too deep");
    const c = this.peek();
    if (c === QUOTE) return this.string();
    if (c === OPEN_BRACE) {
      const out: PyJsonObject = new Map();
      if (this.enterObject()) {
        do {
          const k = this.key();
          const v = this.value(depth + 1, keep);
          // A repeated key keeps its first position and takes the last value, as a Python dict does.
          if (keep) out.set(k, v);
        } while (this.nextMember());
      }
      return out;
    }
    if (c === OPEN_BRACKET) {
      const out: PyJson[] = [];
      if (this.enterArray()) {
        do {
          const v = this.value(depth + 1, keep);
          if (keep) out.push(v);
        } while (this.nextItem());
      }
      return out;
    }
    if (isDigit(c)) return this.dialect.number(this, keep);
    const word = this.literal(c);
    if (word !== NO_LITERAL) return word;
    if (c === MINUS) return this.dialect.number(this, keep);
    return this.fail("expecting value");
  }

  private literal(c: number): PyJson | typeof NO_LITERAL {
    // Only a letter or "-Infinity" can start one.
    const letter = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
    if (!letter && !(c === MINUS && this.src.at(this.pos + 1) === 0x49)) return NO_LITERAL;
    for (const [word, v] of this.dialect.literals) {
      if (this.startsWith(word)) {
        this.pos += word.length;
        return v;
      }
    }
    return NO_LITERAL;
  }

  private startsWith(word: string): boolean {
    for (let i = 0; i < word.length; i++) if (this.src.at(this.pos + i) !== word.charCodeAt(i)) return false;
    return true;
  }

  /**
   * The string at `pos` (a quote stands there). Escaped surrogates stay separate UTF-16 units:
   * a pair makes the same string Python builds from it, and a lone half stays lone, as in Python.
   */
  string(): string {
    const src = this.src;
    const start = this.pos;
    let i = start + 1;
    let chunk = i;
    let out = "";
    for (;;) {
      i = src.plainEnd(i);
      const c = src.at(i);
      if (c === QUOTE) break;
      if (c !== BACKSLASH) {
        if (c === END) this.fail("unterminated string", start);
        if (!this.dialect.rawControlChars) this.fail("invalid control character in string", i);
        i++;
        continue;
      }
      out += this.run(chunk, i);
      const e = src.at(i + 1);
      if (e === 0x75) {
        let code = 0;
        for (let k = 2; k < 6; k++) {
          const h = hexValue(src.at(i + k));
          if (h < 0) this.fail("invalid \\uXXXX escape", i);
          code = code * 16 + h;
        }
        out += String.fromCharCode(code);
        i += 6;
      } else {
        const simple = SIMPLE_ESCAPES[e];
        if (simple === undefined) this.fail("invalid \\escape", i);
        out += simple;
        i += 2;
      }
      chunk = i;
    }
    this.pos = i + 1;
    return out + this.run(chunk, i);
  }

  private run(from: number, to: number): string {
    if (from === to) return "";
    const t = this.src.text(from, to, false);
    return t ?? this.fail("invalid UTF-8 in string (Python's utf-8 codec refuses it)", from);
  }

  /** The digits from `i` on: where they end. */
  digitsEnd(i: number): number {
    while (isDigit(this.src.at(i))) i++;
    return i;
  }

  /**
   * Python's number grammar, -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][-+]?[0-9]+)?, at `pos`: moves past
   * the longest match (what does not fit stays unread, as Python's scanner leaves it), sets
   * {@link isFloat} and returns where the number starts.
   */
  scanNumber(): number {
    const src = this.src;
    const start = this.pos;
    let i = start;
    if (src.at(i) === MINUS) i++;
    const first = src.at(i);
    if (first === ZERO) i++;
    else if (first > ZERO && first <= 0x39) i = this.digitsEnd(i + 1);
    else this.fail("expecting value", start);
    this.isFloat = false;
    if (src.at(i) === DOT && isDigit(src.at(i + 1))) {
      i = this.digitsEnd(i + 2);
      this.isFloat = true;
    }
    const e = src.at(i);
    if (e === 0x65 || e === 0x45) {
      let j = i + 1;
      const sign = src.at(j);
      if (sign === PLUS || sign === MINUS) j++;
      if (isDigit(src.at(j))) {
        i = this.digitsEnd(j);
        this.isFloat = true;
      }
    }
    this.pos = i;
    return start;
  }

  /** The text of units [from, pos), which must be ASCII (digits, signs, dots). */
  asciiSince(from: number): string {
    return this.src.text(from, this.pos, true)!;
  }

  /** The number just scanned from `start` as Python makes it: a float (correctly rounded) with a fraction or exponent, else an int of any size. */
  pyNumberValue(start: number): bigint | number {
    const text = this.asciiSince(start);
    return this.isFloat ? Number(text) : BigInt(text);
  }

  /** At "{": moves inside; false, with the "}" read too, when the object is empty. */
  enterObject(): boolean {
    return this.enter(CLOSE_BRACE);
  }

  /** At "[": moves inside; false, with the "]" read too, when the list is empty. */
  enterArray(): boolean {
    return this.enter(CLOSE_BRACKET);
  }

  private enter(close: number): boolean {
    this.pos++;
    this.skipWs();
    if (this.peek() !== close) return true;
    this.pos++;
    return false;
  }

  /** A member's key and the ":" after it; `pos` is left at its value. */
  key(): string {
    if (this.peek() !== QUOTE) this.fail("expecting property name enclosed in double quotes");
    const k = this.string();
    this.skipWs();
    if (this.peek() !== COLON) this.fail("expecting ':' delimiter");
    this.pos++;
    this.skipWs();
    return this.opts.key ? this.opts.key(k) : k;
  }

  /** After a member's value: true at a "," (another member follows), false at the closing "}". */
  nextMember(): boolean {
    return this.next(CLOSE_BRACE);
  }

  /** After an item: true at a "," (another item follows), false at the closing "]". */
  nextItem(): boolean {
    return this.next(CLOSE_BRACKET);
  }

  private next(close: number): boolean {
    this.skipWs();
    const c = this.peek();
    this.pos++;
    if (c === close) return false;
    if (c !== COMMA) this.fail("expecting ',' delimiter", this.pos - 1);
    this.skipWs();
    return true;
  }
}
