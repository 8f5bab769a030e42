import { describe, expect, it } from "vitest";
import { levenshtein, levenshteinSeq } from "../../src/metrics/levenshtein.js";
import { golden } from "./golden-other.js";

interface Case<T> {
  name: string;
  a: T;
  b: T;
  expected: number;
}

describe("levenshtein matches a plain DP over code points", () => {
  it.each((golden.levenshtein as Case<string>[]).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    expect(levenshtein(c.a, c.b)).toBe(c.expected);
    expect(levenshtein(c.b, c.a)).toBe(c.expected);
  });

  it("counts an astral character as one symbol, a combining sequence as two", () => {
    expect(levenshtein("😀", "")).toBe(1);
    expect(levenshtein("e\u0301", "é")).toBe(2);
  });

  it("handles long strings", () => {
    const a = "InChI=1S/C".repeat(300);
    const b = "InChI=1S/N".repeat(300);
    expect(levenshtein(a, b)).toBe(300);
  });
});

describe("levenshteinSeq", () => {
  it.each((golden.levenshtein_seq as Case<(string | number)[]>[]).map((c) => [c.name, c] as const))(
    "%s",
    (_name, c) => {
      expect(levenshteinSeq(c.a, c.b)).toBe(c.expected);
    },
  );

  it("compares whole tokens, not characters", () => {
    expect(levenshteinSeq(["hello", "world"], ["hello", "word"])).toBe(1);
  });
});
