import { canonicalLabel, resolveTargets, type Label } from "./labels.js";

/** Fraction of exactly matching labels (or matrix rows, for multilabel), as scikit-learn's `accuracy_score`. */
export function accuracy(
  yTrue: ArrayLike<Label> | readonly ArrayLike<number>[],
  yPred: ArrayLike<Label> | readonly ArrayLike<number>[],
): number {
  const targets = resolveTargets(yTrue, yPred, false);
  let correct = 0;
  let n: number;
  if (targets.kind === "multilabel") {
    n = targets.rows;
    for (let i = 0; i < n; i++) {
      const a = targets.yTrue[i];
      const b = targets.yPred[i];
      let same = true;
      for (let j = 0; j < targets.cols && same; j++) same = a[j] === b[j];
      if (same) correct++;
    }
  } else {
    const a = targets.yTrue;
    const b = targets.yPred;
    n = a.length;
    for (let i = 0; i < n; i++) {
      const x = a[i];
      const y = b[i];
      if (x === y || (typeof x !== typeof y && canonicalLabel(x) === canonicalLabel(y))) correct++;
    }
  }
  // numpy's mean of an empty array is NaN, which is what scikit-learn returns here.
  return correct / n;
}
