/**
 * Stable ascending order of a numeric column in linear time: test sets hold millions of numeric
 * ids (icecube has 13M events), where a comparison sort with a callback takes tens of seconds.
 */

/** Below this many values a comparison sort is as fast and allocates less. */
const SMALL = 2048;

const scratch = new Float64Array(1);
const bits = new Uint32Array(scratch.buffer);

/**
 * Row order sorting `values` ascending: NaN last, -0 equal to 0, ties in row order (what
 * `sort_values(kind="stable")` gives, and what every grader here pairs rows by).
 */
export function numericSortOrder(values: ArrayLike<number>): Uint32Array {
  const n = values.length;
  const order = new Uint32Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    order[i] = i;
    if (sorted && i > 0 && !(values[i - 1] <= values[i]) && compareNumbers(values[i - 1], values[i]) > 0) sorted = false;
  }
  // Agents usually keep the answers' (already sorted) row order.
  if (sorted) return order;
  if (n < SMALL) return order.sort((a, b) => compareNumbers(values[a], values[b]) || a - b);
  return radixOrder(values, order);
}

function compareNumbers(x: number, y: number): number {
  if (x < y) return -1;
  if (x > y) return 1;
  const xn = x !== x;
  const yn = y !== y;
  return xn === yn ? 0 : xn ? 1 : -1;
}

const TWO_32 = 2 ** 32;

/** Keys of whole numbers: their distance from the smallest, as two 32-bit halves. False if any is not whole. */
function wholeKeys(values: ArrayLike<number>, lo: Uint32Array, hi: Uint32Array): boolean {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    // x - x is NaN for NaN and the infinities.
    if (x - x !== 0 || Math.floor(x) !== x) return false;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  if (max - min > Number.MAX_SAFE_INTEGER) return false;
  if (max - min < TWO_32) {
    // The usual case (ids): one 32-bit word, so the high passes are skipped.
    for (let i = 0; i < values.length; i++) lo[i] = values[i] - min;
    return true;
  }
  for (let i = 0; i < values.length; i++) {
    const d = values[i] - min;
    lo[i] = d % TWO_32;
    hi[i] = Math.floor(d / TWO_32);
  }
  return true;
}

/** Keys of any doubles: their bits mapped so that unsigned order is numeric order, NaN last, -0 as 0. */
function floatKeys(values: ArrayLike<number>, lo: Uint32Array, hi: Uint32Array): void {
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (x !== x) {
      hi[i] = 0xffffffff;
      lo[i] = 0xffffffff;
      continue;
    }
    scratch[0] = x === 0 ? 0 : x;
    const h = bits[1];
    // Negative numbers: flip every bit; positive: flip the sign bit.
    if (h & 0x80000000) {
      hi[i] = ~h >>> 0;
      lo[i] = ~bits[0] >>> 0;
    } else {
      hi[i] = (h | 0x80000000) >>> 0;
      lo[i] = bits[0];
    }
  }
}

/** LSD radix sort on 64-bit keys, 16 bits a pass; whole numbers (ids) usually need two passes. */
function radixOrder(values: ArrayLike<number>, order: Uint32Array): Uint32Array {
  const n = values.length;
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  if (!wholeKeys(values, lo, hi)) floatKeys(values, lo, hi);
  let from: Uint32Array = order;
  let to: Uint32Array = new Uint32Array(n);
  const counts = new Uint32Array(0x10001);
  for (let pass = 0; pass < 4; pass++) {
    const words = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[((words[i] >>> shift) & 0xffff) + 1]++;
    // A digit every value shares (the high bits of ids, say) leaves the order as it is.
    if (counts[((words[0] >>> shift) & 0xffff) + 1] === n) continue;
    for (let d = 1; d <= 0x10000; d++) counts[d] += counts[d - 1];
    for (let k = 0; k < n; k++) {
      const row = from[k];
      to[counts[(words[row] >>> shift) & 0xffff]++] = row;
    }
    [from, to] = [to, from];
  }
  return from;
}
