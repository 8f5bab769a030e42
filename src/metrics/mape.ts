// Mean absolute percentage error with scikit-learn's semantics for a single output and uniform
// weights: a fraction (0.05 is 5%), not a percentage, and true values of zero are guarded by
// float64's machine epsilon rather than refused.
import { numpySum } from "./sum.js";

const EPSILON = 2.220446049250313e-16;

function requireFinite(which: string, values: ArrayLike<number>): void {
  let firstInfinite = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== "number") throw new Error(`mape: ${which}[${i}] is not a number (got ${typeof v} ${JSON.stringify(v)})`);
    if (Number.isNaN(v)) throw new Error(`mape: Input ${which} contains NaN (first at index ${i})`);
    if (firstInfinite < 0 && !Number.isFinite(v)) firstInfinite = i;
  }
  if (firstInfinite >= 0) throw new Error(`mape: Input ${which} contains infinity (first at index ${firstInfinite})`);
}

/** mean(|pred − true| / max(|true|, eps)) (sklearn mean_absolute_percentage_error), summed in numpy's order. */
export function mape(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): number {
  if (yTrue.length !== yPred.length) {
    throw new Error(`mape: y_true and y_pred have inconsistent numbers of samples (${yTrue.length} vs ${yPred.length})`);
  }
  if (yTrue.length === 0) throw new Error("mape: empty input; at least 1 sample is required");
  requireFinite("y_true", yTrue);
  requireFinite("y_pred", yPred);
  const ape = new Float64Array(yTrue.length);
  for (let i = 0; i < ape.length; i++) ape[i] = Math.abs(yPred[i] - yTrue[i]) / Math.max(Math.abs(yTrue[i]), EPSILON);
  return numpySum(ape) / ape.length;
}
