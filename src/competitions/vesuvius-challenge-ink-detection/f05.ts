/**
 * scikit-learn's binary fbeta_score with beta 0.5 from pixel counts (true positives, predicted,
 * true): (1 + β²)·tp / (β²·true + predicted), and 0 when neither mask has a pixel.
 */
export function inkF05(truePositives: number, predicted: number, truth: number): number {
  const beta2 = 0.25;
  const denominator = beta2 * truth + predicted;
  return denominator === 0 ? 0 : ((1 + beta2) * truePositives) / denominator;
}
