import { numpySum } from "../../metrics/sum.js";

/** The eight labels of a study, in the order the weights below are given. */
export const LABELS = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"];

// The competition's weights: a study-level miss counts seven times a vertebra's, and every
// positive label twice its negative.
const NEGATIVE_WEIGHTS = [7, 1, 1, 1, 1, 1, 1, 1];
const POSITIVE_WEIGHTS = [14, 2, 2, 2, 2, 2, 2, 2];
const EPS = 1e-15;

/**
 * The competition's weighted multi-label log loss: per study, the weighted mean of the eight
 * binary log losses (predictions clipped to [1e-15, 1 - 1e-15]), then the mean over studies.
 * `truth` and `predicted` hold eight values per study, row-major in LABELS order.
 */
export function weightedMultiLabelLogLoss(truth: Float64Array, predicted: Float64Array): number {
  const studies = truth.length / LABELS.length;
  const perStudy = new Float64Array(studies);
  for (let s = 0; s < studies; s++) {
    let loss = 0;
    let weight = 0;
    for (let j = 0; j < LABELS.length; j++) {
      const t = truth[s * LABELS.length + j];
      const raw = predicted[s * LABELS.length + j];
      const p = raw < EPS ? EPS : raw > 1 - EPS ? 1 - EPS : raw;
      const w = t * POSITIVE_WEIGHTS[j] + (1 - t) * NEGATIVE_WEIGHTS[j];
      // Written as the reference writes it (both terms, then negated) so signed zeros and
      // rounding agree; the weighted terms are added left to right, as numpy does for this layout.
      loss += -(t * Math.log(p) + (1 - t) * Math.log(1 - p)) * w;
      weight += w;
    }
    perStudy[s] = loss / weight;
  }
  return numpySum(perStudy) / studies;
}
