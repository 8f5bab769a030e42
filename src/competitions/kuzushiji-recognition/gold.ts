/**
 * Upstream's gold submission for Kuzushiji: each "class x y w h" box of the answers becomes the
 * point "class x+1 y+1", one step inside the box so the metric counts it as a hit. The parsing
 * follows Python's str.split() and int(), which are looser than JavaScript's.
 */
import { UserError } from "../../core/errors.js";

// The characters Python's str.split() treats as whitespace (str.isspace), which \s does not match exactly.
const PY_SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;
const DECIMAL = /\p{Nd}/u;

/** Python's `s.split()`: runs of whitespace separate, leading and trailing runs are dropped. */
export function pySplit(s: string): string[] {
  return s.split(PY_SPACE).filter((t) => t !== "");
}

/** A Unicode decimal digit's value: decimals come in runs of ten code points starting at zero. */
function digitValue(ch: string): string {
  let cp = ch.codePointAt(0)!;
  let start = cp;
  while (start > 0 && DECIMAL.test(String.fromCodePoint(start - 1))) start--;
  cp -= start;
  return String(cp % 10);
}

/** Python's `int(token)` in base 10 as a bigint, or null where Python raises ValueError. */
export function pyInt(token: string): bigint | null {
  const ascii = Array.from(token, (ch) => (/[0-9]/.test(ch) || !DECIMAL.test(ch) ? ch : digitValue(ch))).join("");
  // Underscores may only sit between two digits; leading zeros are fine in int() (unlike literals).
  if (!/^[+-]?[0-9](?:_?[0-9])*$/.test(ascii)) return null;
  return BigInt(ascii.replace(/_/g, ""));
}

/** "c x y w h c x y w h ..." to "c x+1 y+1 c x+1 y+1 ...", failing where upstream's steps fail. */
export function goldLabel(label: string | null, where: string): string {
  if (label === null) throw new UserError(`${where}: labels is missing; upstream cannot build a gold submission for a page without labels`);
  const parts = pySplit(label);
  if (parts.length % 5 !== 0) {
    throw new UserError(`${where}: labels has ${parts.length} fields, expected groups of five ("class x y width height")`);
  }
  const out: string[] = [];
  for (let k = 0; k < parts.length; k += 5) {
    const x = pyInt(parts[k + 1]);
    const y = pyInt(parts[k + 2]);
    if (x === null || y === null) {
      const bad = x === null ? parts[k + 1] : parts[k + 2];
      throw new UserError(`${where}: labels has coordinate ${JSON.stringify(bad)} in box ${k / 5 + 1}, expected an integer`);
    }
    out.push(`${parts[k]} ${x + 1n} ${y + 1n}`);
  }
  return out.join(" ");
}
