import { hausdorffGrid } from "../../metrics/hausdorff.js";
import { sameRuns } from "./rle-runs.js";
import { type Volume, voxels } from "./volumes.js";

/**
 * Upstream's normalised 3-D Hausdorff distance between a predicted and a true volume: NaN when
 * both are empty (skipped by the mean), 0 when identical, 1 when only one is empty or the
 * prediction has over ten times the true voxels; otherwise the distance between voxel
 * coordinates divided by the true volume's shape (both sides, even when the prediction's shape
 * differs), over the unit cube's diagonal.
 */
export function hausdorffScore(pred: Volume, truth: Volume): number {
  if (pred.count === 0 && truth.count === 0) return NaN;
  if (sameVolume(pred, truth)) return 0;
  if (pred.count === 0 || truth.count === 0) return 1;
  if (pred.count > 10 * truth.count) return 1;
  const shape: [number, number, number] = [truth.slices.length, truth.height, truth.width];
  return hausdorffGrid(voxels(truth), voxels(pred), shape) / Math.sqrt(3);
}

/** numpy's array_equal: same shape and the same voxels. */
function sameVolume(a: Volume, b: Volume): boolean {
  if (a.slices.length !== b.slices.length || a.height !== b.height || a.width !== b.width) return false;
  return a.slices.every((s, z) => sameRuns(s, b.slices[z]));
}
