// Regression metrics with scikit-learn's semantics for a single output and uniform weights.
// Means are taken with numpy's summation order so scores agree with the Python graders to the
// last bit in the common case, not merely to a tolerance.
import { numpySum, numpySumOf } from "./sum.js";

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

/** The sum of squared errors in numpy's order, made a buffer at a time. */
function sumSquaredErrors(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): number {
  return numpySumOf(yTrue.length, (start, end, out) => {
    for (let i = start; i < end; i++) {
      const d = yTrue[i] - yPred[i];
      out[i - start] = d * d;
    }
  });
}

/** Mean squared error (sklearn mean_squared_error). */
export function mse(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): number {
  checkTargets("mse", yTrue, yPred);
  return sumSquaredErrors(yTrue, yPred) / yTrue.length;
}

/** Root mean squared error (sklearn root_mean_squared_error). */
export function rmse(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): number {
  checkTargets("rmse", yTrue, yPred);
  return Math.sqrt(sumSquaredErrors(yTrue, yPred) / yTrue.length);
}

/**
 * rmse(yTrue in trueOrder, yPred in predOrder), where each order lists every index once, without
 * gathering either side into an array of its own. Inputs rmse would refuse go through rmse itself,
 * so its messages name the positions in order.
 */
export function rmseInOrder(yTrue: ArrayLike<number>, trueOrder: ArrayLike<number>, yPred: ArrayLike<number>, predOrder: ArrayLike<number>): number {
  const n = trueOrder.length;
  const finite = (v: ArrayLike<number>) => {
    for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return false;
    return true;
  };
  if (n === 0 || n !== predOrder.length || yTrue.length !== n || yPred.length !== n || !finite(yTrue) || !finite(yPred)) {
    const gather = (v: ArrayLike<number>, order: ArrayLike<number>) => Float64Array.from({ length: order.length }, (_, i) => v[order[i]]);
    return rmse(gather(yTrue, trueOrder), gather(yPred, predOrder));
  }
  const total = numpySumOf(n, (start, end, out) => {
    for (let i = start; i < end; i++) {
      const d = yTrue[trueOrder[i]] - yPred[predOrder[i]];
      out[i - start] = d * d;
    }
  });
  return Math.sqrt(total / n);
}

/** Mean absolute error (sklearn mean_absolute_error). */
export function mae(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): number {
  checkTargets("mae", yTrue, yPred);
  const total = numpySumOf(yTrue.length, (start, end, out) => {
    for (let i = start; i < end; i++) out[i - start] = Math.abs(yPred[i] - yTrue[i]);
  });
  return total / yTrue.length;
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
  const total = numpySumOf(yTrue.length, (start, end, out) => {
    for (let i = start; i < end; i++) {
      const d = Math.log1p(yTrue[i]) - Math.log1p(yPred[i]);
      out[i - start] = d * d;
    }
  });
  return Math.sqrt(total / yTrue.length);
}

/** Coefficient of determination (sklearn r2_score, force_finite=True); NaN for fewer than two samples. */
export function r2(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): number {
  checkTargets("r2", yTrue, yPred);
  const n = yTrue.length;
  // scikit-learn warns and returns NaN here rather than raising.
  if (n < 2) return Number.NaN;
  const numerator = sumSquaredErrors(yTrue, yPred);
  const mean = numpySum(yTrue) / n;
  const denominator = numpySumOf(n, (start, end, out) => {
    for (let i = start; i < end; i++) {
      const d = yTrue[i] - mean;
      out[i - start] = d * d;
    }
  });
  // force_finite: a constant y_true yields 1 for a perfect fit and 0 otherwise, never -inf/NaN.
  if (denominator === 0) return numerator === 0 ? 1 : 0;
  if (numerator === 0) return 1;
  return 1 - numerator / denominator;
}
