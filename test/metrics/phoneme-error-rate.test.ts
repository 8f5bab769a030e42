import { describe, expect, it } from "vitest";
import { phonemeErrorRate, phonemeTokens } from "../../src/metrics/phoneme-error-rate.js";

describe("phonemeTokens", () => {
  it("splits on any run of whitespace and reads blank text as no phonemes", () => {
    expect(phonemeTokens("K AE T")).toEqual(["K", "AE", "T"]);
    expect(phonemeTokens("  TH\tR  UW ")).toEqual(["TH", "R", "UW"]);
    expect(phonemeTokens("")).toEqual([]);
    expect(phonemeTokens("   ")).toEqual([]);
  });
});

describe("phonemeErrorRate", () => {
  it("pools edit distances over the corpus and divides by the reference length", () => {
    const refs = [["K", "AE", "T"], ["D", "AO", "G", "Z"]];
    // One substitution in the first word; one deletion and one insertion in the second: 3 edits / 7 phonemes.
    expect(phonemeErrorRate(refs, [["K", "AH", "T"], ["D", "AO", "S", "G"]])).toBeCloseTo(3 / 7, 15);
    expect(phonemeErrorRate(refs, refs)).toBe(0);
    expect(phonemeErrorRate(refs, [[], []])).toBe(1);
  });

  it("weighs words by length rather than averaging per word, and can exceed 1", () => {
    // Per-word rates would average (1/1 + 0/4) / 2 = 0.5; pooled it is 1 / 5.
    expect(phonemeErrorRate([["AH"], ["B", "IY", "K", "AH"]], [["EH"], ["B", "IY", "K", "AH"]])).toBe(0.2);
    expect(phonemeErrorRate([["AH"]], [["B", "IY", "K"]])).toBe(3);
  });

  it("compares whole tokens, case-sensitively", () => {
    expect(phonemeErrorRate([["AH", "N"]], [["ah", "N"]])).toBe(0.5);
    expect(phonemeErrorRate([["AH", "N"]], [["AHN"]])).toBe(1);
  });

  it("refuses mismatched lengths and empty references", () => {
    expect(() => phonemeErrorRate([["AH"]], [])).toThrow(/1 references but 0 hypotheses/);
    expect(() => phonemeErrorRate([[]], [["AH"]])).toThrow(/no phonemes/);
  });
});
