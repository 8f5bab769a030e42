import { numpySum } from "../../src/metrics/sum.js";
import { describe, expect, it } from "vitest";
import { mae, mse, r2, rmse, rmseInOrder, rmsle } from "../../src/metrics/regression.js";
import { expectOutcome, golden } from "./golden-other.js";

interface Case {
  name: string;
  y_true: number[];
  y_pred: number[];
  expected: Record<string, number | { error: string }>;
}

const cases: Case[] = golden.regression;

describe("regression metrics match scikit-learn", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const { y_true: t, y_pred: p, expected: e } = c;
    expectOutcome(() => mse(t, p), e.mse, "mse");
    expectOutcome(() => rmse(t, p), e.rmse, "rmse");
    expectOutcome(() => mae(t, p), e.mae, "mae");
    expectOutcome(() => r2(t, p), e.r2, "r2");
    expectOutcome(() => rmsle(t, p), e.rmsle, "rmsle");
    expectOutcome(() => rmsle(t, p, { domain: "nonnegative" }), e.rmsle_nonnegative, "rmsle nonnegative");
  });

  it("sums in numpy's order across chunk boundaries", () => {
    const big = cases.find((c) => c.name === "large n");
    expect(big).toBeDefined();
    // The large case's MSE is compared at 1e-12 above; bit-for-bit here shows the order is numpy's.
    expect(mse(big!.y_true, big!.y_pred)).toBe(big!.expected.mse);
    expect(mae(big!.y_true, big!.y_pred)).toBe(big!.expected.mae);
  });

  it("rmseInOrder reads both sides through their orders and gives rmse's result and messages", () => {
    let seed = 7;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const shuffled = (n: number) => {
      const order = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
      return order;
    };
    /** Values placed so that reading them through `order` gives `values` back. */
    const scatter = (values: number[], order: number[]) => {
      const out = new Float64Array(values.length);
      order.forEach((at, i) => (out[at] = values[i]));
      return out;
    };
    let checked = 0;
    for (const c of cases) {
      const n = c.y_true.length;
      if (n !== c.y_pred.length || n === 0) continue;
      const a = shuffled(n);
      const b = shuffled(n);
      const got = () => rmseInOrder(scatter(c.y_true, a), Uint32Array.from(a), scatter(c.y_pred, b), Uint32Array.from(b));
      let expected: number | string;
      try {
        expected = rmse(c.y_true, c.y_pred);
      } catch (e) {
        expected = (e as Error).message;
      }
      if (typeof expected === "number") expect(got()).toBe(expected);
      else expect(got).toThrow(expected);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
    expect(() => rmseInOrder([1, 2], [1, 0], [1], [0])).toThrow("rmse: y_true and y_pred have inconsistent numbers of samples (2 vs 1)");
  });

  it("explains its errors", () => {
    expect(() => mse([1, 2], [1])).toThrow(/inconsistent numbers of samples \(2 vs 1\)/);
    expect(() => mae([], [])).toThrow(/empty input/);
    expect(() => r2([1, Number.NaN], [1, 2])).toThrow(/y_true contains NaN/);
    expect(() => rmse([1, 2], [1, Number.POSITIVE_INFINITY])).toThrow(/y_pred contains infinity/);
    expect(() => rmsle([0, 1], [-1, 1])).toThrow(/less than or equal to -1/);
    expect(() => rmsle([0, 1], [-0.5, 1], { domain: "nonnegative" })).toThrow(/negative values/);
    expect(() => mse([1, "2" as unknown as number], [1, 2])).toThrow(/not a number/);
  });

  it("accepts typed arrays", () => {
    expect(mse(new Float64Array([1, 2, 3]), new Float32Array([1, 2, 5]))).toBeCloseTo(4 / 3, 15);
  });

  it("sums small arrays left to right and empty arrays to zero", () => {
    expect(numpySum([])).toBe(0);
    expect(numpySum([1e16, 1, -1e16])).toBe(0);
  });
});
