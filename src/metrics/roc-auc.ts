import {
  canonicalLabel,
  compareCanonical,
  lengthMismatchError,
  nonFiniteError,
  typeOfTarget,
  type CanonicalLabel,
  type Label,
} from "./labels.js";

/**
 * Sorts finite float64 values ascending in place. The built-in sort needs no memory besides the
 * array; a radix sort was no faster once its four scratch arrays' first-touch cost was counted.
 */
export function sortScores(values: Float64Array): void {
  values.sort();
}

/** Scores of the positive and negative samples of a binary target, each as its own array. */
export interface SplitScores {
  positive: Float64Array;
  negative: Float64Array;
}

/** Splits scores by a binary y_true after scikit-learn's checks; `positive` picks from y_true's sorted labels. */
export function splitBinaryScores(
  yTrue: ArrayLike<Label>,
  yScore: ArrayLike<number>,
  metric: string,
  positive: (sortedLabels: CanonicalLabel[]) => CanonicalLabel,
): SplitScores {
  const type = typeOfTarget(yTrue, "y_true");
  if (type !== "binary") {
    if (type === "multiclass") {
      throw new Error(
        `${metric} supports only binary y_true, but y_true has more than two classes`,
      );
    }
    throw new Error(`${metric} needs class labels in y_true; got ${type} values`);
  }
  const n = yTrue.length;
  if (yScore.length !== n) throw lengthMismatchError(n, yScore.length, "y_score");
  if (n === 0) throw new Error(`${metric}: y_true and y_score are empty`);
  for (let i = 0; i < n; i++) {
    const s = yScore[i];
    if (typeof s !== "number") throw new Error(`y_score must hold numbers; found ${typeof s} at index ${i}`);
    if (!Number.isFinite(s)) {
      let worst = s;
      for (let k = i; k < n && !Number.isNaN(worst); k++) if (Number.isNaN(yScore[k])) worst = NaN;
      throw nonFiniteError(worst);
    }
  }
  const distinct: CanonicalLabel[] = [];
  for (let i = 0; i < n && distinct.length < 2; i++) {
    const key = canonicalLabel(yTrue[i]) as CanonicalLabel;
    if (!distinct.includes(key)) distinct.push(key);
  }
  distinct.sort(compareCanonical);
  const pos = positive(distinct);
  let nPos = 0;
  const isPos = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = yTrue[i];
    const hit = typeof v === "number" || typeof v === "string" ? v === pos : canonicalLabel(v) === pos;
    if (hit) {
      isPos[i] = 1;
      nPos++;
    }
  }
  const positiveScores = new Float64Array(nPos);
  const negativeScores = new Float64Array(n - nPos);
  for (let i = 0, p = 0, q = 0; i < n; i++) {
    if (isPos[i]) positiveScores[p++] = yScore[i];
    else negativeScores[q++] = yScore[i];
  }
  return { positive: positiveScores, negative: negativeScores };
}

/** Area under the ROC curve of binary scores, as scikit-learn's `roc_auc_score` (positive class = greater label). */
export function rocAuc(yTrue: readonly Label[] | ArrayLike<number>, yScore: ArrayLike<number>): number {
  const { positive, negative } = splitBinaryScores(
    yTrue,
    yScore,
    "ROC AUC",
    (labels) => labels[labels.length - 1],
  );
  const nPos = positive.length;
  const nNeg = negative.length;
  if (nPos === 0 || nNeg === 0) {
    throw new Error("Only one class present in y_true. ROC AUC score is not defined in that case.");
  }
  sortScores(positive);
  sortScores(negative);
  // The trapezoid over distinct thresholds equals the Mann-Whitney count of (positive, negative)
  // pairs ordered correctly, ties counting half; doubled, every term is an exact integer.
  let doubled = 0;
  let below = 0;
  let i = 0;
  while (i < nPos) {
    const v = positive[i];
    let groupEnd = i + 1;
    while (groupEnd < nPos && positive[groupEnd] === v) groupEnd++;
    while (below < nNeg && negative[below] < v) below++;
    let tiedEnd = below;
    while (tiedEnd < nNeg && negative[tiedEnd] === v) tiedEnd++;
    doubled += (groupEnd - i) * (2 * below + (tiedEnd - below));
    i = groupEnd;
  }
  return doubled / (2 * nPos * nNeg);
}
