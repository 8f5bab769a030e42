import { describe, expect, it } from "vitest";
import { averagePrecisionAtK, meanAveragePrecisionAtK } from "../../src/metrics/map-at-k.js";
import { expectClose, golden } from "./golden-other.js";

interface Case {
  name: string;
  actual: string[][];
  predicted: string[][];
  k: number;
  expected_rows: number[];
  expected: number;
}

describe("MAP@k matches mle-bench's definition", () => {
  it.each((golden.map_at_k as Case[]).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const actual = c.actual.map((a) => new Set(a));
    c.expected_rows.forEach((e, i) => expectClose(averagePrecisionAtK(actual[i], c.predicted[i], c.k), e, `row ${i}`));
    expectClose(meanAveragePrecisionAtK(actual, c.predicted, c.k), c.expected, "mean");
  });

  it("explains its errors", () => {
    expect(() => averagePrecisionAtK(new Set(["a"]), ["a"], 0)).toThrow(/positive integer/);
    expect(() => meanAveragePrecisionAtK([new Set(["a"])], [], 3)).toThrow(/1 rows of actual values but 0/);
  });
});
