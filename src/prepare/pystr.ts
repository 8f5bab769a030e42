/**
 * Python's whitespace rules for `str.strip()` and `str.split()` without arguments, which differ
 * from JavaScript's `trim()` and `/\s/`: Python also counts U+001C..U+001F and U+0085 as
 * whitespace, and does not count U+FEFF (the byte order mark).
 */

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
