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
  const n = yTrue.length;
  let truePred = 0;
  let predPred = 0;
  let trueTrue = 0;
  for (let i = 0; i < labels.length; i++) {
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
