// Regression metrics with scikit-learn's semantics for a single output and uniform weights.
// Means are taken with numpy's summation order so scores agree with the Python graders to the
// last bit in the common case, not merely to a tolerance.

// numpy reduces contiguous float64 data in chunks of this many elements (its buffer size) and
// sums each chunk pairwise; the chunk totals are then added left to right.
const NUMPY_CHUNK = 8192;
const PAIRWISE_BLOCK = 128;

function pairwiseChunk(values: ArrayLike<number>, start: number, n: number): number {
  if (n < 8) {
    let s = 0;
    for (let i = 0; i < n; i++) s += values[start + i];
    return s;
  }
  if (n <= PAIRWISE_BLOCK) {
    // Eight interleaved accumulators, combined as a balanced tree: the order numpy unrolls to.
    let r0 = values[start];
    let r1 = values[start + 1];
    let r2 = values[start + 2];
    let r3 = values[start + 3];
    let r4 = values[start + 4];
    let r5 = values[start + 5];
    let r6 = values[start + 6];
    let r7 = values[start + 7];
    const unrolled = n - (n % 8);
    let i = 8;
    for (; i < unrolled; i += 8) {
      const b = start + i;
      r0 += values[b];
      r1 += values[b + 1];
      r2 += values[b + 2];
      r3 += values[b + 3];
      r4 += values[b + 4];
      r5 += values[b + 5];
      r6 += values[b + 6];
      r7 += values[b + 7];
    }
    let s = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; i < n; i++) s += values[start + i];
    return s;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return pairwiseChunk(values, start, half) + pairwiseChunk(values, start + half, n - half);
}

/** Sum in numpy's order (8192-element chunks, pairwise inside each) so means match numpy bit for bit. */
export function pairwiseSum(values: ArrayLike<number>): number {
  let total = 0;
  for (let start = 0; start < values.length; start += NUMPY_CHUNK) {
    total += pairwiseChunk(values, start, Math.min(NUMPY_CHUNK, values.length - start));
  }
  return total;
}

function checkFiniteNumbers(metric: string, which: string, values: ArrayLike<number>): void {
  // NaN is reported in preference to infinity, as scikit-learn does, whatever their positions.
  let firstInfinite = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== "number") {
      throw new Error(`${metric}: ${which}[${i}] is not a number (got ${typeof v} ${JSON.stringify(v)})`);
    }
    if (Number.isNaN(v)) throw new Error(`${metric}: Input ${which} contains NaN (first at index ${i})`);
    if (firstInfinite < 0 && !Number.isFinite(v)) firstInfinite = i;
  }
  if (firstInfinite >= 0) {
    throw new Error(`${metric}: Input ${which} contains infinity (first at index ${firstInfinite})`);
  }
}

function checkTargets(metric: string, yTrue: ArrayLike<number>, yPred: ArrayLike<number>): void {
  if (yTrue.length !== yPred.length) {
    throw new Error(
      `${metric}: y_true and y_pred have inconsistent numbers of samples (${yTrue.length} vs ${yPred.length})`,
    );
  }
  if (yTrue.length === 0) throw new Error(`${metric}: empty input; at least 1 sample is required`);
  checkFiniteNumbers(metric, "y_true", yTrue);
  checkFiniteNumbers(metric, "y_pred", yPred);
}

function squaredErrors(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): Float64Array {
  const out = new Float64Array(yTrue.length);
  for (let i = 0; i < out.length; i++) {
    const d = yTrue[i] - yPred[i];
    out[i] = d * d;
  }
  return out;
}

/** Mean squared error (sklearn mean_squared_error). */
export function mse(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): number {
  checkTargets("mse", yTrue, yPred);
  return pairwiseSum(squaredErrors(yTrue, yPred)) / yTrue.length;
}

/** Root mean squared error (sklearn root_mean_squared_error). */
export function rmse(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): number {
  checkTargets("rmse", yTrue, yPred);
  return Math.sqrt(pairwiseSum(squaredErrors(yTrue, yPred)) / yTrue.length);
}

/** Mean absolute error (sklearn mean_absolute_error). */
export function mae(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): number {
  checkTargets("mae", yTrue, yPred);
  const abs = new Float64Array(yTrue.length);
  for (let i = 0; i < abs.length; i++) abs[i] = Math.abs(yPred[i] - yTrue[i]);
  return pairwiseSum(abs) / yTrue.length;
}

/** Which inputs rmsle refuses: "log1p" (values <= -1; sklearn >= 1.6) or "nonnegative" (values < 0; sklearn <= 1.5). */
export type RmsleDomain = "log1p" | "nonnegative";

/** Root mean squared logarithmic error (sklearn root_mean_squared_log_error); see RmsleDomain for negatives. */
export function rmsle(
  yTrue: ArrayLike<number>,
  yPred: ArrayLike<number>,
  options: { domain?: RmsleDomain } = {},
): number {
  const domain = options.domain ?? "log1p";
  checkTargets("rmsle", yTrue, yPred);
  // scikit-learn 1.5 rejects any negative value; 1.6 widened this to the real domain of
  // log1p, so predictions such as -0.01 score instead of failing.
  const outside = domain === "nonnegative" ? (v: number) => v < 0 : (v: number) => v <= -1;
  const wording = domain === "nonnegative" ? "negative values" : "values less than or equal to -1";
  for (const [which, values] of [
    ["y_true", yTrue],
    ["y_pred", yPred],
  ] as const) {
    for (let i = 0; i < values.length; i++) {
      if (outside(values[i])) {
        throw new Error(
          `rmsle: Root Mean Squared Logarithmic Error cannot be used when targets contain ${wording} ` +
            `(${which}[${i}] = ${values[i]})`,
        );
      }
    }
  }
  const sq = new Float64Array(yTrue.length);
  for (let i = 0; i < sq.length; i++) {
    const d = Math.log1p(yTrue[i]) - Math.log1p(yPred[i]);
    sq[i] = d * d;
  }
  return Math.sqrt(pairwiseSum(sq) / yTrue.length);
}

/** Coefficient of determination (sklearn r2_score, force_finite=True); NaN for fewer than two samples. */
export function r2(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): number {
  checkTargets("r2", yTrue, yPred);
  const n = yTrue.length;
  // scikit-learn warns and returns NaN here rather than raising.
  if (n < 2) return Number.NaN;
  const numerator = pairwiseSum(squaredErrors(yTrue, yPred));
  const mean = pairwiseSum(yTrue) / n;
  const dev = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = yTrue[i] - mean;
    dev[i] = d * d;
  }
  const denominator = pairwiseSum(dev);
  // force_finite: a constant y_true yields 1 for a perfect fit and 0 otherwise, never -inf/NaN.
  if (denominator === 0) return numerator === 0 ? 1 : 0;
  if (numerator === 0) return 1;
  return 1 - numerator / denominator;
}
