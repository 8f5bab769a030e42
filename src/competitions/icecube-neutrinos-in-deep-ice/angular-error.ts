import { numpySum } from "../../metrics/sum.js";

/**
 * Mean angle (radians) between true and predicted directions given as azimuth/zenith pairs,
 * through the dot product of their unit vectors.
 */
export function meanAngularError(
  azTrue: ArrayLike<number>,
  zenTrue: ArrayLike<number>,
  azPred: ArrayLike<number>,
  zenPred: ArrayLike<number>,
): number {
  const n = azTrue.length;
  const angles = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const sz1 = Math.sin(zenTrue[i]);
    const sz2 = Math.sin(zenPred[i]);
    const dot =
      sz1 * sz2 * (Math.cos(azTrue[i]) * Math.cos(azPred[i]) + Math.sin(azTrue[i]) * Math.sin(azPred[i])) +
      Math.cos(zenTrue[i]) * Math.cos(zenPred[i]);
    // Rounding in sin/cos can push the product of unit vectors just past ±1, outside acos's domain.
    angles[i] = Math.abs(Math.acos(Math.min(1, Math.max(-1, dot))));
  }
  // Summed in numpy's order so the mean agrees with np.average to the last bit.
  return numpySum(angles) / n;
}
