import { describe, expect, it } from "vitest";
import { dice } from "../../src/metrics/dice.js";
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
