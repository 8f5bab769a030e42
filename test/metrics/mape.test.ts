import { describe, expect, it } from "vitest";
import { mape } from "../../src/metrics/mape.js";

// Expected values from scikit-learn 1.2.1: sklearn.metrics.mean_absolute_percentage_error(y_true, y_pred).
describe("mape matches scikit-learn's mean_absolute_percentage_error", () => {
  it("scores small cases, negative true values by their magnitude", () => {
    expect(mape([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])).toBe(0.3273809523809524);
    expect(mape([100, 200, 300], [110, 190, 330])).toBe(0.08333333333333333);
    expect(mape([-2, 4], [-1, 5])).toBe(0.375);
    expect(mape([0], [0])).toBe(0);
  });

  it("divides by machine epsilon where a true value is zero", () => {
    expect(mape([1, 0], [1, 1])).toBe(2251799813685248.0);
  });

  it("sums in numpy's order over many rows", () => {
    // i = np.arange(20000); t = 5000 + (i*7919 % 8000); p = t * (1 + ((i*104729 % 1001) - 500) / 10000)
    const t = Array.from({ length: 20000 }, (_, i) => 5000 + ((i * 7919) % 8000));
    const p = t.map((v, i) => v * (1 + (((i * 104729) % 1001) - 500) / 10000));
    expect(mape(t, p)).toBe(0.025026220000000002);
  });

  it("explains its errors", () => {
    expect(() => mape([1, 2], [1])).toThrow(/inconsistent numbers of samples \(2 vs 1\)/);
    expect(() => mape([], [])).toThrow(/empty input/);
    expect(() => mape([1, Number.NaN], [1, 2])).toThrow(/y_true contains NaN/);
    expect(() => mape([1, 2], [1, Number.POSITIVE_INFINITY])).toThrow(/y_pred contains infinity/);
    expect(() => mape([1, "2" as unknown as number], [1, 2])).toThrow(/not a number/);
  });
});
