// Mean average precision at k, as mlebench.metrics computes it (after Ben Hamner's ml_metrics).
import { numpySum } from "./sum.js";

function checkK(k: number): void {
  // Python's slicing makes k <= 0 meaningless (and a division by zero), so refuse it outright.
  if (!Number.isInteger(k) || k < 1) throw new Error(`map@k: k must be a positive integer (got ${k})`);
}

function apAtK(actual: ReadonlySet<string>, predicted: readonly string[], k: number): number {
  if (actual.size === 0) return 0;
  const m = Math.min(predicted.length, k);
  // Short lists (the usual k) look back for repeats; a Set per row would cost more than the scan.
  const seen = m > 32 ? new Set<string>() : null;
  let hits = 0;
  let score = 0;
  for (let i = 0; i < m; i++) {
    const p = predicted[i];
    // A repeated prediction scores only where it first appears.
    const repeated = seen ? seen.has(p) : predicted.indexOf(p) < i;
    if (!repeated && actual.has(p)) {
      hits++;
      score += hits / (i + 1);
    }
    seen?.add(p);
  }
  return score / Math.min(actual.size, k);
}

/** AP@k of one ranked prediction list against a set of relevant items; 0 when the set is empty. */
export function averagePrecisionAtK(actual: ReadonlySet<string>, predicted: readonly string[], k: number): number {
  checkK(k);
  return apAtK(actual, predicted, k);
}

/** MAP@k: the mean of AP@k over rows; NaN for no rows (numpy's mean of nothing). */
export function meanAveragePrecisionAtK(
  actual: readonly ReadonlySet<string>[],
  predicted: readonly (readonly string[])[],
  k: number,
): number {
  // Upstream zips the two lists, silently dropping extra rows; a mismatch is a caller bug here.
  if (actual.length !== predicted.length) {
    throw new Error(`map@k: ${actual.length} rows of actual values but ${predicted.length} rows of predictions`);
  }
  return meanAveragePrecisionAtKOf(actual.length, k, (i) => actual[i], (i) => predicted[i]);
}

/**
 * MAP@k over n rows whose sets and lists are built on demand, so a grader never holds all of
 * them at once (millions of rows).
 */
export function meanAveragePrecisionAtKOf(
  n: number,
  k: number,
  actualAt: (row: number) => ReadonlySet<string>,
  predictedAt: (row: number) => readonly string[],
): number {
  checkK(k);
  return meanOfRows(n, (i) => apAtK(actualAt(i), predictedAt(i), k));
}

/** The mean of n per-row scores as numpy's mean sums them; NaN for no rows. */
export function meanOfRows(n: number, scoreAt: (row: number) => number): number {
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) scores[i] = scoreAt(i);
  return n === 0 ? Number.NaN : numpySum(scores) / n;
}
