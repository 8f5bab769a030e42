/** Whitespace as Python's `str.strip()` removes it (Unicode White_Space plus the \x1c-\x1f separators). */
const PY_SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const TRIM = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "g");
// Python's float literal grammar: single underscores may sit between digits.
const DIGITS = "\\d(?:_?\\d)*";
const DECIMAL = new RegExp(`^[+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`);
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * The number Python's `float(text)` gives, or undefined where it raises ValueError. Digits
 * outside ASCII (which Python also accepts) are not recognised.
 */
export function pythonFloat(text: string): number | undefined {
  const t = text.replace(TRIM, "");
  const special = SPECIAL.exec(t);
  if (special) {
    if (special[2].toLowerCase() === "nan") return NaN;
    return special[1] === "-" ? -Infinity : Infinity;
  }
  // JavaScript's decimal conversion rounds correctly, as Python's does.
  return DECIMAL.test(t) ? Number(t.replace(/_/g, "")) : undefined;
}
