/** Per-task summary of a group's run evaluations: success rates, improvements, effort, best-score curves. */
import fs from "node:fs";
import path from "node:path";
import { estimate, mean, sem, type Estimate } from "../../present/stats.js";
import type { Direction } from "../tasks/types.js";
import { better, THRESHOLDS, type Threshold } from "./improvement.js";
import { GroupRecordSchema, readJsonFile, type GroupRecord } from "./layout.js";
import type { RunEval } from "./score-run.js";

/** One point of a task's best-so-far curve: the mean over runs of the best score reached by the end of `step`. */
export interface CurvePoint {
  step: number;
  mean: number;
  sem: number;
  /** Runs that had a score by then. */
  runs: number;
}

/** What a group's runs of one task achieved. */
export interface TaskSummary {
  task: string;
  direction: Direction | null;
  baseline: number | null;
  baselineSource: "recorded" | "measured" | null;
  runs: number;
  /** Share of runs (0 to 1) whose final improvement reaches each threshold, with its SEM over runs. */
  success: Record<Threshold, Estimate>;
  /** Final improvement over the baseline (a fraction), over the runs that have one; null when none has. */
  improvement: Estimate | null;
  /** Best improvement reached at any scored step, over the runs that have one. */
  bestImprovement: Estimate | null;
  meanTokens: number | null;
  meanCostUsd: number | null;
  meanWallSeconds: number | null;
  /** Share of runs (0 to 1) that gave a final answer. */
  finalAnswerShare: number;
  /** Runs that ended in an error (including those without a readable run.json). */
  errors: number;
  /** Runs whose final workspace could not be scored. */
  unscored: number;
  curve: CurvePoint[];
}

/** One run, in brief. */
export interface RunRow {
  run: string;
  task: string;
  seed: number | null;
  status: string;
  finalScore: number | null;
  bestScore: number | null;
  improvement: number | null;
  numSteps: number;
  tokens: number | null;
  /** The run's own error, else why its final state could not be scored. */
  note: string | null;
}

/** The evaluation of a whole run group. */
export interface EvalSummary {
  schema: "mlab-eval-summary/1";
  groupDir: string;
  group: { id: string; agent: string; model: string | null } | null;
  /** Why group.json could not be read, if it could not. */
  groupError: string | null;
  createdAt: string;
  thresholds: readonly Threshold[];
  tasks: TaskSummary[];
  runs: RunRow[];
}

function meanOrNull(values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? mean(present) : null;
}

function estimateOrNull(values: (number | null)[]): Estimate | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? estimate(present) : null;
}

/** Best score reached by the end of each step of one run; steps not scored carry the previous value. */
export function bestSoFar(run: RunEval): (number | null)[] {
  const direction = run.direction ?? "higher";
  const n = Math.max(run.numSteps, ...run.steps.map((s) => s.step + 1));
  const at = new Map(run.steps.map((s) => [s.step, s.score]));
  // The final workspace is the state after the last step.
  if (run.finalScore !== null && n > 0) {
    const last = at.get(n - 1);
    if (last === undefined || last === null || better(run.finalScore, last, direction)) at.set(n - 1, run.finalScore);
  }
  const out: (number | null)[] = [];
  let top: number | null = null;
  for (let s = 0; s < n; s++) {
    const v = at.get(s);
    if (v !== undefined && v !== null && (top === null || better(v, top, direction))) top = v;
    out.push(top);
  }
  return out;
}

/** The best-so-far curve averaged over runs; a shorter run keeps its last value up to the longest run's end. */
export function bestCurve(runs: RunEval[]): CurvePoint[] {
  const curves = runs.map(bestSoFar).filter((c) => c.length > 0);
  const length = Math.max(0, ...curves.map((c) => c.length));
  const points: CurvePoint[] = [];
  for (let s = 0; s < length; s++) {
    const values = curves.map((c) => c[Math.min(s, c.length - 1)]).filter((v): v is number => v !== null);
    if (values.length) points.push({ step: s, mean: mean(values), sem: sem(values), runs: values.length });
  }
  return points;
}

/** Summarise the runs of one task. */
export function summarizeTask(task: string, runs: RunEval[]): TaskSummary {
  const first = runs.find((r) => r.direction !== null) ?? runs[0];
  const success = {} as Record<Threshold, Estimate>;
  for (const t of THRESHOLDS) success[t] = estimate(runs.map((r) => (r.success[t] ? 1 : 0)));
  return {
    task,
    direction: first?.direction ?? null,
    baseline: first?.baseline ?? null,
    baselineSource: first?.baselineSource ?? null,
    runs: runs.length,
    success,
    improvement: estimateOrNull(runs.map((r) => r.improvement)),
    bestImprovement: estimateOrNull(runs.map((r) => r.bestImprovement)),
    meanTokens: meanOrNull(runs.map((r) => r.tokens)),
    meanCostUsd: meanOrNull(runs.map((r) => r.costUsd)),
    meanWallSeconds: meanOrNull(runs.map((r) => r.wallSeconds)),
    finalAnswerShare: runs.length ? runs.filter((r) => r.submittedFinalAnswer).length / runs.length : 0,
    errors: runs.filter((r) => r.status === "error").length,
    unscored: runs.filter((r) => r.finalScore === null).length,
    curve: bestCurve(runs),
  };
}

function readGroup(groupDir: string): { group: GroupRecord | null; error: string | null } {
  try {
    return { group: readJsonFile(path.join(groupDir, "group.json"), GroupRecordSchema, "run group record"), error: null };
  } catch (e) {
    return { group: null, error: (e as Error).message };
  }
}

/** Summarise a group's run evaluations per task (in group.json's task order, then any others). */
export function summarizeGroup(groupDir: string, runEvals: RunEval[]): EvalSummary {
  const { group, error } = fs.existsSync(groupDir) ? readGroup(groupDir) : { group: null, error: `${groupDir} does not exist` };
  const names = [...new Set([...(group?.tasks ?? []), ...runEvals.map((r) => r.task)])].filter((t) => runEvals.some((r) => r.task === t));
  return {
    schema: "mlab-eval-summary/1",
    groupDir: path.resolve(groupDir),
    group: group ? { id: group.id, agent: group.agent, model: group.model ?? null } : null,
    groupError: error,
    createdAt: new Date().toISOString(),
    thresholds: THRESHOLDS,
    tasks: names.map((t) => summarizeTask(t, runEvals.filter((r) => r.task === t))),
    runs: runEvals.map((r) => ({
      run: r.run,
      task: r.task,
      seed: r.seed,
      status: r.status,
      finalScore: r.finalScore,
      bestScore: r.bestScore,
      improvement: r.improvement,
      numSteps: r.numSteps,
      tokens: r.tokens,
      note: r.error ?? r.finalError ?? r.baselineError,
    })),
  };
}
