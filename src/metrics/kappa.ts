import { numpySum } from "./sum.js";
import { canonicalLabel, checkClassificationTargets, type CanonicalLabel, type Label } from "./labels.js";

/** Options of {@link cohenKappa}. */
export interface CohenKappaOptions {
  /** Disagreement weights by distance between label positions; unweighted when absent. */
  weights?: "linear" | "quadratic";
  /** Labels indexing the confusion matrix, in this order; samples with other labels are dropped. */
  labels?: readonly Label[];
}

/** Cohen's kappa between two raters, as scikit-learn's `cohen_kappa_score` (NaN when expected disagreement is 0). */
export function cohenKappa(y1: readonly Label[], y2: readonly Label[], options: CohenKappaOptions = {}): number {
  const { weights } = options;
  if (weights !== undefined && weights !== "linear" && weights !== "quadratic") {
    throw new Error(`weights must be "linear", "quadratic" or absent; got ${String(weights)}`);
  }
  const checked = checkClassificationTargets(y1, y2);
  let labels: readonly Label[];
  const dataIsString = checked.labels.length > 0 && typeof canonicalLabel(checked.labels[0]) === "string";
  if (options.labels === undefined) {
    labels = checked.labels;
  } else {
    labels = options.labels;
    if (labels.length === 0) throw new Error("labels is empty");
    for (const label of labels) {
      const key = canonicalLabel(label);
      if (key === null) throw new Error("labels must not contain null");
      if (checked.labels.length > 0 && (typeof key === "string") !== dataIsString) {
        throw new Error("Mix of label input types (string and number)");
      }
    }
  }
  const k = labels.length;
  // A label listed twice keeps its last position, like a Python dict built from the list.
  const position = new Map<CanonicalLabel, number>();
  labels.forEach((label, i) => position.set(canonicalLabel(label) as CanonicalLabel, i));
  if (options.labels !== undefined && y1.length > 0) {
    let anyInTrue = false;
    for (let i = 0; i < y1.length && !anyInTrue; i++) anyInTrue = position.has(canonicalLabel(y1[i]) as CanonicalLabel);
    if (!anyInTrue) throw new Error("None of the given labels occurs in y1");
  }

  const confusion = new Float64Array(k * k);
  for (let s = 0; s < y1.length; s++) {
    const i = position.get(canonicalLabel(y1[s]) as CanonicalLabel);
    const j = position.get(canonicalLabel(y2[s]) as CanonicalLabel);
    if (i !== undefined && j !== undefined) confusion[i * k + j]++;
  }
  const colSums = new Float64Array(k);
  const rowSums = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      rowSums[i] += confusion[i * k + j];
      colSums[j] += confusion[i * k + j];
    }
  }
  const total = numpySum(colSums);
  const weight = (i: number, j: number): number => {
    if (weights === undefined) return i === j ? 0 : 1;
    return weights === "linear" ? Math.abs(i - j) : (i - j) * (i - j);
  };
  // Expected counts are outer(column sums, row sums) / n, in scikit-learn's operation order.
  let observed = 0;
  const expected = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const w = weight(i, j);
      observed += w * confusion[i * k + j];
      expected[i * k + j] = w * ((colSums[i] * rowSums[j]) / total);
    }
  }
  return 1 - observed / numpySum(expected);
}
