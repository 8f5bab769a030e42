import path from "node:path";
import { countFlags, readIntegrityFlags } from "../integrity/flags.js";
import { getCompetition } from "../competitions/registry.js";
import { SPLITS } from "../competitions/splits.js";
import type { CompetitionReport } from "../grading/report.js";
import type { AgentInput, ReportedRun } from "./inputs.js";
import { KNOWN_ISSUES } from "./known-issues.js";
import { buildSeeds } from "./seeds.js";
import { anyMedal, SnapshotGrades } from "./snapshot-grades.js";
import { costNormalised, type CostNormalised } from "./cost.js";
import { transparencyOf, type Transparency } from "./transparency.js";
import { estimate, passAtK, type Estimate } from "../present/stats.js";

/** Complexity splits of the paper's main table; "all" is every reported competition. */
export const SPLIT_GROUPS = ["low", "medium", "high", "all"] as const;
export type SplitGroup = (typeof SPLIT_GROUPS)[number];

/** The paper's columns, each the percentage of competitions where the report says so. */
export const METRICS = [
  ["made_submission", (r: CompetitionReport) => r.submission_exists],
  ["valid_submission", (r: CompetitionReport) => r.valid_submission],
  ["above_median", (r: CompetitionReport) => r.above_median],
  ["bronze", (r: CompetitionReport) => r.bronze_medal],
  ["silver", (r: CompetitionReport) => r.silver_medal],
  ["gold", (r: CompetitionReport) => r.gold_medal],
  ["any_medal", anyMedal],
] as const;
export type MetricName = (typeof METRICS)[number][0];

/** One split's estimates for an agent. */
export interface SplitResult {
  competitions: number;
  metrics: Record<MetricName, Estimate>;
}

/** One (competition, seed) cell of the per-competition table. */
export interface CompetitionRow {
  competition_id: string;
  complexity: string | null;
  seed: number;
  score: number | null;
  score_text: string | null;
  gold_threshold: number | null;
  silver_threshold: number | null;
  bronze_threshold: number | null;
  median_threshold: number | null;
  is_lower_better: boolean;
  medal: "gold" | "silver" | "bronze" | null;
  above_median: boolean;
  submission_exists: boolean;
  valid_submission: boolean;
  invalid_reason: string | null;
  /** Why an integrity check took the medal away, when one did. */
  disqualified_reason: string | null;
  known_issue: string | null;
  wall_seconds: number | null;
  /** The run behind the cell: its group folder's name and its run id; null for a grading-report file. */
  run: { group: string; run_id: string } | null;
}

/** Any-medal rate at one point of the runs' time budget. */
export interface TimePoint {
  /** Fraction of the time limit (1/24 steps: the paper's hours of a 24h run). */
  fraction: number;
  elapsed_seconds: number;
  any_medal: Estimate;
}

/** Wall time (and tokens/cost where runs record them), in total and per medal. */
export interface Effort {
  runs: number;
  wall_seconds_total: number | null;
  wall_seconds_mean: number | null;
  medals: number;
  wall_seconds_per_medal: number | null;
  tokens: number | null;
  cost_usd: number | null;
}

/** How many of an agent's runs one integrity check flagged, over the runs it checked. */
export interface IntegrityRow {
  check: string;
  checked: number;
  flagged: number;
}

/** Everything the report says about one agent. */
export interface AgentReport {
  agent: string;
  sources: string[];
  num_seeds: number;
  splits: Record<SplitGroup, SplitResult | null>;
  pass_at_k: { k: number; any_medal: number }[];
  time_curve: TimePoint[] | null;
  per_competition: CompetitionRow[];
  effort: Effort;
  /** Integrity checks recorded in the runs (`mlebench integrity ...`), and the runs that lost their medals. */
  integrity: { checks: IntegrityRow[]; disqualified: number };
  /** What the runs were given and used, from their manifests. */
  transparency: Transparency;
  /** Medals per run-hour, GPU-hour and USD, and at an equal time budget (filled in across agents). */
  cost_normalised: CostNormalised;
}

/** Per check, the runs flagged over the runs checked, from each run's integrity/<check>.json ({ flags: Flag[] }). */
function integrityOf(runs: ReportedRun[]): AgentReport["integrity"] {
  const disqualified = runs.filter((r) => r.report.disqualified_reason).length;
  const flags = runs.flatMap((r) => (r.runDir ? readIntegrityFlags(r.runDir) : []));
  return { checks: countFlags(flags).sort((a, b) => (a.check < b.check ? -1 : 1)), disqualified };
}

function runOf(runDir: string | null): CompetitionRow["run"] {
  return runDir ? { group: path.basename(path.dirname(runDir)), run_id: path.basename(runDir) } : null;
}

/** Options that change the numbers. */
export interface AggregateOptions {
  competitionIds: string[];
  padMissing: boolean;
  numSeeds: number | null;
  /** Where answers live, for grading snapshots (the time curve). */
  dataDir: string;
}

/** A competition's complexity: its registry entry, else upstream's split lists (for ids without a grader here). */
function complexityOf(id: string): string | null {
  try {
    const c = getCompetition(id).complexity;
    if (c) return c;
  } catch {
    // not in the registry
  }
  for (const s of ["low", "medium", "high"] as const) if (SPLITS[s].includes(id)) return s;
  return null;
}

function pct(count: number, total: number): number {
  return (count / total) * 100;
}

/** Per-split estimates of the paper's columns over seeds. */
export function splitResults(seeds: CompetitionReport[][]): Record<SplitGroup, SplitResult | null> {
  const out = {} as Record<SplitGroup, SplitResult | null>;
  for (const group of SPLIT_GROUPS) {
    const keep = (r: CompetitionReport) => group === "all" || complexityOf(r.competition_id) === group;
    const subsets = seeds.map((s) => s.filter(keep));
    const n = subsets[0]?.length ?? 0;
    if (n === 0) {
      out[group] = null;
      continue;
    }
    const metrics = {} as Record<MetricName, Estimate>;
    for (const [name, pick] of METRICS) metrics[name] = estimate(subsets.map((s) => pct(s.filter(pick).length, s.length)));
    out[group] = { competitions: n, metrics };
  }
  return out;
}

/** pass@k (any medal) for k = 1..seeds, averaged over competitions, in percent. */
export function passAtKCurve(seeds: CompetitionReport[][]): { k: number; any_medal: number }[] {
  const n = seeds.length;
  if (n === 0) return [];
  const ids = seeds[0].map((r) => r.competition_id);
  const successes = ids.map((_id, j) => seeds.filter((s) => METRICS[6][1](s[j])).length);
  const out = [];
  for (let k = 1; k <= n; k++) {
    const values = successes.map((c) => passAtK(n, c, k));
    out.push({ k, any_medal: (values.reduce((a, b) => a + b, 0) / values.length) * 100 });
  }
  return out;
}

function medalOf(r: CompetitionReport): CompetitionRow["medal"] {
  return r.gold_medal ? "gold" : r.silver_medal ? "silver" : r.bronze_medal ? "bronze" : null;
}

/**
 * Any-medal rate over the time budget, from the snapshots runs took: at each 1/24 of the time
 * limit, each run counts with its latest snapshot (graded now), or as no medal before its first;
 * from its end on, with its final report. Null when no input came from a run group.
 */
export async function timeCurve(cells: (ReportedRun | null)[][], grades: SnapshotGrades): Promise<TimePoint[] | null> {
  const runs = cells.flat().filter((r): r is ReportedRun => r !== null && r.record !== null);
  if (runs.length === 0) return null;
  const limits = runs.map((r) => r.record!.sandbox.limits.wallMs).filter((x): x is number => x !== null);
  const horizon = limits.length > 0 ? Math.max(...limits) / 1000 : Math.max(...runs.map((r) => r.record!.wall_seconds ?? 0));
  const points: TimePoint[] = [];
  for (let i = 1; i <= 24; i++) {
    const t = (horizon * i) / 24;
    const perSeed: number[] = [];
    for (const seed of cells) {
      let medals = 0;
      for (const run of seed) if (run !== null && run.record !== null && (await grades.medalAt(run, t))) medals++;
      perSeed.push(pct(medals, seed.length));
    }
    points.push({ fraction: i / 24, elapsed_seconds: Math.round(t), any_medal: estimate(perSeed) });
  }
  return points;
}

/** Aggregate one agent's runs into the report's numbers. */
export async function aggregateAgent(
  input: AgentInput,
  opts: AggregateOptions,
  warn: (m: string) => void,
  grades: SnapshotGrades = new SnapshotGrades(opts.dataDir, warn),
): Promise<{ report: AgentReport; cells: (ReportedRun | null)[][] }> {
  const reports = input.runs.map((r) => r.report);
  const seeds = buildSeeds(reports, opts.competitionIds, { padMissing: opts.padMissing, numSeeds: opts.numSeeds });
  // The same seeds as runs (null where a seed was padded), for snapshots and wall time.
  const byReport = new Map<CompetitionReport, ReportedRun>(input.runs.map((r) => [r.report, r]));
  const cells = seeds.map((s) => s.map((r) => byReport.get(r) ?? null));
  const rows: CompetitionRow[] = [];
  seeds.forEach((seed, i) =>
    seed.forEach((r, j) =>
      rows.push({
        competition_id: r.competition_id,
        complexity: complexityOf(r.competition_id),
        seed: i,
        score: r.score,
        score_text: r.score_text ?? null,
        gold_threshold: r.gold_threshold,
        silver_threshold: r.silver_threshold,
        bronze_threshold: r.bronze_threshold,
        median_threshold: r.median_threshold,
        is_lower_better: r.is_lower_better,
        medal: medalOf(r),
        above_median: r.above_median,
        submission_exists: r.submission_exists,
        valid_submission: r.valid_submission,
        invalid_reason: r.invalid_reason,
        disqualified_reason: r.disqualified_reason ?? null,
        known_issue: KNOWN_ISSUES[r.competition_id] ?? null,
        wall_seconds: cells[i][j]?.record?.wall_seconds ?? null,
        run: runOf(cells[i][j]?.runDir ?? null),
      }),
    ),
  );
  const walls = rows.map((r) => r.wall_seconds).filter((x): x is number => x !== null);
  const medals = rows.filter((r) => r.medal !== null).length;
  const total = walls.length > 0 ? walls.reduce((a, b) => a + b, 0) : null;
  const reported = cells.flat().filter((r): r is ReportedRun => r !== null);
  for (const r of reported) if (r.manifestProblem) warn(r.manifestProblem);
  const transparency = transparencyOf(reported);
  // Tokens and cost stand for the whole agent only when every run recorded them.
  const allRecorded = reported.length > 0 && transparency.recorded_runs === reported.length;
  const report: AgentReport = {
    agent: input.agent,
    sources: input.sources,
    num_seeds: seeds.length,
    splits: splitResults(seeds),
    pass_at_k: passAtKCurve(seeds),
    time_curve: await timeCurve(cells, grades),
    per_competition: rows,
    integrity: integrityOf(input.runs),
    effort: {
      runs: rows.length,
      wall_seconds_total: total,
      wall_seconds_mean: total === null ? null : total / walls.length,
      medals,
      wall_seconds_per_medal: total === null || medals === 0 ? null : total / medals,
      tokens: allRecorded ? transparency.input_tokens! + transparency.output_tokens! : null,
      cost_usd: allRecorded ? transparency.cost_usd : null,
    },
    transparency,
    cost_normalised: costNormalised(reported, medals),
  };
  return { report, cells };
}
