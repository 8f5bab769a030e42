// TGS Salt's per-image score: precision averaged over IoU thresholds, with one object per mask.

/** np.arange(0.5, 1.0, 0.05): the float steps land slightly above the round values. */
export const IOU_THRESHOLDS = [
  0.5, 0.55, 0.6000000000000001, 0.6500000000000001, 0.7000000000000002, 0.7500000000000002, 0.8000000000000003,
  0.8500000000000003, 0.9000000000000004, 0.9500000000000004,
];

/**
 * Mean over IOU_THRESHOLDS of [IoU > threshold] for two flat 0/1 masks: 1 when both are empty,
 * 0 when only the truth is.
 *
 * Upstream counts the intersection with histogram2d over two bins per axis. A prediction with no
 * pixel set has a degenerate range, so every one of its pixels lands in the upper ("salt") bin:
 * an empty prediction is scored as a full-image prediction, IoU = salt area / image area.
 */
export function iouPrecision(truth: Uint8Array, pred: Uint8Array): number {
  let nTrue = 0;
  let nPred = 0;
  let both = 0;
  for (let i = 0; i < truth.length; i++) {
    nTrue += truth[i];
    nPred += pred[i];
    both += truth[i] & pred[i];
  }
  if (nTrue === 0) return nPred === 0 ? 1 : 0;
  const intersection = nPred === 0 ? nTrue : both;
  const predArea = nPred === 0 ? pred.length : nPred;
  const iou = intersection / (nTrue + predArea - intersection);
  let passed = 0;
  for (const t of IOU_THRESHOLDS) if (iou > t) passed++;
  return passed / IOU_THRESHOLDS.length;
}
