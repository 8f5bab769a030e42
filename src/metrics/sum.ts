/** Summation in numpy's order, so sums and means match numpy bit for bit. */

/** numpy reduces in buffers of this many elements, pairwise inside each. */
const NUMPY_BUFFER = 8192;
const PAIRWISE_BLOCK = 128;

function pairwiseBlock(values: ArrayLike<number>, start: number, n: number): number {
  if (n < 8) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[start + i];
    return sum;
  }
  if (n <= PAIRWISE_BLOCK) {
    let r0 = values[start], r1 = values[start + 1], r2 = values[start + 2], r3 = values[start + 3];
    let r4 = values[start + 4], r5 = values[start + 5], r6 = values[start + 6], r7 = values[start + 7];
    const whole = n - (n % 8);
    let i = 8;
    for (; i < whole; i += 8) {
      const k = start + i;
      r0 += values[k];
      r1 += values[k + 1];
      r2 += values[k + 2];
      r3 += values[k + 3];
      r4 += values[k + 4];
      r5 += values[k + 5];
      r6 += values[k + 6];
      r7 += values[k + 7];
    }
    let sum = (r0 + r1 + (r2 + r3)) + (r4 + r5 + (r6 + r7));
    for (; i < n; i++) sum += values[start + i];
    return sum;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return pairwiseBlock(values, start, half) + pairwiseBlock(values, start + half, n - half);
}

/** Sums float64 values in numpy's order (pairwise within 8192-element buffers) so results agree bit for bit. */
export function numpySum(values: ArrayLike<number>, start = 0, end = values.length): number {
  let sum = 0;
  for (let offset = start; offset < end; offset += NUMPY_BUFFER) {
    sum += pairwiseBlock(values, offset, Math.min(NUMPY_BUFFER, end - offset));
  }
  return sum;
}

/**
 * numpySum of n values made a buffer at a time by `fill(start, end, out)` (out[0] is element
 * `start`): the same sum, bit for bit, without an array of n.
 */
export function numpySumOf(n: number, fill: (start: number, end: number, out: Float64Array) => void): number {
  const buffer = new Float64Array(Math.min(n, NUMPY_BUFFER));
  let sum = 0;
  for (let offset = 0; offset < n; offset += NUMPY_BUFFER) {
    const end = Math.min(n, offset + NUMPY_BUFFER);
    fill(offset, end, buffer);
    sum += pairwiseBlock(buffer, 0, end - offset);
  }
  return sum;
}
