import { numpySum } from "./sum.js";
import { canonicalLabel, formatLabel, lengthMismatchError, type CanonicalLabel, type Label } from "./labels.js";

/**
 * Mean misclassification cost: `matrix[t][p]` is the cost of predicting `classes[p]` for a row
 * whose true class is `classes[t]` (rows are the truth, columns the prediction, as in rpart's
 * loss matrix), averaged over the rows. Equals numpy's `C[true_index, pred_index].mean()`.
 * Every label must be one of `classes`; the matrix must be square over them with finite entries.
 */
export function meanCost(
  yTrue: ArrayLike<Label>,
  yPred: ArrayLike<Label>,
  classes: readonly Label[],
  matrix: readonly (readonly number[])[],
): number {
  const k = classes.length;
  if (k === 0) throw new Error("meanCost: classes is empty");
  const index = new Map<CanonicalLabel, number>();
  classes.forEach((c, j) => {
    const key = canonicalLabel(c);
    if (key === null) throw new Error(`meanCost: classes[${j}] is missing`);
    if (index.has(key)) throw new Error(`meanCost: class ${formatLabel(c)} is listed twice`);
    index.set(key, j);
  });
  if (matrix.length !== k) throw new Error(`meanCost: the cost matrix has ${matrix.length} rows but there are ${k} classes`);
  matrix.forEach((row, t) => {
    if (row.length !== k) throw new Error(`meanCost: row ${t} of the cost matrix has ${row.length} entries, expected ${k}`);
    row.forEach((v, p) => {
      if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`meanCost: cost matrix entry [${t}][${p}] is not a finite number`);
    });
  });
  if (yTrue.length !== yPred.length) throw lengthMismatchError(yTrue.length, yPred.length);
  if (yTrue.length === 0) throw new Error("meanCost: empty input; at least 1 sample is required");
  const position = (label: Label, which: string, i: number): number => {
    const key = canonicalLabel(label);
    const j = key === null ? undefined : index.get(key);
    if (j === undefined) {
      throw new Error(`meanCost: ${which}[${i}] is ${formatLabel(label)}, not one of the classes ${classes.map(formatLabel).join(", ")}`);
    }
    return j;
  };
  const costs = new Float64Array(yTrue.length);
  for (let i = 0; i < costs.length; i++) costs[i] = matrix[position(yTrue[i], "y_true", i)][position(yPred[i], "y_pred", i)];
  return numpySum(costs) / costs.length;
}
