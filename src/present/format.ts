import { hms, pad2 } from "../core/duration.js";
import type { Estimate } from "./stats.js";

/** "12.3 ± 4.5" (percentages, one decimal, as the paper prints them). */
export function pm(e: Estimate | undefined): string {
  if (!e || !Number.isFinite(e.mean)) return "-";
  return `${e.mean.toFixed(1)} ± ${e.sem.toFixed(1)}`;
}

/** A score as reported (NaN/Infinity spelled out), or "-" for none. */
export function scoreText(score: number | null, text: string | null): string {
  if (text) return text;
  return score === null ? "-" : String(score);
}

/** A threshold rounded for reading. */
export function threshold(x: number | null): string {
  return x === null ? "-" : String(Number(x.toPrecision(6)));
}

/** Seconds as "1h02m" / "4m05s" / "12s". */
export function duration(s: number | null): string {
  if (s === null) return "-";
  const { h, m, s: sec } = hms(Math.round(s));
  return h > 0 ? `${h}h${pad2(m)}m` : m > 0 ? `${m}m${pad2(sec)}s` : `${sec}s`;
}

/** Human titles of the paper's columns. */
export const METRIC_TITLES: Record<string, string> = {
  made_submission: "Made submission (%)",
  valid_submission: "Valid submission (%)",
  above_median: "Above median (%)",
  bronze: "Bronze (%)",
  silver: "Silver (%)",
  gold: "Gold (%)",
  any_medal: "Any medal (%)",
};

/** Human titles of the splits. */
export const SPLIT_TITLES: Record<string, string> = { low: "Low", medium: "Medium", high: "High", all: "All" };
