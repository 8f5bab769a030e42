/**
 * numpy.quantile(values, q) with numpy's default ("linear") method, including its two-sided
 * interpolation formula, so results agree with numpy to the last bit. NaN anywhere gives NaN, as
 * in numpy. `values` is sorted in place.
 */
export function numpyQuantile(values: Float64Array, q: number): number {
  const n = values.length;
  if (n === 0) throw new Error("quantile of an empty array");
  values.sort();
  if (Number.isNaN(values[n - 1])) return NaN;
  const position = (n - 1) * q;
  if (position >= n - 1) return values[n - 1];
  const lo = Math.floor(position);
  const a = values[lo];
  const b = values[lo + 1];
  const t = position - lo;
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}
