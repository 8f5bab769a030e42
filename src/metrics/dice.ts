// Dice coefficient over masks, computed as mlebench.metrics.dice_coefficient does.

/** 2·Σ(pred·truth) / (Σpred + Σtruth) over flat 0/1 masks; bothEmpty when both masks are empty. */
export function dice(pred: ArrayLike<number>, truth: ArrayLike<number>, bothEmpty = Number.NaN): number {
  if (pred.length !== truth.length) {
    throw new Error(`dice: predicted mask has ${pred.length} pixels but true mask has ${truth.length}`);
  }
  // Sums of products rather than set counts, as upstream does; identical for 0/1 masks.
  let inter = 0;
  let sumPred = 0;
  let sumTruth = 0;
  for (let i = 0; i < pred.length; i++) {
    const p = pred[i];
    const t = truth[i];
    sumPred += p;
    sumTruth += t;
    inter += p * t;
  }
  return diceFromCounts(inter, sumPred, sumTruth, bothEmpty);
}

/** Dice from pixel counts (intersection, predicted, true); bothEmpty when both counts are 0. */
export function diceFromCounts(intersection: number, sumPred: number, sumTruth: number, bothEmpty = Number.NaN): number {
  const union = sumPred + sumTruth;
  if ((sumPred === 0 && sumTruth === 0) || union === 0) return bothEmpty;
  return (2 * intersection) / union;
}
