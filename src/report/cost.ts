/**
 * Medals per unit of what was spent: wall-clock hours, GPU-hours and LLM dollars, and the any-medal
 * rate at an equal time budget, so an agent that ran longer or on more hardware is not simply ahead.
 */
import { estimate, type Estimate } from "../present/stats.js";
import type { CostPoint } from "../results/manifest.js";
import { anyMedal, type SnapshotGrades } from "./snapshot-grades.js";
import type { ReportedRun } from "./inputs.js";

/** A rate, or why there is none: "n/a" (nothing of that resource was used or priced), "not recorded" (some runs lack the figure). */
export type Ratio = { value: number; reason: null } | { value: null; reason: "n/a" | "not recorded" };

/** The any-medal rate at the time budget every agent reached. */
export interface EqualBudget {
  /** The common budget: the smallest of the agents' time-curve horizons. */
  budget_seconds: number;
  /** This agent's time-curve point used: its last one not past the budget. */
  elapsed_seconds: number;
  fraction: number;
  any_medal: Estimate;
}

/** An agent's medals against its spending. */
export interface CostNormalised {
  runs: number;
  /** Runs with any medal (after disqualification). */
  medals: number;
  /** Summed wall-clock hours; null when a run has no wall time recorded. */
  run_hours: number | null;
  /** Summed GPU-hours (wall time × GPUs given); null when a run has no manifest. */
  gpu_hours: number | null;
  /** Summed LLM cost of priced calls; null when no cost is known or a run has no manifest. */
  cost_usd: number | null;
  medals_per_run_hour: Ratio;
  medals_per_gpu_hour: Ratio;
  medals_per_usd: Ratio;
  /** Null when the agent has no time curve (no run group) or no agent has one. */
  equal_budget: EqualBudget | null;
  /** The any-medal rate at an equal LLM budget; null when it cannot be told (see equalCosts). */
  equal_cost: EqualCost | null;
}

/** The any-medal rate when every run stops spending at the same LLM budget. */
export interface EqualCost {
  /** The common budget per run, USD: the smallest of the costed agents' largest run costs. */
  budget_usd: number;
  /** Runs that spent past the budget, and so count with their last snapshot before they did. */
  runs_cut: number;
  any_medal: Estimate;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** medals / amount, n/a when nothing was spent, not recorded when the amount is unknown. */
export function ratio(medals: number, amount: number | null): Ratio {
  if (amount === null) return { value: null, reason: "not recorded" };
  if (amount <= 0) return { value: null, reason: "n/a" };
  return { value: medals / amount, reason: null };
}

/** A run's wall seconds: its manifest's, else its run.json's. */
function wallOf(r: ReportedRun): number | null {
  return r.manifest?.usage.wall_seconds ?? r.record?.wall_seconds ?? null;
}

/** A run's GPU seconds; a manifest with no GPU given used none even when the figure is missing. */
function gpuOf(r: ReportedRun): number | null {
  const m = r.manifest;
  if (!m) return null;
  return m.usage.gpu_seconds ?? (m.hardware.gpus.length === 0 ? 0 : null);
}

/** A run's known LLM cost (null: no call priced). */
function costOf(r: ReportedRun): number | null {
  const known = (r.manifest?.models ?? []).map((u) => u.cost_usd).filter((x): x is number => x !== null);
  return known.length === 0 ? null : sum(known);
}

/** Medals per run-hour, GPU-hour and USD over an agent's reported runs (a total over some runs only would flatter the rate, so any gap makes it "not recorded"). */
export function costNormalised(runs: ReportedRun[], medals: number): CostNormalised {
  const walls = runs.map(wallOf);
  const runHours = runs.length > 0 && walls.every((w) => w !== null) ? sum(walls as number[]) / 3600 : null;
  const gpus = runs.map(gpuOf);
  const gpuHours = runs.length > 0 && gpus.every((g) => g !== null) ? sum(gpus as number[]) / 3600 : null;
  const allManifests = runs.length > 0 && runs.every((r) => r.manifest !== null);
  const costs = runs.map(costOf).filter((c): c is number => c !== null);
  const cost = allManifests && costs.length > 0 ? sum(costs) : null;
  return {
    runs: runs.length,
    medals,
    run_hours: runHours,
    gpu_hours: gpuHours,
    cost_usd: cost,
    medals_per_run_hour: ratio(medals, runHours),
    medals_per_gpu_hour: ratio(medals, gpuHours),
    // No manifest: unknown; manifests without a priced call: no cost to divide by.
    medals_per_usd: allManifests ? ratio(medals, cost ?? 0) : { value: null, reason: "not recorded" },
    equal_budget: null,
    equal_cost: null,
  };
}

/** A run's total LLM cost from its manifest's curve (0 when nothing was priced), or null without a manifest. */
function runCost(r: ReportedRun): number | null {
  if (!r.manifest) return null;
  const curve = r.manifest.llm_cost_curve;
  return curve.length === 0 ? 0 : curve[curve.length - 1].cost_usd;
}

/** When a run's cumulative cost first went past `budget` (seconds into the run), or null if it never did. */
export function timeOverBudget(curve: readonly CostPoint[], budget: number): number | null {
  return curve.find((p) => p.cost_usd > budget)?.elapsed_seconds ?? null;
}

/**
 * The any-medal rate at equal LLM cost, from snapshots like the time curve: the budget is the
 * smallest of the agents' largest run costs (agents that spent nothing do not set it), and a run
 * that spent past it counts with its latest snapshot taken before it did; other runs count with
 * their final report. Null for an agent some of whose runs have no manifest, and for every agent
 * when none spent anything priced.
 */
export async function equalCosts(agents: (ReportedRun | null)[][][], grades: SnapshotGrades): Promise<(EqualCost | null)[]> {
  const costs = agents.map((cells) => {
    const runs = cells.flat().filter((r): r is ReportedRun => r !== null);
    const each = runs.map(runCost);
    return runs.length > 0 && each.every((c) => c !== null) ? Math.max(...(each as number[])) : null;
  });
  const spenders = costs.filter((c): c is number => c !== null && c > 0);
  if (spenders.length === 0) return agents.map(() => null);
  const budget = Math.min(...spenders);
  const out: (EqualCost | null)[] = [];
  for (const [i, cells] of agents.entries()) {
    if (costs[i] === null) {
      out.push(null);
      continue;
    }
    let cut = 0;
    const perSeed: number[] = [];
    for (const seed of cells) {
      let medals = 0;
      for (const run of seed) {
        if (run === null) continue;
        const over = timeOverBudget(run.manifest!.llm_cost_curve, budget);
        if (over === null) {
          if (anyMedal(run.report)) medals++;
          continue;
        }
        cut++;
        // Strictly before: the snapshot must have been taken with the budget not yet spent.
        if (run.record !== null && (await grades.medalAt(run, over - 1e-6))) medals++;
      }
      perSeed.push(seed.length === 0 ? 0 : (medals / seed.length) * 100);
    }
    out.push({ budget_usd: budget, runs_cut: cut, any_medal: estimate(perSeed) });
  }
  return out;
}

/** A time-curve point, as the report keeps it. */
interface CurvePoint {
  fraction: number;
  elapsed_seconds: number;
  any_medal: Estimate;
}

/**
 * Equal cost as equal wall-clock time (LLM cost is known only as each run's total, not over time):
 * the common budget is the smallest of the agents' time-curve horizons, and each agent's rate is
 * its last curve point not past it. Null for agents without a curve.
 */
export function equalBudgets(curves: (CurvePoint[] | null)[]): (EqualBudget | null)[] {
  const horizons = curves.filter((c): c is CurvePoint[] => c !== null && c.length > 0).map((c) => c[c.length - 1].elapsed_seconds);
  if (horizons.length === 0) return curves.map(() => null);
  const budget = Math.min(...horizons);
  return curves.map((c) => {
    const point = c ? [...c].reverse().find((p) => p.elapsed_seconds <= budget) : undefined;
    return point ? { budget_seconds: budget, elapsed_seconds: point.elapsed_seconds, fraction: point.fraction, any_medal: point.any_medal } : null;
  });
}
