import { describe, expect, it } from "vitest";
import type { CompetitionReport } from "../../src/grading/report.js";
import { passAtKCurve, splitResults } from "../../src/report/aggregate.js";
import { buildSeeds, missingReport } from "../../src/report/seeds.js";
import { estimate, mean, passAtK, sem } from "../../src/present/stats.js";

/** A report with just the flags that matter for aggregation. */
export function rep(id: string, flags: Partial<CompetitionReport> = {}): CompetitionReport {
  return { ...missingReport(id), invalid_reason: null, submission_exists: true, valid_submission: true, ...flags };
}
const medal = (id: string, kind: "gold" | "silver" | "bronze") =>
  rep(id, { [`${kind}_medal`]: true, any_medal: true, above_median: true } as Partial<CompetitionReport>);

describe("mean and SEM", () => {
  it("match hand computation (SEM with ddof=1)", () => {
    expect(mean([0, 50, 100])).toBe(50);
    // sample sd 50, over sqrt(3)
    expect(sem([0, 50, 100])).toBeCloseTo(50 / Math.sqrt(3), 12);
    expect(sem([10, 20])).toBeCloseTo(5, 12); // sd = 7.0711, / sqrt 2
  });

  it("one seed has SEM 0 and a zero-width interval", () => {
    expect(estimate([42.5])).toEqual({ mean: 42.5, sem: 0, ci_lower: 42.5, ci_upper: 42.5, per_seed: [42.5] });
  });

  it("the interval is mean ± 1.96 SEM", () => {
    const e = estimate([0, 100]);
    expect(e.mean).toBe(50);
    expect(e.sem).toBeCloseTo(50, 12);
    expect(e.ci_lower).toBeCloseTo(50 - 98, 10);
    expect(e.ci_upper).toBeCloseTo(50 + 98, 10);
  });
});

describe("pass@k", () => {
  it("is 1 − C(n−c,k)/C(n,k)", () => {
    expect(passAtK(5, 2, 1)).toBeCloseTo(2 / 5, 12);
    expect(passAtK(5, 2, 2)).toBeCloseTo(1 - 3 / 10, 12);
    expect(passAtK(5, 2, 3)).toBeCloseTo(1 - 1 / 10, 12);
    expect(passAtK(5, 2, 4)).toBe(1);
    expect(passAtK(5, 0, 5)).toBe(0);
    expect(passAtK(1, 1, 1)).toBe(1);
    expect(passAtK(200, 3, 10)).toBeCloseTo(1 - (188 * 189 * 190) / (198 * 199 * 200), 12);
  });

  it("rejects k outside 1..n", () => {
    expect(() => passAtK(3, 1, 4)).toThrow("pass@k needs 1 <= k <= n (k=4, n=3)");
  });

  it("averages over competitions, in percent", () => {
    // a: medal in 1 of 2 seeds; b: never.
    const seeds = [
      [medal("a", "gold"), rep("b")],
      [rep("a"), rep("b")],
    ];
    expect(passAtKCurve(seeds)).toEqual([
      { k: 1, any_medal: 25 },
      { k: 2, any_medal: 50 },
    ]);
  });
});

describe("seeds", () => {
  const reports = [rep("a", { score: 1 }), rep("b", { score: 2 }), rep("a", { score: 3 }), rep("a", { score: 5 }), rep("b", { score: 4 })];

  it("the i-th report of each competition is seed i; complete seeds only by default", () => {
    const seeds = buildSeeds(reports, ["a", "b"], { padMissing: false, numSeeds: null });
    expect(seeds.map((s) => s.map((r) => r.score))).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it("padding keeps the largest count and fills gaps with failures", () => {
    const seeds = buildSeeds(reports, ["a", "b"], { padMissing: true, numSeeds: null });
    expect(seeds.map((s) => s.map((r) => r.score))).toEqual([
      [1, 2],
      [3, 4],
      [5, null],
    ]);
    expect(seeds[2][1]).toMatchObject({ submission_exists: false, valid_submission: false, any_medal: false });
  });

  it("a competition with no report at all is an error unless padded", () => {
    expect(() => buildSeeds(reports, ["a", "b", "c"], { padMissing: false, numSeeds: null })).toThrow(/No reports for 1 competition\(s\): c;/);
    const padded = buildSeeds(reports, ["a", "b", "c"], { padMissing: true, numSeeds: null });
    expect(padded).toHaveLength(3);
    expect(padded.every((s) => s[2].competition_id === "c" && !s[2].submission_exists)).toBe(true);
  });

  it("--num-seeds caps the count", () => {
    expect(buildSeeds(reports, ["a", "b"], { padMissing: true, numSeeds: 1 })).toHaveLength(1);
    expect(buildSeeds(reports, ["a", "b"], { padMissing: false, numSeeds: 9 })).toHaveLength(2);
  });

  it("reports of competitions outside the list are ignored", () => {
    expect(buildSeeds([...reports, rep("z")], ["a"], { padMissing: false, numSeeds: null })).toHaveLength(3);
  });
});

describe("split results", () => {
  it("percentages per seed, then mean ± SEM (hand computed)", () => {
    // 4 competitions, 2 seeds. Seed 0: gold, silver, invalid, no submission. Seed 1: bronze, plain valid, plain valid, gold.
    const ids = ["w", "x", "y", "z"];
    const seeds = [
      [medal("w", "gold"), medal("x", "silver"), rep("y", { valid_submission: false }), rep("z", { submission_exists: false, valid_submission: false })],
      [medal("w", "bronze"), rep("x"), rep("y"), medal("z", "gold")],
    ];
    expect(seeds.map((s) => s.map((r) => r.competition_id))).toEqual([ids, ids]);
    const all = splitResults(seeds).all!;
    expect(all.competitions).toBe(4);
    expect(all.metrics.made_submission.per_seed).toEqual([75, 100]);
    expect(all.metrics.valid_submission.per_seed).toEqual([50, 100]);
    expect(all.metrics.any_medal.per_seed).toEqual([50, 50]);
    expect(all.metrics.any_medal.sem).toBe(0);
    expect(all.metrics.gold.per_seed).toEqual([25, 25]);
    expect(all.metrics.silver.per_seed).toEqual([25, 0]);
    expect(all.metrics.silver.mean).toBe(12.5);
    expect(all.metrics.silver.sem).toBeCloseTo(12.5, 12);
    expect(all.metrics.bronze.per_seed).toEqual([0, 25]);
    // none of these ids is a registered competition: no complexity, so only "all" has rows
    expect(splitResults(seeds).low).toBeNull();
  });

  it("all invalid, and a NaN score that is valid: counted as upstream counts them", () => {
    const seeds = [[rep("a", { valid_submission: false }), rep("b", { score: null, score_text: "NaN" })]];
    const all = splitResults(seeds).all!;
    expect(all.metrics.valid_submission.per_seed).toEqual([50]);
    expect(all.metrics.any_medal.per_seed).toEqual([0]);
    const none = splitResults([[rep("a", { valid_submission: false })]]).all!;
    expect(none.metrics.valid_submission).toMatchObject({ mean: 0, sem: 0 });
  });

  it("complexity splits follow upstream's split lists (aerial-cactus-identification is low, h-and-m-... is medium)", () => {
    const seeds = [[medal("aerial-cactus-identification", "gold"), rep("h-and-m-personalized-fashion-recommendations")]];
    const r = splitResults(seeds);
    expect(r.low).toMatchObject({ competitions: 1 });
    expect(r.low!.metrics.any_medal.mean).toBe(100);
    expect(r.medium!.metrics.any_medal.mean).toBe(0);
    expect(r.high).toBeNull();
    expect(r.all!.metrics.any_medal.mean).toBe(50);
  });
});
