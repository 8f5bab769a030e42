// Python's float(text), which upstream (and numpy's text-to-float cast) apply to coordinates.

/** Whitespace as Python's str.strip() removes it. */
const PY_SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const TRIM = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "gu");
// Single underscores may sit between digits.
const DIGITS = "[0-9](?:_?[0-9])*";
const DECIMAL = new RegExp(`^[+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`);
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;
const OTHER_DIGIT = /(?![0-9])\p{Nd}/gu;

/** A Unicode decimal digit as its ASCII digit: each script's digits are ten consecutive code points from zero. */
function asciiDigit(ch: string): string {
  let start = ch.codePointAt(0)!;
  while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
  return String((ch.codePointAt(0)! - start) % 10);
}

/** The number Python's float(text) gives, or undefined where it raises ValueError. */
export function pythonFloat(text: string): number | undefined {
  const t = text.replace(OTHER_DIGIT, asciiDigit).replace(TRIM, "");
  const special = SPECIAL.exec(t);
  if (special) {
    if (special[2].toLowerCase() === "nan") return NaN;
    return special[1] === "-" ? -Infinity : Infinity;
  }
  // JavaScript's decimal conversion rounds correctly, as Python's does.
  return DECIMAL.test(t) ? Number(t.replace(/_/g, "")) : undefined;
}
