import { numpySum } from "./sum.js";
import {
  nonFiniteError,
  typeOfMatrix,
} from "./labels.js";

function countAtLeast(sortedAscending: Float64Array, value: number): number {
  // Number of entries >= value, by binary search for the first such entry.
  let lo = 0;
  let hi = sortedAscending.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sortedAscending[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return sortedAscending.length - lo;
}

/** Label ranking average precision, as scikit-learn's `label_ranking_average_precision_score`. */
export function labelRankingAveragePrecision(
  yTrue: readonly (readonly number[])[],
  yScore: readonly ArrayLike<number>[],
): number {
  if (yTrue.length !== yScore.length) {
    throw new Error(`y_true and y_score have different lengths: ${yTrue.length} and ${yScore.length}`);
  }
  const info = typeOfMatrix(yTrue, "y_true");
  const { rows, cols } = info;
  if (rows === 0) throw new Error("y_true and y_score are empty: LRAP needs at least one sample");
  for (let i = 0; i < rows; i++) {
    const row = yScore[i];
    if (row === null || typeof row !== "object" || row.length !== cols) {
      throw new Error(
        `y_true and y_score have different shape: row ${i} of y_score has ${row?.length ?? 0} entries, y_true has ${cols}`,
      );
    }
    for (let j = 0; j < cols; j++) {
      const v = row[j];
      if (typeof v !== "number") throw new Error(`y_score must hold numbers; found ${typeof v} at row ${i}`);
      if (!Number.isFinite(v)) throw nonFiniteError(v);
    }
  }
  if (info.type !== "multilabel-indicator" && !(info.type === "binary" && cols === 1)) {
    throw new Error(`y_true must be a 0/1 label-indicator matrix; got a ${info.type} matrix`);
  }

  let total = 0;
  const sortedRow = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    const truth = yTrue[i];
    const scores = yScore[i];
    const relevant: number[] = [];
    for (let j = 0; j < cols; j++) if (truth[j] !== 0) relevant.push(j);
    if (relevant.length === 0 || relevant.length === cols) {
      // The ranking carries no information, and scikit-learn scores such a row as perfect.
      total += 1;
      continue;
    }
    for (let j = 0; j < cols; j++) sortedRow[j] = scores[j];
    sortedRow.sort();
    const relevantSorted = Float64Array.from(relevant, (j) => scores[j]).sort();
    // A label's rank counts every label scored at least as high, so ties share the worst rank
    // (scipy's rankdata "max" on negated scores, as scikit-learn uses).
    const ratios = new Float64Array(relevant.length);
    relevant.forEach((j, r) => {
      const s = scores[j];
      ratios[r] = countAtLeast(relevantSorted, s) / countAtLeast(sortedRow, s);
    });
    total += numpySum(ratios) / ratios.length;
  }
  return total / rows;
}
