import { describe, expect, it } from "vitest";
import { type KlDivergenceOptions, klDivergence } from "../../src/metrics/kl-divergence.js";
import { expectOutcome, golden } from "./golden-other.js";

interface Case {
  name: string;
  solution: number[][];
  submission: number[][];
  options: { eps?: number; micro?: boolean; weights?: number[] };
  expected: number | { error: string };
}

describe("klDivergence matches the HMS Kaggle metric", () => {
  it.each((golden.kl_divergence as Case[]).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const options: KlDivergenceOptions = {};
    if (c.options.eps !== undefined) options.eps = c.options.eps;
    if (c.options.micro !== undefined) options.microAverage = c.options.micro;
    if (c.options.weights !== undefined) options.sampleWeights = c.options.weights;
    expectOutcome(() => klDivergence(c.solution, c.submission, options), c.expected, c.name);
  });

  it("names the failing check like upstream", () => {
    expect(() => klDivergence([[0.5, 0.5]], [[-0.1, 1.1]])).toThrow("All target values in submission must be at least zero");
    expect(() => klDivergence([[1.5, 0]], [[0.5, 0.5]])).toThrow("All target values in solution must be no greater than one");
    expect(() => klDivergence([[0.5, 0.4]], [[0.5, 0.5]])).toThrow("Target values in solution do not add to one within all rows");
  });

  it("rejects misshapen input", () => {
    expect(() => klDivergence([[0.5, 0.5]], [])).toThrow(/1 rows but submission has 0/);
    expect(() => klDivergence([[0.5, 0.5]], [[1]])).toThrow(/submission row 0 has 1 columns, expected 2/);
    expect(() => klDivergence([[1]], [[1]], { microAverage: false, sampleWeights: [1] })).toThrow(/microAverage/);
    expect(() => klDivergence([[1]], [[1]], { sampleWeights: [0] })).toThrow(/sum to zero/);
  });

  // Golden numbers from numpy.
  it("validates extra trailing submission columns but scores only the solution's", () => {
    expect(klDivergence([[0.5, 0.5]], [[0.4, 0.4, 0.2]])).toBeCloseTo(0.22314355131420974, 15);
    expect(() => klDivergence([[0.5, 0.5]], [[0.5, 0.5, 0.2]])).toThrow("Target values in submission do not add to one within all rows");
    expect(() => klDivergence([[0.5, 0.5]], [[0.5, 0.6, -0.1]])).toThrow("All target values in submission must be at least zero");
  });

  it("leaves columns marked unclipped as they are (pandas' clip of an int64 column)", () => {
    const solution = [[0.5, 0.5], [1, 0]];
    const submission = [[1, 0], [1, 0]];
    expect(klDivergence(solution, submission)).toBeCloseTo(8.288120508447697, 13);
    expect(klDivergence(solution, submission, { unclipped: [true, true] })).toBe(Infinity);
    expect(klDivergence([[1, 0]], [[1, 0]], { unclipped: [true, true] })).toBe(0);
  });

  it("scores no rows as NaN", () => {
    expect(klDivergence([], [])).toBeNaN();
  });
});
