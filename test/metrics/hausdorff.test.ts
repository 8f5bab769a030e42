import { describe, expect, it } from "vitest";
import { directedHausdorffGrid, hausdorffGrid } from "../../src/metrics/hausdorff.js";

/** MINSTD, so the same point sets are easy to rebuild in Python. */
function* minstd(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (48271 * x) % 2147483647;
    yield x;
  }
}

/** n grid points [z, y, x], coordinate k drawn as next() % shape[k]. */
function points(seed: number, n: number, shape: readonly number[]): Int32Array {
  const g = minstd(seed);
  const out = new Int32Array(3 * n);
  for (let i = 0; i < 3 * n; i++) out[i] = g.next().value % shape[i % 3];
  return out;
}

/** The definition, pair by pair, in scipy's arithmetic. */
function bruteForce(from: Int32Array, to: Int32Array, div: readonly number[]): number {
  let worst = 0;
  for (let i = 0; i < from.length; i += 3) {
    let best = Infinity;
    for (let j = 0; j < to.length; j += 3) {
      let d = 0;
      for (let k = 0; k < 3; k++) d += (from[i + k] / div[k] - to[j + k] / div[k]) ** 2;
      best = Math.min(best, d);
    }
    worst = Math.max(worst, best);
  }
  return Math.sqrt(worst);
}

describe("directedHausdorffGrid", () => {
  // scipy.spatial.distance.directed_hausdorff on the same sets divided by the divisors (scipy 1.10).
  it.each([
    [1, 50, 70, [10, 30, 25], [12, 31, 27], 0.20723886362768484, 0.27853982648426817],
    [7, 200, 30, [40, 40, 40], [40, 40, 40], 0.5024937810560446, 0.2076655965729518],
    [99, 5, 300, [3, 60, 80], [3, 60, 80], 0.052704627669472925, 0.6274396828027022],
  ] as const)("matches scipy for seed %i", (seed, na, nb, shape, div, ab, ba) => {
    const a = points(seed, na, shape);
    const b = points(seed + 1, nb, shape);
    expect(directedHausdorffGrid(a, b, div)).toBe(ab);
    expect(directedHausdorffGrid(b, a, div)).toBe(ba);
    expect(hausdorffGrid(a, b, div)).toBe(Math.max(ab, ba));
  });

  it("agrees with the pairwise definition on many sets, sparse and dense", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const shape = [1 + (seed % 7), 2 + ((seed * 5) % 23), 2 + ((seed * 3) % 19)];
      const div = [shape[0] + (seed % 3), shape[1], shape[2] + 1];
      const a = points(seed * 11, 1 + (seed % 40), shape);
      const b = points(seed * 13, 1 + ((seed * 7) % 90), shape);
      expect(directedHausdorffGrid(a, b, div as [number, number, number])).toBe(bruteForce(a, b, div));
      expect(directedHausdorffGrid(b, a, div as [number, number, number])).toBe(bruteForce(b, a, div));
    }
  });

  it("is 0 inside the target, and handles empty sets", () => {
    const b = points(5, 40, [4, 9, 9]);
    expect(directedHausdorffGrid(b.slice(0, 30), b, [4, 9, 9])).toBe(0);
    expect(directedHausdorffGrid(new Int32Array(0), b, [4, 9, 9])).toBe(0);
    expect(directedHausdorffGrid(b, new Int32Array(0), [4, 9, 9])).toBe(Infinity);
  });

  it("measures two far-apart single voxels exactly", () => {
    const d = directedHausdorffGrid(Int32Array.of(0, 0, 0), Int32Array.of(143, 265, 265), [144, 266, 266]);
    expect(d).toBe(Math.sqrt((143 / 144) ** 2 + (265 / 266) ** 2 + (265 / 266) ** 2));
  });
});
