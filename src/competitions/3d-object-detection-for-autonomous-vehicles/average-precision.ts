/** Lyft's average precision for one class of one sample, from a matrix of IoUs. */
import { numpySum } from "../../metrics/sum.js";

const EPS = 2.220446049250313e-16;

/**
 * Greedy matching of predictions (rows of the row-major `iou`, best-ranked first) to `nGt`
 * true boxes: a prediction is a true positive when its best IoU exceeds `threshold` and that
 * box is not taken yet. Returns the area under the precision envelope over recall, as Lyft's
 * evaluation script computes it (recall points 0 and 1 added, precision made non-increasing).
 */
export function averagePrecision(iou: Float64Array, nPred: number, nGt: number, threshold: number): number {
  const taken = new Uint8Array(nGt);
  const recall = new Float64Array(nPred + 2);
  const precision = new Float64Array(nPred + 2);
  recall[nPred + 1] = 1;
  let tp = 0;
  let fp = 0;
  for (let p = 0; p < nPred; p++) {
    // numpy's max and argmax: a NaN wins, at its first position.
    let best = -Infinity;
    let bestGt = -1;
    for (let g = 0; g < nGt; g++) {
      const v = iou[p * nGt + g];
      if (Number.isNaN(v)) {
        best = NaN;
        bestGt = g;
        break;
      }
      if (v > best) {
        best = v;
        bestGt = g;
      }
    }
    if (best > threshold && taken[bestGt] === 0) {
      tp++;
      taken[bestGt] = 1;
    } else {
      fp++;
    }
    recall[p + 1] = tp / nGt;
    precision[p + 1] = tp / Math.max(tp + fp, EPS);
  }
  for (let i = precision.length - 1; i > 0; i--) precision[i - 1] = Math.max(precision[i - 1], precision[i]);
  const terms: number[] = [];
  for (let i = 0; i + 1 < recall.length; i++) {
    if (recall[i + 1] !== recall[i]) terms.push((recall[i + 1] - recall[i]) * precision[i + 1]);
  }
  return numpySum(terms);
}
