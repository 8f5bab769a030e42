/** Medal thresholds from a leaderboard, by Kaggle's progression rules. */

export interface Thresholds {
  gold: number;
  silver: number;
  bronze: number;
  median: number;
}

export interface Ranking {
  thresholds: Thresholds;
  isLowerBetter: boolean;
  goldMedal: boolean;
  silverMedal: boolean;
  bronzeMedal: boolean;
  aboveMedian: boolean;
}

/** Lower is better iff the first (best) leaderboard score is below the last one. */
export function isLowerBetter(scores: ArrayLike<number>): boolean {
  if (scores.length === 0) throw new Error("leaderboard has no rows");
  return scores[0] < scores[scores.length - 1];
}

/** 1-based leaderboard positions of the gold, silver and bronze cut-offs for N teams. */
export function medalPositions(numTeams: number): { gold: number; silver: number; bronze: number } {
  if (!Number.isInteger(numTeams) || numTeams < 1) {
    throw new Error(`leaderboard must have at least one team, got ${numTeams}`);
  }
  const at = (fraction: number) => Math.max(1, Math.floor(numTeams * fraction));
  if (numTeams < 100) return { gold: at(0.1), silver: at(0.2), bronze: at(0.4) };
  if (numTeams < 250) return { gold: 10, silver: at(0.2), bronze: at(0.4) };
  const gold = 10 + Math.floor(numTeams * 0.002);
  if (numTeams < 1000) return { gold, silver: 50, bronze: 100 };
  return { gold, silver: at(0.05), bronze: at(0.1) };
}

/** Median of the non-NaN scores (pandas Series.median); NaN when there are none. */
export function median(values: ArrayLike<number>): number {
  const xs = Float64Array.from(values).filter((v) => !Number.isNaN(v)).sort();
  if (xs.length === 0) return NaN;
  const mid = xs.length >> 1;
  return xs.length % 2 === 1 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

/** Gold/silver/bronze/median thresholds of a leaderboard whose scores are ordered best first. */
export function thresholds(scores: ArrayLike<number>): Thresholds {
  const pos = medalPositions(scores.length);
  const at = (p: number) => {
    if (p < 1 || p > scores.length) {
      throw new Error(`medal position ${p} is outside a leaderboard of ${scores.length} rows`);
    }
    return scores[p - 1];
  };
  return { gold: at(pos.gold), silver: at(pos.silver), bronze: at(pos.bronze), median: median(scores) };
}

/**
 * Where a score lands on a leaderboard. Medals use >= (<= when lower is better) and are
 * exclusive; above-median is strict. A null score (invalid submission) earns nothing, and so
 * does NaN, because every comparison with NaN is false.
 */
export function rankScore(score: number | null, scores: ArrayLike<number>): Ranking {
  const t = thresholds(scores);
  const lower = isLowerBetter(scores);
  const none = { goldMedal: false, silverMedal: false, bronzeMedal: false, aboveMedian: false };
  if (score === null) return { thresholds: t, isLowerBetter: lower, ...none };
  const reaches = (threshold: number) => (lower ? score <= threshold : score >= threshold);
  const goldMedal = reaches(t.gold);
  const silverMedal = !goldMedal && reaches(t.silver);
  const bronzeMedal = !goldMedal && !silverMedal && reaches(t.bronze);
  const aboveMedian = lower ? score < t.median : score > t.median;
  return { thresholds: t, isLowerBetter: lower, goldMedal, silverMedal, bronzeMedal, aboveMedian };
}
