// Run-length encoding of binary masks as mle-bench's competitions/utils.py does it: pairs of
// "start length", 1-based, pixels numbered down each column and then across the columns.
// Masks on the TypeScript side are row-major height × width arrays. Graders that only need pixel
// counts work on the runs themselves (rleRuns), so an image of 30000 × 30000 pixels costs memory
// in proportion to its runs, not its area.

import { pyInt } from "../pycompat/pynum.js";
import { pySplit } from "../pycompat/pystr.js";

/** An RLE string that upstream's rle_decode refuses (the message says why). */
export class RleError extends Error {
  override name = "RleError";
}

/** Painted pixels of one decoded mask: half-open [starts[i], ends[i]) in flat pixel order, sorted and disjoint. */
export interface RleRuns {
  starts: Float64Array;
  ends: Float64Array;
}

// Plain ASCII digits separated by ASCII whitespace, the shape of nearly every real RLE string, are
// read without splitting; anything else (signs, underscores, other scripts, huge values) returns
// undefined and goes through the general path.
function fastNumbers(rle: string): Float64Array | undefined {
  let out = new Float64Array(64);
  let n = 0;
  let value = 0;
  let inToken = false;
  const push = () => {
    if (value > Number.MAX_SAFE_INTEGER) return false;
    if (n === out.length) {
      const grown = new Float64Array(out.length * 2);
      grown.set(out);
      out = grown;
    }
    out[n++] = value;
    value = 0;
    inToken = false;
    return true;
  };
  for (let i = 0; i < rle.length; i++) {
    const c = rle.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      inToken = true;
    } else if (c === 32 || (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x1f)) {
      if (inToken && !push()) return undefined;
    } else {
      return undefined;
    }
  }
  if (inToken && !push()) return undefined;
  return out.subarray(0, n);
}

function pythonNumbers(rle: string): bigint[] {
  return pySplit(rle).map((t, i) => {
    const v = pyInt(t);
    if (v === null) {
      const shown = t.length > 40 ? t.slice(0, 37) + "..." : t;
      throw new RleError(`invalid integer ${JSON.stringify(shown)} in RLE string (value ${i + 1}); expected "start length" pairs of whole numbers`);
    }
    return v;
  });
}

// Upstream's checks, in its order, on numbers as Python ints: starts sorted, starts and lengths
// positive. Returns how many runs upstream's numpy arithmetic pairs up: with an odd count the
// shapes of starts and lengths differ by one, which numpy only accepts when there is a single
// length (broadcast to both starts) or none (no runs at all).
function checkNumbers<T extends number | bigint>(values: ArrayLike<T>, zero: T): number {
  const n = values.length;
  for (let i = 2; i < n; i += 2) {
    if (values[i] < values[i - 2]) {
      throw new RleError(
        `the pairs in the RLE string must be sorted by start, but pair ${i / 2 + 1} starts at ${values[i]} after a pair starting at ${values[i - 2]}`,
      );
    }
  }
  for (let i = 0; i < n; i += 2) {
    if (values[i] <= zero) throw new RleError(`all pairs in the RLE string must be positive integers, but pair ${i / 2 + 1} starts at ${values[i]}`);
  }
  for (let i = 1; i < n; i += 2) {
    if (values[i] <= zero) {
      throw new RleError(`all pairs in the RLE string must be positive integers, but pair ${(i + 1) / 2} has length ${values[i]}`);
    }
  }
  if (n % 2 === 0) return n / 2;
  if (n === 1) return 0;
  if (n === 3) return 2;
  throw new RleError(`the RLE string has an odd number of values (${n}); starts and lengths must pair up`);
}

class RunBuilder {
  starts = new Float64Array(16);
  ends = new Float64Array(16);
  count = 0;

  // lo/hi are already clipped to the image as numpy slicing clips them; a run only overlaps when
  // it begins before the furthest end so far, since starts never decrease.
  add(lo: number, hi: number, pair: number): void {
    if (hi <= lo) return;
    if (this.count > 0 && lo < this.ends[this.count - 1]) {
      throw new RleError(`overlapping RLE pairs are not allowed: pair ${pair} (start ${lo + 1}) covers pixels an earlier pair already covers`);
    }
    if (this.count === this.starts.length) {
      const s = new Float64Array(this.count * 2);
      const e = new Float64Array(this.count * 2);
      s.set(this.starts);
      e.set(this.ends);
      this.starts = s;
      this.ends = e;
    }
    this.starts[this.count] = lo;
    this.ends[this.count] = hi;
    this.count++;
  }

  done(): RleRuns {
    return { starts: this.starts.subarray(0, this.count), ends: this.ends.subarray(0, this.count) };
  }
}

function runsOfNumbers(values: ArrayLike<number>, size: number): RleRuns {
  const pairs = checkNumbers(values, 0);
  const out = new RunBuilder();
  for (let r = 0; r < pairs; r++) {
    const lo = values[2 * r] - 1;
    // Below 2^53 every start and length is exact, and a sum that rounds can only exceed `size`.
    const hi = lo + values[values.length === 3 ? 1 : 2 * r + 1];
    out.add(Math.min(lo, size), Math.min(hi, size), r + 1);
  }
  return out.done();
}

const I64_MAX = (1n << 63n) - 1n;
const U64_MAX = (1n << 64n) - 1n;

// numpy's dtype for np.array(list of positive Python ints).
function numpyIntDtype(values: bigint[]): "int64" | "uint64" | "object" {
  let dtype: "int64" | "uint64" | "object" = "int64";
  for (const v of values) {
    if (v > U64_MAX) return "object";
    if (v > I64_MAX) dtype = "uint64";
  }
  return dtype;
}

// Values beyond 2^53 follow numpy's integer arithmetic exactly: int64 sums wrap, uint64 sums wrap
// modulo 2^64, int64 + uint64 becomes float64 (which cannot index a slice), object arrays stay exact.
function runsOfBigNumbers(values: bigint[], size: number): RleRuns {
  const pairs = checkNumbers(values, 0n);
  const starts = values.filter((_, i) => i % 2 === 0);
  const lengths = values.filter((_, i) => i % 2 === 1);
  const sd = numpyIntDtype(starts);
  const ld = numpyIntDtype(lengths);
  const out = new RunBuilder();
  const n = BigInt(size);
  for (let r = 0; r < pairs; r++) {
    const lo = starts[r] - 1n;
    let hi = lo + lengths[lengths.length === 1 ? 0 : r];
    if (sd !== "object" && ld !== "object") {
      if (sd !== ld) {
        throw new RleError(`pair ${r + 1} mixes values beyond 2^63 with smaller ones, which upstream's numpy turns into floats it cannot use as pixel positions`);
      }
      hi = sd === "int64" ? BigInt.asIntN(64, hi) : BigInt.asUintN(64, hi);
    }
    // Python slice bounds: a negative end counts from the end of the image.
    if (hi < 0n) hi = hi + n < 0n ? 0n : hi + n;
    const clip = (v: bigint) => Number(v < n ? v : n);
    out.add(clip(lo), clip(hi), r + 1);
  }
  return out.done();
}

/**
 * The runs upstream's rle_decode paints on an image of `size` pixels, with its checks: values
 * are Python integers, starts sorted and positive, lengths positive, no two runs sharing a pixel
 * inside the image. Runs past the last pixel are cut off silently. Throws RleError.
 */
export function rleRuns(rle: string, size: number): RleRuns {
  if (!Number.isSafeInteger(size) || size < 0) throw new Error(`rleRuns: size must be a non-negative integer (got ${size})`);
  const fast = fastNumbers(rle);
  if (fast) return runsOfNumbers(fast, size);
  const numbers = pythonNumbers(rle);
  if (numbers.every((v) => v >= -BigInt(Number.MAX_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER))) {
    return runsOfNumbers(numbers.map(Number), size);
  }
  return runsOfBigNumbers(numbers, size);
}

/** Number of pixels the runs cover. */
export function runsArea(runs: RleRuns): number {
  let area = 0;
  for (let i = 0; i < runs.starts.length; i++) area += runs.ends[i] - runs.starts[i];
  return area;
}

/** Number of pixels covered by both sets of runs (a linear merge of the two sorted lists). */
export function runsOverlap(a: RleRuns, b: RleRuns): number {
  let i = 0;
  let j = 0;
  let total = 0;
  while (i < a.starts.length && j < b.starts.length) {
    const lo = Math.max(a.starts[i], b.starts[j]);
    const hi = Math.min(a.ends[i], b.ends[j]);
    if (hi > lo) total += hi - lo;
    if (a.ends[i] <= b.ends[j]) i++;
    else j++;
  }
  return total;
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
  let runs: RleRuns;
  try {
    runs = rleRuns(rle, size);
  } catch (e) {
    if (e instanceof RleError) throw new Error(`rleDecode: ${e.message}`);
    throw e;
  }
  // Column-major flat index k = col * height + row.
  const flat = new Uint8Array(size);
  for (let r = 0; r < runs.starts.length; r++) flat.fill(1, runs.starts[r], runs.ends[r]);
  const mask = new Uint8Array(size);
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
