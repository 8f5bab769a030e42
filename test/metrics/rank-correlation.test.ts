import { describe, expect, it } from "vitest";
import { kendallTau, pearson, spearman } from "../../src/metrics/correlation.js";
import { rankAverage } from "../../src/metrics/rank.js";
import { expectClose, expectOutcome, golden } from "./golden-other.js";

interface RankCase {
  name: string;
  values: number[];
  expected: number[];
}
interface CorrCase {
  name: string;
  x: number[];
  y: number[];
  expected: Record<"pearson" | "spearman" | "kendall", number | { error: string }>;
}

// O(n^2) tau-b straight from the definition, to cross-check the O(n log n) version.
function naiveTauB(x: number[], y: number[]): number {
  let s = 0;
  let tx = 0;
  let ty = 0;
  let n0 = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign(x[i] - x[j]);
      const dy = Math.sign(y[i] - y[j]);
      n0++;
      if (dx === 0) tx++;
      if (dy === 0) ty++;
      s += dx * dy;
    }
  }
  return s / Math.sqrt(n0 - tx) / Math.sqrt(n0 - ty);
}

describe("rankAverage matches scipy.stats.rankdata(method='average')", () => {
  it.each((golden.rank as RankCase[]).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const got = rankAverage(c.values);
    expect(got).toBeInstanceOf(Float64Array);
    expect(got.length).toBe(c.expected.length);
    // Ranks are halves of integers: exact.
    c.expected.forEach((e, i) => (Number.isNaN(e) ? expect(got[i]).toBeNaN() : expect(got[i]).toBe(e)));
  });
});

describe("correlations match scipy.stats", () => {
  it.each((golden.correlation as CorrCase[]).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    expectOutcome(() => pearson(c.x, c.y), c.expected.pearson, "pearson");
    expectOutcome(() => spearman(c.x, c.y), c.expected.spearman, "spearman");
    expectOutcome(() => kendallTau(c.x, c.y), c.expected.kendall, "kendall");
  });

  it("kendallTau agrees with the quadratic definition on random tied data", () => {
    // mulberry32: a tiny deterministic PRNG.
    let seed = 12345;
    const rand = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    for (let trial = 0; trial < 50; trial++) {
      const n = 2 + Math.floor(rand() * 60);
      const x = Array.from({ length: n }, () => Math.floor(rand() * 6));
      const y = Array.from({ length: n }, () => Math.floor(rand() * 4));
      const expected = naiveTauB(x, y);
      if (Number.isNaN(expected)) expect(kendallTau(x, y)).toBeNaN();
      else expectClose(kendallTau(x, y), expected, `trial ${trial}`);
    }
  });

  it("kendallTau agrees with a direct pair count on a larger input with many ties", () => {
    const n = 2_000;
    const x = Float64Array.from({ length: n }, (_, i) => (i * 7919) % 101);
    const y = Float64Array.from({ length: n }, (_, i) => (i * 104729) % 97);
    let concordant = 0;
    let discordant = 0;
    let tiesX = 0;
    let tiesY = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const dx = Math.sign(x[i] - x[j]);
        const dy = Math.sign(y[i] - y[j]);
        if (dx === 0 && dy === 0) continue;
        if (dx === 0) tiesX++;
        else if (dy === 0) tiesY++;
        else if (dx === dy) concordant++;
        else discordant++;
      }
    }
    const expected = (concordant - discordant) / Math.sqrt((concordant + discordant + tiesX) * (concordant + discordant + tiesY));
    expect(kendallTau(x, y)).toBeCloseTo(expected, 12);
  });

  it("explains its errors", () => {
    expect(() => pearson([1, 2, 3], [1, 2])).toThrow(/same length/);
    expect(() => pearson([1], [1])).toThrow(/at least 2/);
    expect(() => spearman([1, 2], [1])).toThrow(/same length/);
    expect(() => kendallTau([1, 2], [1])).toThrow(/same size/);
  });
});
