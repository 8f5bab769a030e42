/**
 * Kaggle's probabilistic F-beta for the RSNA mammography competition: predictions are clipped to
 * [0, 1] and summed as soft true/false positives in the given row order (one running sum each,
 * as the reference loop does, so rounding matches). A missing prediction makes both sums NaN,
 * which the final "precision and recall positive" test turns into a score of 0.
 */
export function probabilisticFbeta(labels: ArrayLike<number>, predictions: ArrayLike<number>, beta: number): number {
  let positives = 0;
  let softTruePositives = 0;
  let softFalsePositives = 0;
  for (let i = 0; i < labels.length; i++) {
    const p = Math.min(Math.max(predictions[i], 0), 1);
    // Any non-zero label (NaN included, as Python's truth test has it) counts as a positive case.
    if (labels[i] !== 0) {
      positives++;
      softTruePositives += p;
    } else {
      softFalsePositives += p;
    }
  }
  // The reference divides by the plain integer count, which raises when there is no positive case.
  if (positives === 0) throw new Error("probabilistic F-beta is undefined: the answers hold no positive case");
  const betaSquared = beta * beta;
  const precision = softTruePositives / (softTruePositives + softFalsePositives);
  const recall = softTruePositives / positives;
  if (precision > 0 && recall > 0) {
    return ((1 + betaSquared) * (precision * recall)) / (betaSquared * precision + recall);
  }
  return 0;
}
