import { describe, expect, it } from "vitest";
import { topKRecall } from "../../src/metrics/top-k-recall.js";

/** Every ordering of the indices (small n only). */
function permutations(items: number[]): number[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/** The recall averaged over every way of ordering the rows that respects the scores: the definition the metric computes in closed form. */
function bruteForce(y: number[], s: number[], k: number): number {
  const orders = permutations(y.map((_, i) => i)).filter((o) => o.every((r, j) => j === 0 || s[o[j - 1]] >= s[r]));
  const positives = y.reduce((a, b) => a + b, 0);
  const recalls = orders.map((o) => o.slice(0, k).reduce((a, r) => a + y[r], 0) / positives);
  return recalls.reduce((a, b) => a + b, 0) / recalls.length;
}

describe("top-k recall", () => {
  it("is the share of positives among the k highest scores", () => {
    expect(topKRecall([0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.2, 0.8, 0.7, 0.3], 3)).toBe(1);
    expect(topKRecall([0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.2, 0.8, 0.7, 0.3], 2)).toBe(2 / 3);
    expect(topKRecall([0, 1, 0, 1, 1, 0], [0.9, 0.1, 0.8, 0.2, 0.3, 0.7], 3)).toBe(0);
    expect(topKRecall([0, 1, 0, 1, 1, 0], [0.9, 0.1, 0.8, 0.2, 0.3, 0.7], 6)).toBe(1);
  });

  it("counts the rows tied at the cut by the places left, so a constant scores k / n", () => {
    // Above the cut: 0.9 and 0.8 (one positive). One place left for three rows tied at 0.5, one of them positive.
    expect(topKRecall([1, 0, 1, 0, 0, 1], [0.9, 0.8, 0.5, 0.5, 0.5, 0.1], 3)).toBeCloseTo(4 / 9, 15);
    expect(topKRecall([1, 0, 0, 0, 1, 0, 0, 0, 0, 0], new Array(10).fill(7), 2)).toBeCloseTo(0.2, 15);
  });

  it("equals the average over every order of the ties, and ignores the rows' order", () => {
    const y = [1, 0, 1, 1, 0, 0, 1];
    const s = [2, 1, 1, 3, 1, 2, 0];
    for (let k = 1; k <= y.length; k++) {
      expect(topKRecall(y, s, k), `k=${k}`).toBeCloseTo(bruteForce(y, s, k), 12);
      const perm = [3, 6, 0, 5, 1, 4, 2];
      expect(topKRecall(perm.map((i) => y[i]), perm.map((i) => s[i]), k)).toBeCloseTo(topKRecall(y, s, k), 15);
    }
  });

  it("explains its errors", () => {
    expect(() => topKRecall([0, 1], [0.5], 1)).toThrow("top-k recall: 2 labels but 1 scores");
    expect(() => topKRecall([0, 1], [0.5, 0.2], 0)).toThrow("k must be an integer from 1 to 2 (got 0)");
    expect(() => topKRecall([0, 1], [0.5, 0.2], 3)).toThrow("k must be an integer from 1 to 2 (got 3)");
    expect(() => topKRecall([0, 1], [0.5, 0.2], 1.5)).toThrow("k must be an integer from 1 to 2 (got 1.5)");
    expect(() => topKRecall([0, 2], [0.5, 0.2], 1)).toThrow("labels must be 0 or 1; found 2 at index 1");
    expect(() => topKRecall([0, 1], [Number.NaN, 0.2], 1)).toThrow("scores must be finite numbers; found NaN at index 0");
    expect(() => topKRecall([0, 0], [0.5, 0.2], 1)).toThrow("there are no positive labels");
  });
});
