/** Improvement over the baseline and success at the paper's thresholds. */
import type { Direction, ImprovementOf } from "../tasks/types.js";

/** The improvement thresholds reported, in percent (the paper's headline is 10). */
export const THRESHOLDS = ["5", "10", "15", "20", "30"] as const;
export type Threshold = (typeof THRESHOLDS)[number];

/** Success of one run at each threshold. */
export type Success = Record<Threshold, boolean>;

/**
 * Relative improvement of `score` over `baseline`: (s − b)/|b| when higher is better, (b − s)/|b| when
 * lower is better; null when there is no score or the baseline is 0 (no relative change is defined).
 * Measured on the error (`of` "error", a higher-is-better score bounded by 1) it is the relative
 * reduction of 1 − score: ((1 − b) − (1 − s))/(1 − b), null when the baseline is already perfect.
 */
export function improvement(score: number | null, baseline: number | null, direction: Direction, of: ImprovementOf = "score"): number | null {
  if (of === "error") {
    if (direction !== "higher") throw new Error("an improvement measured on the error needs a higher-is-better score");
    return improvement(score === null ? null : 1 - score, baseline === null ? null : 1 - baseline, "lower");
  }
  if (score === null || baseline === null || baseline === 0) return null;
  const gain = direction === "higher" ? score - baseline : baseline - score;
  return gain / Math.abs(baseline);
}

// (1.2 − 1)/1 is 0.19999999999999996 in floating point; a 20% gain must count as reaching 20%.
const EPS = 1e-9;

/** Whether `imp` reaches each threshold; a missing improvement (unscored run) is never a success. */
export function successAt(imp: number | null): Success {
  const out = {} as Success;
  for (const t of THRESHOLDS) out[t] = imp !== null && imp >= Number(t) / 100 - EPS;
  return out;
}

/** Whether `a` is strictly better than `b` in `direction`. */
export function better(a: number, b: number, direction: Direction): boolean {
  return direction === "higher" ? a > b : a < b;
}

/**
 * The steps scored when a trace has `count` steps and at most `max` may be scored: all of them when
 * they fit, else every ⌊count/max⌋-th step from 0, the first `max` of those (as the reference evaluation does).
 */
export function subsampleSteps(count: number, max: number): number[] {
  const all = Array.from({ length: count }, (_, i) => i);
  if (max <= 0) return [];
  if (count <= max) return all;
  const stride = Math.floor(count / max);
  return all.filter((i) => i % stride === 0).slice(0, max);
}
