/** Arithmetic mean; NaN for no values. */
export function mean(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/** Standard error of the mean with ddof=1 (scipy.stats.sem); 0 for a single value, as upstream reports it. */
export function sem(values: number[]): number {
  const n = values.length;
  if (n <= 1) return 0;
  const m = mean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) ** 2;
  return Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
}

/** A mean with its standard error and 95% normal interval, plus the per-seed values it came from. */
export interface Estimate {
  mean: number;
  sem: number;
  ci_lower: number;
  ci_upper: number;
  per_seed: number[];
}

/** Summarise per-seed values the way upstream's aggregation does (mean ± 1.96 SEM). */
export function estimate(perSeed: number[]): Estimate {
  const m = mean(perSeed);
  const s = sem(perSeed);
  return { mean: m, sem: s, ci_lower: m - 1.96 * s, ci_upper: m + 1.96 * s, per_seed: perSeed };
}

/**
 * Unbiased pass@k for one problem with n attempts of which c succeeded: 1 − C(n−c, k)/C(n, k),
 * computed as a product so large n does not overflow.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k < 1 || k > n) throw new Error(`pass@k needs 1 <= k <= n (k=${k}, n=${n})`);
  if (c < 0 || c > n) throw new Error(`pass@k needs 0 <= c <= n (c=${c}, n=${n})`);
  if (n - c < k) return 1;
  let failAll = 1;
  for (let i = n - c + 1; i <= n; i++) failAll *= 1 - k / i;
  return 1 - failAll;
}
