// Kaggle's "Kullback-Leibler divergence" metric as used by the HMS harmful brain activity
// competition in mle-bench (score() in its kullback_leibler_divergence.py).
//
// Facts carried over from upstream: both tables are validated first (values in [0, 1], each row
// summing to 1 within numpy.allclose's default tolerance); only the submission is clipped to
// [eps, 1 - eps] (the docstring there says both are, the code does not); cells where the solution
// is 0 contribute 0. Upstream works on pandas frames, whose min/max/sum skip NaN, so a NaN cell
// is not rejected: it is ignored by the checks and contributes nothing to the score. We keep that.
import { numpySum } from "./sum.js";

export interface KlDivergenceOptions {
  /** Submission probabilities are clipped to [eps, 1 - eps] so a confident miss costs a finite amount. */
  eps?: number;
  /** true: mean over rows of each row's summed divergence; false: mean over columns of column means. */
  microAverage?: boolean;
  /** Per-row weights for the micro average (numpy.average weights). */
  sampleWeights?: ArrayLike<number>;
  /**
   * Solution columns whose submission values escape the clipping (true at their index). pandas
   * 1.5 clips an int64 column to [eps, 1 - eps] and casts the result back to int64, which leaves
   * 0 and 1 as they were, so a submitted integer 0 where the solution is positive costs infinity.
   */
  unclipped?: readonly boolean[];
}

// numpy.allclose(rowSum, 1) with rtol=1e-5, atol=1e-8.
const ROW_SUM_TOLERANCE = 1e-8 + 1e-5;

function checkProbabilities(name: string, table: readonly (readonly number[])[], width: number, extraAllowed: boolean): void {
  for (let i = 0; i < table.length; i++) {
    if (table[i].length !== width && !(extraAllowed && table[i].length > width)) {
      throw new Error(`klDivergence: ${name} row ${i} has ${table[i].length} columns, expected ${width}`);
    }
    for (let j = 0; j < table[i].length; j++) {
      if (typeof table[i][j] !== "number") throw new Error(`All target values in ${name} must be numeric`);
    }
  }
  // Same order of checks as upstream: all minima, then all maxima, then row sums.
  for (const row of table) {
    for (const v of row) if (v < 0) throw new Error(`All target values in ${name} must be at least zero`);
  }
  for (const row of table) {
    for (const v of row) if (v > 1) throw new Error(`All target values in ${name} must be no greater than one`);
  }
  for (const row of table) {
    let s = 0;
    for (const v of row) if (!Number.isNaN(v)) s += v;
    if (!(Math.abs(s - 1) <= ROW_SUM_TOLERANCE)) {
      throw new Error(`Target values in ${name} do not add to one within all rows`);
    }
  }
}

/**
 * Kaggle/HMS KL divergence of submission from solution: validated, submission clipped, 0·log 0 = 0,
 * averaged over rows. Submission rows may carry extra trailing columns: Kaggle's metric validates
 * every submission column (range, row sums) but scores only the solution's.
 */
export function klDivergence(
  solution: readonly (readonly number[])[],
  submission: readonly (readonly number[])[],
  options: KlDivergenceOptions = {},
): number {
  const eps = options.eps ?? 1e-15;
  const microAverage = options.microAverage ?? true;
  const weights = options.sampleWeights;
  if (weights !== undefined && !microAverage) {
    throw new Error("klDivergence: sample weights are only valid with microAverage = true");
  }
  const n = solution.length;
  if (submission.length !== n) {
    throw new Error(`klDivergence: solution has ${n} rows but submission has ${submission.length}`);
  }
  if (weights !== undefined && weights.length !== n) {
    throw new Error(`klDivergence: ${weights.length} sample weights for ${n} rows`);
  }
  const width = n > 0 ? solution[0].length : 0;
  checkProbabilities("solution", solution, width, false);
  checkProbabilities("submission", submission, width, true);
  const unclipped = options.unclipped ?? [];

  // Per-cell terms; NaN marks a cell that pandas would skip when summing.
  const terms: Float64Array[] = [];
  for (let i = 0; i < n; i++) {
    const row = new Float64Array(width);
    for (let j = 0; j < width; j++) {
      const p = solution[i][j];
      if (p === 0) continue;
      const raw = submission[i][j];
      const q = unclipped[j] ? raw : raw < eps ? eps : raw > 1 - eps ? 1 - eps : raw;
      row[j] = p * Math.log(p / q);
    }
    terms.push(row);
  }

  if (microAverage) {
    const rowSums = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (const v of terms[i]) if (!Number.isNaN(v)) s += v;
      rowSums[i] = s;
    }
    if (weights === undefined) return n === 0 ? Number.NaN : numpySum(rowSums) / n;
    const weighted = new Float64Array(n);
    for (let i = 0; i < n; i++) weighted[i] = rowSums[i] * weights[i];
    const totalWeight = numpySum(weights);
    if (totalWeight === 0) throw new Error("klDivergence: sample weights sum to zero, can't be normalized");
    return numpySum(weighted) / totalWeight;
  }

  // Column means skip NaN cells (pandas), then a plain mean over columns (NaN if a column is all NaN).
  const columnMeans = new Float64Array(width);
  for (let j = 0; j < width; j++) {
    const column = new Float64Array(n);
    let count = 0;
    for (let i = 0; i < n; i++) {
      const v = terms[i][j];
      if (!Number.isNaN(v)) {
        column[i] = v;
        count++;
      }
    }
    columnMeans[j] = count === 0 ? Number.NaN : numpySum(column) / count;
  }
  return width === 0 ? Number.NaN : numpySum(columnMeans) / width;
}
