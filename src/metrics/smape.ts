// SMAPE of y + 1, the AMP Parkinson's Disease Progression Prediction competition's metric.
import { numpySum } from "./sum.js";

/**
 * 100 · mean(|pred − true| / ((true + pred) / 2 + 1)) over the rows whose true value is finite;
 * refuses negative values and length mismatches as the competition's reference code does.
 */
export function smapePlusOne(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): number {
  if (yTrue.length !== yPred.length) {
    throw new Error(`smape: inconsistent numbers of samples (${yTrue.length} true values, ${yPred.length} predictions)`);
  }
  const ape: number[] = [];
  for (let i = 0; i < yTrue.length; i++) {
    const t = yTrue[i];
    // Missing true values are not scored: a visit that never took place has no rating.
    if (!Number.isFinite(t)) continue;
    const p = yPred[i];
    if (t < 0) throw new Error(`smape: true value ${i} is negative (${t})`);
    if (p < 0) throw new Error(`smape: prediction ${i} is negative (${p})`);
    ape.push(Math.abs(p - t) / ((t + p) / 2 + 1));
  }
  // numpy's average of nothing is NaN (with a warning).
  return (numpySum(ape) / ape.length) * 100;
}
