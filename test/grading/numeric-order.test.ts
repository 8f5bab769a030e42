import { describe, expect, it } from "vitest";
import { numericSortOrder } from "../../src/grading/numeric-order.js";

/** The definition: ascending, NaN last, -0 equal to 0, ties in row order. */
function reference(values: ArrayLike<number>): number[] {
  const key = (x: number) => (x !== x ? Infinity : x);
  return Array.from({ length: values.length }, (_, i) => i).sort((a, b) => {
    const x = values[a];
    const y = values[b];
    const xn = x !== x;
    const yn = y !== y;
    if (xn !== yn) return xn ? 1 : -1;
    return key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : a - b;
  });
}

/** Deterministic values mixing ties, negatives, -0, NaN, infinities and large ids. */
function mixed(n: number, seed: number): Float64Array {
  const out = new Float64Array(n);
  let s = seed;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const specials = [NaN, -0, 0, Infinity, -Infinity, -1e-300, 5e-324, -5e-324, 2 ** 53, -(2 ** 53)];
  for (let i = 0; i < n; i++) {
    const r = next();
    if (r < 0.05) out[i] = specials[Math.floor(next() * specials.length)];
    else if (r < 0.4) out[i] = Math.floor(next() * 50) - 25;
    else if (r < 0.7) out[i] = (next() - 0.5) * 1e6;
    else out[i] = Math.floor(next() * 2 ** 40) + 2 ** 41;
  }
  return out;
}

describe("numericSortOrder", () => {
  it("matches the stable comparison sort on small and large inputs (radix path)", () => {
    for (const [n, seed] of [[10, 1], [2047, 2], [5000, 3], [70000, 4]]) {
      const v = mixed(n, seed);
      expect(Array.from(numericSortOrder(v)), `n=${n}`).toEqual(reference(v));
    }
  });

  it("returns the identity for sorted input, NaNs at the end included", () => {
    expect(Array.from(numericSortOrder([-1, -0, 0, 0, 3, NaN, NaN]))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(Array.from(numericSortOrder([NaN, 1]))).toEqual([1, 0]);
  });

  it("orders whole numbers spanning more than 32 bits, negatives included", () => {
    const v = Float64Array.from({ length: 6000 }, (_, i) => [2 ** 53 - 1 - i, -(2 ** 40) + i * 3, (i * 7919) % 5000, 2 ** 32 + (i % 7)][i % 4]);
    expect(Array.from(numericSortOrder(v))).toEqual(reference(v));
  });

  it("orders whole-number ids that share their high bits", () => {
    const ids = Float64Array.from({ length: 10000 }, (_, i) => 2_000_000_000 + ((i * 7919) % 10000));
    const order = numericSortOrder(ids);
    for (let k = 1; k < order.length; k++) expect(ids[order[k - 1]]).toBeLessThan(ids[order[k]]);
  });
});
