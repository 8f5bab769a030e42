import { canonicalLabel, checkClassificationTargets, type CanonicalLabel, type Label } from "./labels.js";

/** Matthews correlation coefficient (multiclass R_K), as scikit-learn's `matthews_corrcoef`; 0 when undefined. */
export function matthewsCorrcoef(yTrue: readonly Label[], yPred: readonly Label[]): number {
  const { labels } = checkClassificationTargets(yTrue, yPred);
  const index = new Map<CanonicalLabel, number>();
  labels.forEach((label, i) => index.set(canonicalLabel(label) as CanonicalLabel, i));
  const trueCounts = new Float64Array(labels.length);
  const predCounts = new Float64Array(labels.length);
  let correct = 0;
  for (let s = 0; s < yTrue.length; s++) {
    const i = index.get(canonicalLabel(yTrue[s]) as CanonicalLabel) as number;
    const j = index.get(canonicalLabel(yPred[s]) as CanonicalLabel) as number;
    trueCounts[i]++;
    predCounts[j]++;
    if (i === j) correct++;
  }
  return fromCounts(trueCounts, predCounts, correct, yTrue.length);
}

/** sklearn's closing arithmetic on the confusion matrix's margins, in its order of operations. */
function fromCounts(trueCounts: Float64Array, predCounts: Float64Array, correct: number, n: number): number {
  let truePred = 0;
  let predPred = 0;
  let trueTrue = 0;
  for (let i = 0; i < trueCounts.length; i++) {
    truePred += trueCounts[i] * predCounts[i];
    predPred += predCounts[i] * predCounts[i];
    trueTrue += trueCounts[i] * trueCounts[i];
  }
  const covTruePred = correct * n - truePred;
  const covPredPred = n * n - predPred;
  const covTrueTrue = n * n - trueTrue;
  if (covPredPred * covTrueTrue === 0) return 0;
  return covTruePred / Math.sqrt(covTrueTrue * covPredPred);
}

/**
 * `matthewsCorrcoef` for numeric labels in typed arrays, without boxing each cell: same result.
 * Anything but integral values (probabilities, NaN) goes to the general path for sklearn's error.
 */
export function matthewsCorrcoefNumeric(yTrue: Float64Array, yPred: Float64Array): number {
  const n = yTrue.length;
  if (yPred.length !== n) return matthewsCorrcoef(Array.from(yTrue), Array.from(yPred));
  for (let s = 0; s < n; s++) {
    if (!isLabelNumber(yTrue[s]) || !isLabelNumber(yPred[s])) {
      return matthewsCorrcoef(Array.from(yTrue), Array.from(yPred));
    }
  }
  const index = new Map<number, number>();
  const classOf = (v: number) => {
    let k = index.get(v);
    if (k === undefined) index.set(v, (k = index.size));
    return k;
  };
  const trueClass = new Int32Array(n);
  const predClass = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    trueClass[s] = classOf(yTrue[s]);
    predClass[s] = classOf(yPred[s]);
  }
  const trueCounts = new Float64Array(index.size);
  const predCounts = new Float64Array(index.size);
  let correct = 0;
  for (let s = 0; s < n; s++) {
    trueCounts[trueClass[s]]++;
    predCounts[predClass[s]]++;
    if (trueClass[s] === predClass[s]) correct++;
  }
  return fromCounts(trueCounts, predCounts, correct, n);
}

// numpy tests integrality by casting to int64, so integers beyond its range count as continuous.
function isLabelNumber(v: number): boolean {
  return Number.isInteger(v) && v >= -9223372036854775808 && v < 9223372036854775808;
}
