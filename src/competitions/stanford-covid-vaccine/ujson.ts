/**
 * JSON numbers the way pandas' bundled ujson reads and writes them, which is not how Python's
 * json module or JavaScript do: `read_json` (precise_float off) builds a float from its integer
 * and fractional digits with plain double arithmetic, keeping at most 15 fraction digits, and
 * `to_json` prints floats with at most 10 decimals by its own rounding. Values are `PyJson`
 * (int as bigint, float as number, dict as Map), so ints and floats stay apart.
 */
import { UserError } from "../../core/errors.js";
import type { PyJson } from "../../pycompat/pyjson.js";
import { formatG } from "../../pycompat/format-g.js";
import { ujsonQuote } from "../_shared/pandas-json.js";

// ujson's table of negative powers of ten: the doubles nearest 10^-i.
const NEG_POW10 = Array.from({ length: 16 }, (_, i) => Number(`1e-${i}`));
const MAX_FRACTION_DIGITS = 15;
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

class UjsonDecoder {
  pos = 0;

  constructor(
    private readonly s: string,
    private readonly where: string,
  ) {}

  fail(what: string): never {
    throw new UserError(`${this.where}: invalid JSON at column ${this.pos + 1}: ${what}`);
  }

  skipWs(): void {
    for (;;) {
      const c = this.s.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return;
      this.pos++;
    }
  }

  literal(word: string, value: PyJson): PyJson {
    if (!this.s.startsWith(word, this.pos)) this.fail(`expected '${word}'`);
    this.pos += word.length;
    return value;
  }

  value(depth: number): PyJson {
    if (depth > 1024) this.fail("nesting too deep");
    this.skipWs();
    const c = this.s[this.pos];
    switch (c) {
      case '"':
        return this.string();
      case "{":
        return this.object(depth);
      case "[":
        return this.array(depth);
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "n":
        return this.literal("null", null);
      case "N":
        // ujson reads NaN as a missing value.
        return this.literal("NaN", null);
      case "I":
        return this.literal("Infinity", Infinity);
      default:
        if (c === "-" || isDigit(this.s.charCodeAt(this.pos))) return this.number();
        return this.fail(c === undefined ? "unexpected end of line" : `unexpected character '${c}'`);
    }
  }

  digits(): string {
    const start = this.pos;
    while (isDigit(this.s.charCodeAt(this.pos))) this.pos++;
    return this.s.slice(start, this.pos);
  }

  number(): PyJson {
    let negative = false;
    if (this.s[this.pos] === "-") {
      negative = true;
      this.pos++;
      if (this.s[this.pos] === "I") return -(this.literal("Infinity", Infinity) as number);
    }
    const intDigits = this.digits();
    const intValue = intDigits.length <= 15 ? BigInt(Number(intDigits || "0")) : BigInt(intDigits);
    if (intValue > (negative ? INT64_MAX + 1n : UINT64_MAX)) this.fail(negative ? "value is too small" : "value is too big");
    const next = this.s[this.pos];
    if (next !== "." && next !== "e" && next !== "E") return negative ? -intValue : intValue;
    let fraction = 0;
    let count = 0;
    if (next === ".") {
      this.pos++;
      for (const d of this.digits()) {
        // Digits past the fifteenth are read and dropped.
        if (count < MAX_FRACTION_DIGITS) {
          fraction = fraction * 10 + (d.charCodeAt(0) - 0x30);
          count++;
        }
      }
    }
    let value = (Number(intValue) + fraction * NEG_POW10[count]) * (negative ? -1 : 1);
    const e = this.s[this.pos];
    if (e === "e" || e === "E") {
      this.pos++;
      let sign = "";
      if (this.s[this.pos] === "-" || this.s[this.pos] === "+") sign = this.s[this.pos++];
      const exp = this.digits();
      // pow(10, k) is correctly rounded in glibc; so is the literal 1e<k>.
      value *= Number(`1e${sign === "-" ? "-" : ""}${exp === "" ? "0" : exp}`);
    }
    return value;
  }

  string(): string {
    const s = this.s;
    this.pos++;
    let out = "";
    let chunk = this.pos;
    for (;;) {
      const c = s.charCodeAt(this.pos);
      if (Number.isNaN(c)) this.fail("unterminated string");
      if (c === 0x22) {
        out += s.slice(chunk, this.pos);
        this.pos++;
        return out;
      }
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += s.slice(chunk, this.pos);
      const esc = s[this.pos + 1];
      this.pos += 2;
      if (esc === "u") {
        const hex = s.slice(this.pos, this.pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("bad unicode escape");
        out += String.fromCharCode(parseInt(hex, 16));
        this.pos += 4;
      } else {
        const simple: Record<string, string> = { "\\": "\\", '"': '"', "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        if (esc === undefined || !(esc in simple)) this.fail(`bad escape '\\${esc ?? ""}'`);
        out += simple[esc];
      }
      chunk = this.pos;
    }
  }

  array(depth: number): PyJson[] {
    this.pos++;
    const out: PyJson[] = [];
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
      if (c !== ",") this.fail("expected ',' or ']' in an array");
    }
  }

  object(depth: number): Map<string, PyJson> {
    this.pos++;
    const out = new Map<string, PyJson>();
    this.skipWs();
    if (this.s[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWs();
      if (this.s[this.pos] !== '"') this.fail("expected a key string");
      const key = this.string();
      this.skipWs();
      if (this.s[this.pos++] !== ":") this.fail("expected ':' after a key");
      out.set(key, this.value(depth + 1));
      this.skipWs();
      const c = this.s[this.pos++];
      if (c === "}") return out;
      if (c !== ",") this.fail("expected ',' or '}' in an object");
    }
  }
}

/** One JSON value as pandas' ujson (precise_float off) decodes it; `where` names it in errors. */
export function parseUjson(text: string, where: string): PyJson {
  const d = new UjsonDecoder(text, where);
  const v = d.value(0);
  d.skipWs();
  if (d.pos !== text.length) d.fail("extra data after the value");
  return v;
}

/** A float as `to_json` (double_precision 10) prints it; NaN and infinities become null. */
export function ujsonDouble(v: number): string {
  if (!Number.isFinite(v)) return "null";
  const neg = v < 0;
  const value = neg ? -v : v;
  // Out of its fixed-point range ujson hands over to printf's %.10g.
  if (value > 1e16 - 1 || (value !== 0 && value < 1e-15)) return formatG(v, 10);
  let whole = Math.trunc(value);
  const tmp = (value - whole) * 1e10;
  let frac = Math.trunc(tmp);
  const diff = tmp - frac;
  // Its own halfway rule: up when the kept digit is odd, and also when it is zero.
  if (diff > 0.5 || (diff === 0.5 && (frac === 0 || frac % 2 === 1))) frac++;
  if (frac >= 1e10) {
    frac = 0;
    whole++;
  }
  const fracText = frac === 0 ? "0" : String(frac).padStart(10, "0").replace(/0+$/, "");
  return `${neg ? "-" : ""}${whole}.${fracText}`;
}

/** A decoded value written back as `to_json` writes a cell holding it. */
export function ujsonEncode(v: PyJson, where: string): string {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return ujsonDouble(v);
  if (typeof v === "string") return ujsonQuote(v, where);
  if (Array.isArray(v)) return `[${v.map((x) => ujsonEncode(x, where)).join(",")}]`;
  const parts: string[] = [];
  for (const [k, x] of v) parts.push(`${ujsonQuote(k, where)}:${ujsonEncode(x, where)}`);
  return `{${parts.join(",")}}`;
}
