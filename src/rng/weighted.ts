/** Weighted draws shared by numpy's legacy RandomState and its Generator (same arithmetic in both). */

/** Normalised cumulative sum as numpy computes it: sequential adds, then divide by the last. */
export function normalisedCdf(p: readonly number[]): Float64Array {
  const cdf = new Float64Array(p.length);
  let acc = 0;
  for (let i = 0; i < p.length; i++) {
    acc += p[i];
    cdf[i] = acc;
  }
  const last = cdf[cdf.length - 1];
  for (let i = 0; i < cdf.length; i++) cdf[i] /= last;
  return cdf;
}

/** searchsorted(side="right") on a non-decreasing array: the count of entries <= x. */
export function searchRight(cdf: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = cdf.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cdf[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * numpy's weighted sampling without replacement: rounds of inverse-cdf draws over the weights
 * left, keeping first occurrences in draw order, until `count` distinct indices are found.
 */
export function weightedUniqueDraws(p0: readonly number[], count: number, uniforms: (k: number) => number[]): number[] {
  if (p0.filter((v) => v > 0).length < count) throw new RangeError("Fewer non-zero entries in p than size");
  const p = p0.slice();
  const found: number[] = [];
  while (found.length < count) {
    const xs = uniforms(count - found.length);
    for (const f of found) p[f] = 0;
    const cdf = normalisedCdf(p);
    const seen = new Set<number>();
    for (const x of xs) {
      const k = searchRight(cdf, x);
      if (!seen.has(k)) {
        seen.add(k);
        found.push(k);
      }
    }
  }
  return found;
}

/** numpy's kahan_sum, which only decides whether `p` sums to one (the cdf itself uses plain adds). */
export function kahanSum(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  let sum = xs[0];
  let c = 0;
  for (let i = 1; i < xs.length; i++) {
    const y = xs[i] - c;
    const t = sum + y;
    c = t - sum - y;
    sum = t;
  }
  return sum;
}
