/**
 * Python's str where JavaScript's differs. Whitespace for `str.strip()` and `str.split()` without
 * arguments: Python also counts U+001C..U+001F and U+0085, and not U+FEFF (the byte order mark).
 * Ordering: Python compares code points, JavaScript UTF-16 units.
 */

import type { Column } from "../core/table.js";
import { pyFloatRepr } from "./pyfloat.js";

// Every code point for which Python's str.isspace() is true (all in the BMP).
const PY_SPACE = "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000";
const RUNS = new RegExp(`[${PY_SPACE}]+`);

/** Python's `ch.isspace()` for one UTF-16 code unit. */
export function pyIsSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return (
    c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

/** Python's `s.strip()`. */
export function pyStrip(s: string): string {
  // Scanned from both ends: a trailing-anchored regex is quadratic-ish on long lines with many spaces.
  let a = 0;
  let b = s.length;
  while (a < b && pyIsSpace(s.charCodeAt(a))) a++;
  while (b > a && pyIsSpace(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** Python's `s.split()`: the words between runs of whitespace, none empty. */
export function pySplit(s: string): string[] {
  const t = pyStrip(s);
  return t === "" ? [] : t.split(RUNS);
}

/** Python's `<` on str (code point order), as `sorted()` and sort_keys use it. */
export function comparePyStr(a: string, b: string): number {
  // UTF-16 unit order puts astral characters before U+E000..U+FFFF, so walk by code points;
  // a lone surrogate counts as its own code point, as in Python.
  let i = 0;
  while (i < a.length && i < b.length) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

/** Row `i` of a column as Python's `str()` prints it (pandas `astype(str)`): NaN is "nan", floats use repr. */
export function pyStrAt(col: Column, i: number): string {
  switch (col.kind) {
    case "int":
    case "bigint":
      return String(col.values[i]);
    case "float":
      return pyFloatRepr(col.values[i]);
    case "bool":
      return col.values[i] ? "True" : "False";
    case "string":
      return (col.text ? col.text.text(i) : col.values[i]) ?? "nan";
    case "object": {
      const v = col.values[i];
      return v === null ? "nan" : v ? "True" : "False";
    }
  }
}
