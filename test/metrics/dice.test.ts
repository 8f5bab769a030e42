import { describe, expect, it } from "vitest";
import { dice, diceFromCounts } from "../../src/metrics/dice.js";
import { expectOutcome, golden } from "./golden-other.js";

interface Case {
  name: string;
  pred: number[];
  truth: number[];
  both_empty: number | null;
  expected: number | { error: string };
}

describe("dice matches mle-bench's dice_coefficient", () => {
  it.each((golden.dice as Case[]).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const run = () => (c.both_empty === null ? dice(c.pred, c.truth) : dice(c.pred, c.truth, c.both_empty));
    expectOutcome(run, c.expected, c.name);
  });

  it("accepts typed masks and reports length mismatches", () => {
    expect(dice(new Uint8Array([1, 1, 0]), new Uint8Array([1, 0, 0]))).toBeCloseTo(2 / 3, 15);
    expect(() => dice([1], [1, 0])).toThrow(/1 pixels but true mask has 2/);
  });
});

describe("diceFromCounts", () => {
  it("agrees with dice on the golden masks", () => {
    for (const c of golden.dice as Case[]) {
      if (c.pred.length !== c.truth.length) continue;
      const inter = c.pred.reduce((s, p, i) => s + p * c.truth[i], 0);
      const sp = c.pred.reduce((s, p) => s + p, 0);
      const st = c.truth.reduce((s, t) => s + t, 0);
      const be = c.both_empty ?? Number.NaN;
      expect(Object.is(diceFromCounts(inter, sp, st, be), dice(c.pred, c.truth, be)), c.name).toBe(true);
    }
  });

  it("defaults to NaN when both masks are empty", () => {
    expect(diceFromCounts(0, 0, 0)).toBeNaN();
    expect(diceFromCounts(0, 0, 0, 1)).toBe(1);
    expect(diceFromCounts(3, 4, 5)).toBe(6 / 9);
  });
});
