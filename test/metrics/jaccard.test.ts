import { describe, expect, it } from "vitest";
import { type JaccardAverage, type JaccardTargets, jaccardScore, jaccardSimilarity } from "../../src/metrics/jaccard.js";
import { expectClose, expectOutcome, golden } from "./golden-other.js";

interface SimCase {
  name: string;
  a: (string | number)[];
  b: (string | number)[];
  both_empty: number | null;
  expected: number;
}
interface ScoreCase {
  name: string;
  y_true: JaccardTargets;
  y_pred: JaccardTargets;
  average: JaccardAverage;
  pos_label: string | number | null;
  expected: number | { error: string };
}

describe("jaccardSimilarity", () => {
  it.each((golden.jaccard_similarity as SimCase[]).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const got = c.both_empty === null ? jaccardSimilarity(c.a, c.b) : jaccardSimilarity(c.a, c.b, c.both_empty);
    expectClose(got, c.expected, c.name);
  });

  it("works on any iterable, e.g. the characters of a string", () => {
    expect(jaccardSimilarity("abc", "bcd")).toBe(0.5);
  });
});

describe("jaccardScore matches sklearn.metrics.jaccard_score(zero_division=0)", () => {
  it.each((golden.jaccard_score as ScoreCase[]).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const options = c.pos_label === null ? { average: c.average } : { average: c.average, posLabel: c.pos_label };
    expectOutcome(() => jaccardScore(c.y_true, c.y_pred, options), c.expected, c.name);
  });

  it("explains its errors", () => {
    expect(() => jaccardScore([0, 1], [0], { average: "binary" })).toThrow(/inconsistent numbers of samples/);
    expect(() => jaccardScore([0, 1, 2], [0, 1, 1], { average: "binary" })).toThrow(/multiclass/);
    expect(() => jaccardScore(["a", "b"], ["a", "a"], { average: "binary" })).toThrow(/pos_label=1/);
    expect(() => jaccardScore([[0, 1]], [[0, 1]], { average: "binary" })).toThrow(/multilabel/);
    expect(() => jaccardScore([[0, 1]], [[0, 1, 0]], { average: "micro" })).toThrow(/different numbers of labels/);
    expect(() => jaccardScore([0, "a"], [0, "a"], { average: "macro" })).toThrow(/string and number/);
    expect(() => jaccardScore([0, 1], [0, 1], { average: "weighted" as JaccardAverage })).toThrow(/unknown average/);
  });

  it("treats single-column indicator rows as labels", () => {
    expect(jaccardScore([[1], [0], [1]], [[1], [1], [1]], { average: "binary" })).toBeCloseTo(2 / 3, 15);
  });
});
