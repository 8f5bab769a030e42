// ALASKA2's weighted AUC: the ROC curve cut into horizontal TPR bands, each band's area
// weighted, after the band edges are inserted into the curve by linear interpolation.
import { numpySum } from "../../metrics/sum.js";

const TPR_EDGES = [0.0, 0.4, 1.0];
const WEIGHTS = [2, 1];

/**
 * ROC points as scikit-learn's `roc_curve(..., drop_intermediate=True)` returns them: one point
 * per distinct score (descending), collinear points dropped, then (0, 0) prepended.
 */
export function rocCurve(positive: ArrayLike<boolean>, scores: ArrayLike<number>): { fpr: number[]; tpr: number[] } {
  const n = scores.length;
  const order = Array.from({ length: n }, (_, i) => i);
  // Stable descending sort, as scikit-learn's mergesort on the negated scores.
  order.sort((a, b) => scores[b] - scores[a] || a - b);
  const tpsAll: number[] = [];
  const fpsAll: number[] = [];
  let tp = 0;
  for (let i = 0; i < n; i++) {
    if (positive[order[i]]) tp++;
    if (i === n - 1 || scores[order[i + 1]] !== scores[order[i]]) {
      tpsAll.push(tp);
      fpsAll.push(i + 1 - tp);
    }
  }
  let tps = tpsAll;
  let fps = fpsAll;
  if (tps.length > 2) {
    tps = [];
    fps = [];
    for (let i = 0; i < tpsAll.length; i++) {
      const ends = i === 0 || i === tpsAll.length - 1;
      const bends =
        !ends &&
        (fpsAll[i + 1] - 2 * fpsAll[i] + fpsAll[i - 1] !== 0 || tpsAll[i + 1] - 2 * tpsAll[i] + tpsAll[i - 1] !== 0);
      if (ends || bends) {
        tps.push(tpsAll[i]);
        fps.push(fpsAll[i]);
      }
    }
  }
  tps.unshift(0);
  fps.unshift(0);
  const totalPos = tps[tps.length - 1];
  const totalNeg = fps[fps.length - 1];
  return { fpr: fps.map((v) => v / totalNeg), tpr: tps.map((v) => v / totalPos) };
}

/** Add each TPR edge missing from the curve, its FPR interpolated between the neighbouring points. */
function insertEdges(fpr: number[], tpr: number[]): void {
  for (const edge of TPR_EDGES) {
    if (tpr.includes(edge)) continue;
    const i = tpr.findIndex((t) => t > edge);
    if (i < 0) continue;
    const x = fpr[i - 1] + ((fpr[i] - fpr[i - 1]) * (edge - tpr[i - 1])) / (tpr[i] - tpr[i - 1]);
    tpr.splice(i, 0, edge);
    fpr.splice(i, 0, x);
  }
}

/** Trapezoidal area under (xs, ys), xs non-decreasing, summed as numpy's trapz does. */
function trapezoid(xs: readonly number[], ys: readonly number[]): number {
  const parts = new Float64Array(xs.length - 1);
  for (let i = 0; i < parts.length; i++) parts[i] = ((xs[i + 1] - xs[i]) * (ys[i + 1] + ys[i])) / 2;
  return numpySum(parts);
}

/** The competition's weighted AUC: TPR bands [0, 0.4] and [0.4, 1] weighted 2 and 1, normalised to [0, 1]. */
export function weightedAuc(positive: ArrayLike<boolean>, scores: ArrayLike<number>): number {
  const { fpr, tpr } = rocCurve(positive, scores);
  insertEdges(fpr, tpr);
  let total = 0;
  let normalisation = 0;
  for (let b = 0; b < WEIGHTS.length; b++) {
    const lo = TPR_EDGES[b];
    const hi = TPR_EDGES[b + 1];
    normalisation += (hi - lo) * WEIGHTS[b];
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < tpr.length; i++) {
      if (lo <= tpr[i] && tpr[i] <= hi) {
        xs.push(fpr[i]);
        ys.push(tpr[i]);
      }
    }
    if (xs.length === 0) continue;
    // The band's last point is joined to the right edge of the plot at the band's top.
    xs.push(1);
    ys.push(hi);
    total += trapezoid(xs, ys.map((y) => y - lo)) * WEIGHTS[b];
  }
  return total / normalisation;
}
