import { numpySum } from "./sum.js";
import { canonicalLabel, formatLabel, formatLabels, type CanonicalLabel, type Label } from "./labels.js";
import { sortScores, splitBinaryScores } from "./roc-auc.js";

/** Options of {@link averagePrecision}. */
export interface AveragePrecisionOptions {
  /** The label counted as positive; scikit-learn's default is 1 (which also matches `true`). */
  posLabel?: Label;
}

/** Average precision of binary scores, as scikit-learn's `average_precision_score` (step-wise, not interpolated). */
export function averagePrecision(
  yTrue: readonly Label[] | ArrayLike<number>,
  yScore: ArrayLike<number>,
  options: AveragePrecisionOptions = {},
): number {
  const posLabel = options.posLabel ?? 1;
  const { positive, negative } = splitBinaryScores(yTrue, yScore, "Average precision", (labels) => {
    const pos = canonicalLabel(posLabel) as CanonicalLabel;
    if (labels.length === 2 && !labels.includes(pos)) {
      throw new Error(
        `pos_label=${formatLabel(posLabel)} is not among the labels of y_true: ${formatLabels(labels)}`,
      );
    }
    return pos;
  });
  sortScores(positive);
  sortScores(negative);

  // Cumulative true/false positives at each distinct threshold, highest threshold first.
  const n = positive.length + negative.length;
  const tps = new Float64Array(n);
  const fps = new Float64Array(n);
  let m = 0;
  let i = positive.length - 1;
  let j = negative.length - 1;
  let tp = 0;
  let fp = 0;
  while (i >= 0 || j >= 0) {
    const v = i < 0 ? negative[j] : j < 0 ? positive[i] : Math.max(positive[i], negative[j]);
    while (i >= 0 && positive[i] === v) {
      tp++;
      i--;
    }
    while (j >= 0 && negative[j] === v) {
      fp++;
      j--;
    }
    tps[m] = tp;
    fps[m] = fp;
    m++;
  }

  // Same operation order as scikit-learn (curve reversed to increasing threshold, then
  // -sum(diff(recall) * precision)), so the rounding agrees too.
  const total = tps[m - 1];
  const recallAt = (k: number): number => (k < 0 ? 0 : total === 0 ? 1 : tps[k] / total);
  const terms = new Float64Array(m);
  for (let t = 0; t < m; t++) {
    const k = m - 1 - t;
    const precision = tps[k] / (tps[k] + fps[k]);
    terms[t] = (recallAt(k - 1) - recallAt(k)) * precision;
  }
  return -numpySum(terms);
}
