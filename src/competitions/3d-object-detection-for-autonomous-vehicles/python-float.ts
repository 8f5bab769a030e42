/** Python's str.strip() and float() on text, as upstream applies them to PredictionString tokens. */

// str.isspace's characters, which differ from JavaScript's \s (no U+FEFF, plus \x1c-\x1f and \x85).
const SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const EDGE_SPACE = new RegExp(`^${SPACE}+|${SPACE}+$`, "g");

const DECIMAL = /^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const SPECIAL = /^([+-]?)(?:(inf|infinity)|nan)$/i;

/** Python's `s.strip()` (no arguments). */
export function pyStrip(s: string): string {
  return s.replace(EDGE_SPACE, "");
}

/** Python's `float(s)` for text, or null where Python raises ValueError (digits may be grouped with underscores). */
export function pyFloat(s: string): number | null {
  const t = pyStrip(s);
  if (DECIMAL.test(t)) return Number(t.replaceAll("_", ""));
  const m = SPECIAL.exec(t);
  if (!m) return null;
  if (m[2] === undefined) return NaN;
  return m[1] === "-" ? -Infinity : Infinity;
}
