/** Python's int() on text, for graders that convert submitted labels and spans as upstream does. */
import { pyStrip } from "../prepare/pystr.js";

const DECIMAL = /^\p{Nd}$/u;

/** The value of a Unicode decimal digit; such digits come in runs of ten code points, zero first. */
function digitValue(ch: string): number {
  let cp = ch.codePointAt(0)!;
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  let offset = 0;
  while (DECIMAL.test(String.fromCodePoint(cp - 1))) {
    cp--;
    offset++;
  }
  return offset % 10;
}

/**
 * Python's `int(text)` in base 10, or null where Python raises ValueError: surrounding
 * whitespace, a sign, digits of any script, single underscores between digits.
 */
export function pyIntText(text: string): bigint | null {
  const chars = Array.from(pyStrip(text));
  let i = 0;
  let negative = false;
  if (chars[0] === "+" || chars[0] === "-") {
    negative = chars[0] === "-";
    i = 1;
  }
  let digits = "";
  let afterDigit = false;
  for (; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === "_") {
      if (!afterDigit || i + 1 >= chars.length) return null;
      afterDigit = false;
      continue;
    }
    if (!DECIMAL.test(ch)) return null;
    digits += String(digitValue(ch));
    afterDigit = true;
  }
  if (!afterDigit) return null;
  const v = BigInt(digits);
  return negative ? -v : v;
}
