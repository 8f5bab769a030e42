import { describe, expect, it } from "vitest";
import { isLowerBetter, medalPositions, median, rankScore, thresholds } from "../../src/grading/leaderboard.js";

/** Leaderboard of n scores, best first: n, n-1, ..., 1 (higher is better). */
const descending = (n: number) => Float64Array.from({ length: n }, (_, i) => n - i);
/** Leaderboard of n scores, best first: 1, 2, ..., n (lower is better). */
const ascending = (n: number) => Float64Array.from({ length: n }, (_, i) => i + 1);

describe("medal positions follow Kaggle's progression rules", () => {
  it.each([
    [1, 1, 1, 1],
    [9, 1, 1, 3],
    [10, 1, 2, 4],
    [57, 5, 11, 22],
    [99, 9, 19, 39],
    [100, 10, 20, 40],
    [249, 10, 49, 99],
    [250, 10, 50, 100],
    [999, 11, 50, 100],
    [1000, 12, 50, 100],
    [1499, 12, 74, 149],
    [2930, 15, 146, 293],
    [10000, 30, 500, 1000],
  ])("N=%i → gold %i, silver %i, bronze %i", (n, gold, silver, bronze) => {
    expect(medalPositions(n)).toEqual({ gold, silver, bronze });
  });

  it("rejects an empty leaderboard", () => {
    expect(() => medalPositions(0)).toThrow(/at least one team/);
    expect(() => thresholds(new Float64Array())).toThrow(/at least one team/);
  });
});

describe("thresholds and ranking", () => {
  it("reads the scores at the medal positions and the median", () => {
    expect(thresholds(descending(100))).toEqual({ gold: 91, silver: 81, bronze: 61, median: 50.5 });
    expect(thresholds(ascending(1000))).toEqual({ gold: 12, silver: 50, bronze: 100, median: 500.5 });
  });

  it("detects the direction from the first and last rows", () => {
    expect(isLowerBetter(descending(5))).toBe(false);
    expect(isLowerBetter(ascending(5))).toBe(true);
    expect(isLowerBetter(Float64Array.from([3, 3, 3]))).toBe(false);
  });

  it("awards exactly one medal, with >= at the threshold (higher is better)", () => {
    const lb = descending(100); // gold 91, silver 81, bronze 61, median 50.5
    expect(rankScore(91, lb)).toMatchObject({ goldMedal: true, silverMedal: false, bronzeMedal: false, aboveMedian: true });
    expect(rankScore(90.99, lb)).toMatchObject({ goldMedal: false, silverMedal: true, bronzeMedal: false });
    expect(rankScore(61, lb)).toMatchObject({ goldMedal: false, silverMedal: false, bronzeMedal: true });
    expect(rankScore(60.9, lb)).toMatchObject({ bronzeMedal: false, aboveMedian: true });
    expect(rankScore(50.5, lb)).toMatchObject({ aboveMedian: false });
  });

  it("uses <= when lower is better", () => {
    const lb = ascending(1000); // gold 12, silver 50, bronze 100, median 500.5
    expect(rankScore(12, lb)).toMatchObject({ goldMedal: true, isLowerBetter: true });
    expect(rankScore(12.5, lb)).toMatchObject({ goldMedal: false, silverMedal: true });
    expect(rankScore(100, lb)).toMatchObject({ bronzeMedal: true });
    expect(rankScore(500, lb)).toMatchObject({ bronzeMedal: false, aboveMedian: true });
    expect(rankScore(500.5, lb)).toMatchObject({ aboveMedian: false });
  });

  it("gives nothing to an invalid (null) or NaN score", () => {
    const none = { goldMedal: false, silverMedal: false, bronzeMedal: false, aboveMedian: false };
    expect(rankScore(null, descending(50))).toMatchObject(none);
    expect(rankScore(NaN, descending(50))).toMatchObject(none);
  });

  it("takes the median over non-NaN scores", () => {
    expect(median(Float64Array.from([5, NaN, 1, 3]))).toBe(3);
    expect(median(Float64Array.from([4, 1, 3, 2]))).toBe(2.5);
    expect(median(Float64Array.from([NaN]))).toBeNaN();
  });

  it("handles ties at the cut-off: every tied score reaches the medal", () => {
    const lb = Float64Array.from([0.9, 0.9, 0.9, 0.9, 0.8, 0.8, 0.7, 0.7, 0.6, 0.5]); // N=10: gold pos 1, silver 2, bronze 4
    expect(rankScore(0.9, lb).goldMedal).toBe(true);
    expect(rankScore(0.85, lb)).toMatchObject({ goldMedal: false, silverMedal: false, bronzeMedal: false });
  });
});
