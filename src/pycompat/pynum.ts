/**
 * Python's int() and float() on text, which upstream graders and preparers apply to submitted
 * cells, tokens and raw file fields. Both are looser than JavaScript's parsers: digits of any
 * script, single underscores between digits, and Unicode whitespace around the number.
 */
import { pyIsSpace } from "./pystr.js";

const ND = /^\p{Nd}$/u;

/** The value of a Unicode decimal digit (category Nd), or undefined for any other character. */
export function pyDigit(ch: string): number | undefined {
  const cp = ch.codePointAt(0);
  if (cp === undefined || ch.length !== (cp > 0xffff ? 2 : 1)) return undefined;
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  if (cp < 0x80 || !ND.test(ch)) return undefined;
  // Unicode allocates decimal digits in runs of ten code points, zero first.
  let zero = cp;
  while (ND.test(String.fromCodePoint(zero - 1))) zero--;
  return (cp - zero) % 10;
}

/**
 * Whitespace that int() and float() ignore around a number. CPython maps non-ASCII whitespace to
 * " " and then strips only ASCII whitespace, so \x1c..\x1f, which str.strip() removes, stay and
 * make the text invalid.
 */
function isNumberSpace(c: number): boolean {
  return pyIsSpace(c) && (c < 0x1c || c > 0x1f);
}

/**
 * The text as CPython hands it to its ASCII number parser: surrounding whitespace removed and
 * digits of other scripts turned into ASCII; null when another non-ASCII character remains,
 * which no number can contain.
 */
function asciiNumber(text: string): string | null {
  let a = 0;
  let b = text.length;
  while (a < b && isNumberSpace(text.charCodeAt(a))) a++;
  while (b > a && isNumberSpace(text.charCodeAt(b - 1))) b--;
  let t = a === 0 && b === text.length ? text : text.slice(a, b);
  if (/[^\0-\x7f]/.test(t)) {
    let out = "";
    for (const ch of t) {
      if (ch.charCodeAt(0) < 0x80) {
        out += ch;
        continue;
      }
      const d = pyDigit(ch);
      if (d === undefined) return null;
      out += String(d);
    }
    t = out;
  }
  return t;
}

const INT = /^[+-]?[0-9](?:_?[0-9])*$/;
// Python 3.11+ refuses decimal text of more digits than this (sys.get_int_max_str_digits()),
// counting leading zeros, to bound the quadratic conversion; upstream needs Python 3.11.
const MAX_INT_DIGITS = 4300;

/** Python's `int(text)` in base 10, or null where it raises ValueError. */
export function pyInt(text: string): bigint | null {
  const t = asciiNumber(text);
  if (t === null || !INT.test(t)) return null;
  // Leading zeros are fine here: only int(text, 0) and int literals refuse them.
  const digits = t.includes("_") ? t.replace(/_/g, "") : t;
  if (digits.length > MAX_INT_DIGITS && digits.replace(/^[+-]/, "").length > MAX_INT_DIGITS) return null;
  return BigInt(digits);
}

const DIGITS = "[0-9](?:_?[0-9])*";
const DECIMAL = new RegExp(`^[+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`);
const SPECIAL = /^([+-]?)(?:(inf|infinity)|nan)$/i;

/** Whether `text` is non-empty and made only of ASCII digits, ".", "e", "E", "+" and "-". */
function isPlainNumeral(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45)) return false;
  }
  return true;
}

/** Python's `float(text)`, or null where it raises ValueError. */
export function pyFloat(text: string): number | null {
  // Over these characters JavaScript's numeral grammar is Python's (JavaScript gives NaN where
  // Python raises), and nearly every real cell is made of them.
  if (isPlainNumeral(text)) {
    const v = Number(text);
    return v === v ? v : null;
  }
  const t = asciiNumber(text);
  if (t === null) return null;
  // Both languages round decimal text to the nearest double, ties to even.
  if (DECIMAL.test(t)) return Number(t.includes("_") ? t.replace(/_/g, "") : t);
  const special = SPECIAL.exec(t);
  if (!special) return null;
  if (special[2] === undefined) return NaN;
  return special[1] === "-" ? -Infinity : Infinity;
}
