// Run-length encoding of binary masks as mle-bench's competitions/utils.py does it: pairs of
// "start length", 1-based, pixels numbered down each column and then across the columns.
// Masks on the TypeScript side are row-major height × width arrays.

// The characters Python's str.split() treats as whitespace (JS's \s differs: it lacks
// U+001C..U+001F and U+0085 but includes U+FEFF).
const PY_WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

// Value of a Unicode decimal digit: Nd digits come in contiguous runs ordered 0..9.
function digitValue(ch: string): number | undefined {
  if (ch >= "0" && ch <= "9") return ch.charCodeAt(0) - 48;
  if (!/^\p{Nd}$/u.test(ch)) return undefined;
  let cp = ch.codePointAt(0) as number;
  let value = 0;
  while (/^\p{Nd}$/u.test(String.fromCodePoint(cp - 1))) {
    cp--;
    value++;
  }
  return value % 10;
}

// Python's int(token): optional sign, decimal digits (any script) with single underscores between.
function parsePythonInt(token: string): number | undefined {
  const chars = Array.from(token);
  let i = 0;
  let sign = 1;
  if (chars[0] === "+" || chars[0] === "-") {
    sign = chars[0] === "-" ? -1 : 1;
    i = 1;
  }
  if (i >= chars.length) return undefined;
  let value = 0;
  let lastWasDigit = false;
  for (; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === "_") {
      if (!lastWasDigit) return undefined;
      lastWasDigit = false;
      continue;
    }
    const d = digitValue(ch);
    if (d === undefined) return undefined;
    value = value * 10 + d;
    lastWasDigit = true;
  }
  if (!lastWasDigit) return undefined;
  return sign * value;
}

function checkDimensions(height: number, width: number): void {
  if (!Number.isInteger(height) || height < 0) throw new Error(`rle: height must be a non-negative integer (got ${height})`);
  if (!Number.isInteger(width) || width < 0) throw new Error(`rle: width must be a non-negative integer (got ${width})`);
}

/** Decode "start length ..." into a row-major height × width 0/1 mask, enforcing upstream's checks. */
export function rleDecode(rle: string, height: number, width: number): Uint8Array {
  if (typeof rle !== "string") throw new Error(`rleDecode: expected a string, got ${typeof rle}`);
  checkDimensions(height, width);
  const size = height * width;
  const mask = new Uint8Array(size);
  const tokens = rle.split(PY_WHITESPACE).filter((t) => t.length > 0);
  if (tokens.length === 0) return mask;

  const numbers = tokens.map((t) => {
    const v = parsePythonInt(t);
    if (v === undefined) throw new Error(`rleDecode: invalid integer ${JSON.stringify(t)} in RLE string`);
    return v;
  });
  const starts = numbers.filter((_, i) => i % 2 === 0);
  let lengths = numbers.filter((_, i) => i % 2 === 1);
  for (let i = 1; i < starts.length; i++) {
    if (starts[i] < starts[i - 1]) throw new Error("rleDecode: the pairs in the RLE string must be sorted");
  }
  if (starts.some((s) => s <= 0) || lengths.some((l) => l <= 0)) {
    throw new Error("rleDecode: all pairs in the RLE string must be positive integers");
  }
  // Odd counts follow upstream's numpy arithmetic (ends = starts + lengths): one value draws
  // nothing, three values broadcast the single length to both starts, five or more fail.
  if (numbers.length % 2 === 1) {
    if (numbers.length === 3) lengths = [lengths[0], lengths[0]];
    else if (numbers.length >= 5) {
      throw new Error(
        `rleDecode: the RLE string has an odd number of values (${numbers.length}); starts and lengths must pair up`,
      );
    }
  }

  // Column-major flat index k = col * height + row; runs beyond the last pixel are cut off
  // silently (numpy slicing), and overlap only counts inside the image.
  const flat = new Uint8Array(size);
  for (let r = 0; r < lengths.length; r++) {
    const lo = starts[r] - 1;
    const hi = Math.min(lo + lengths[r], size);
    for (let k = lo; k < hi; k++) {
      if (flat[k]) throw new Error("rleDecode: overlapping RLE pairs are not allowed");
    }
    flat.fill(1, Math.min(lo, size), hi);
  }
  for (let col = 0; col < width; col++) {
    for (let row = 0; row < height; row++) mask[row * width + col] = flat[col * height + row];
  }
  return mask;
}

/** Encode a row-major height × width mask as [start, length, ...] (1-based, column-major); a pixel is set when it equals fgValue. */
export function rleEncode(mask: ArrayLike<number>, height: number, width: number, fgValue = 1): number[] {
  checkDimensions(height, width);
  if (mask.length !== height * width) {
    throw new Error(`rleEncode: mask has ${mask.length} pixels, expected ${height} × ${width} = ${height * width}`);
  }
  const runs: number[] = [];
  let prev = -2;
  for (let col = 0; col < width; col++) {
    for (let row = 0; row < height; row++) {
      if (mask[row * width + col] !== fgValue) continue;
      const k = col * height + row;
      if (k > prev + 1) runs.push(k + 1, 0);
      runs[runs.length - 1]++;
      prev = k;
    }
  }
  return runs;
}

/** rleEncode joined with single spaces ("" for an empty mask). */
export function rleEncodeString(mask: ArrayLike<number>, height: number, width: number, fgValue = 1): string {
  return rleEncode(mask, height, width, fgValue).join(" ");
}
