/**
 * JSON numbers the way pandas' bundled ujson reads and writes them, which is not how Python's
 * json module or JavaScript do: `read_json` (precise_float off) builds a float from its integer
 * and fractional digits with plain double arithmetic, keeping at most 15 fraction digits, and
 * `to_json` prints floats with at most 10 decimals by its own rounding. Values are `PyJson`
 * (int as bigint, float as number, dict as Map), so ints and floats stay apart. Strings,
 * literals and structure are read by the shared tokenizer (src/pycompat/json-tokenizer.ts); what
 * is ujson's own is here: its numbers, NaN as a missing value, raw control characters in strings.
 */
import { JsonTokenizer, textSource, type JsonDialect, type JsonTokenizerOptions } from "../../pycompat/json-tokenizer.js";
import type { PyJson } from "../../pycompat/pyjson.js";
import { formatG } from "../../pycompat/format-g.js";
import { ujsonValue } from "../_shared/pandas-json.js";

// ujson's table of negative powers of ten: the doubles nearest 10^-i.
const NEG_POW10 = Array.from({ length: 16 }, (_, i) => Number(`1e-${i}`));
const MAX_FRACTION_DIGITS = 15;
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** The digits at `t.pos`, which it moves past ("" when there are none). */
function digits(t: JsonTokenizer): string {
  const start = t.pos;
  t.pos = t.digitsEnd(start);
  return t.asciiSince(start);
}

/**
 * ujson's number: looser than Python's grammar (leading zeros, "1.", "1e" and a bare "-" pass),
 * ints limited to int64/uint64, and a float built from its integer part plus at most fifteen
 * fraction digits in double arithmetic, then scaled by the power of ten of its exponent.
 */
function ujsonNumber(t: JsonTokenizer): PyJson {
  const negative = t.peek() === 0x2d;
  if (negative) t.pos++;
  const intDigits = digits(t);
  const intValue = intDigits.length <= 15 ? BigInt(Number(intDigits || "0")) : BigInt(intDigits);
  if (intValue > (negative ? INT64_MAX + 1n : UINT64_MAX)) t.fail(negative ? "value is too small" : "value is too big");
  const next = t.peek();
  if (next !== 0x2e && next !== 0x65 && next !== 0x45) return negative ? -intValue : intValue;
  let fraction = 0;
  let count = 0;
  if (next === 0x2e) {
    const end = t.digitsEnd(++t.pos);
    // Digits past the fifteenth are read and dropped.
    for (; t.pos < end; t.pos++) {
      if (count < MAX_FRACTION_DIGITS) {
        fraction = fraction * 10 + (t.peek() - 0x30);
        count++;
      }
    }
  }
  let value = (Number(intValue) + fraction * NEG_POW10[count]) * (negative ? -1 : 1);
  const e = t.peek();
  if (e === 0x65 || e === 0x45) {
    t.pos++;
    const sign = t.peek();
    if (sign === 0x2d || sign === 0x2b) t.pos++;
    const exp = digits(t);
    // pow(10, k) is correctly rounded in glibc; so is the literal 1e<k>.
    value *= Number(`1e${sign === 0x2d ? "-" : ""}${exp === "" ? "0" : exp}`);
  }
  return value;
}

/** pandas' ujson (precise_float off): its own numbers, NaN read as a missing value, raw control characters let through. */
const UJSON: JsonDialect = {
  literals: [
    ["null", null],
    ["true", true],
    ["false", false],
    ["NaN", null],
    ["Infinity", Infinity],
    ["-Infinity", -Infinity],
  ],
  rawControlChars: true,
  maxDepth: 1024,
  number: ujsonNumber,
};

// Records come one line at a time, so a column is all an error needs to name.
const UJSON_OPTIONS: JsonTokenizerOptions = { dialect: UJSON, locate: (at) => `at column ${at + 1}` };

/** One JSON value as pandas' ujson (precise_float off) decodes it; `where` names it in errors. */
export function parseUjson(text: string, where: string): PyJson {
  return new JsonTokenizer(textSource(text), where, UJSON_OPTIONS).document();
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
  return ujsonValue(v, where, ujsonDouble);
}
