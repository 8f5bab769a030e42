/** Per-task summary of a group's run evaluations: success rates, improvements, effort, best-score curves. */
import fs from "node:fs";
import path from "node:path";
import { estimate, mean, sem, type Estimate } from "../../present/stats.js";
import { readResearchGroupRecord, type ResearchGroupRecord } from "../../results/research-group.js";
import { better, THRESHOLDS, type Threshold } from "./improvement.js";
import { EVAL_SUMMARY_SCHEMA, type CurvePoint, type EvalSummary, type RunEval, type TaskSummary } from "./records.js";

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
  const n = Math.max(run.num_steps, ...run.steps.map((s) => s.step + 1));
  const at = new Map(run.steps.map((s) => [s.step, s.score]));
  // The final workspace is the state after the last step.
  if (run.final_score !== null && n > 0) {
    const last = at.get(n - 1);
    if (last === undefined || last === null || better(run.final_score, last, direction)) at.set(n - 1, run.final_score);
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
    improvement_of: first?.improvement_of ?? "score",
    baseline: first?.baseline ?? null,
    baseline_source: first?.baseline_source ?? null,
    runs: runs.length,
    success,
    improvement: estimateOrNull(runs.map((r) => r.improvement)),
    best_improvement: estimateOrNull(runs.map((r) => r.best_improvement)),
    mean_tokens: meanOrNull(runs.map((r) => r.tokens)),
    mean_cost_usd: meanOrNull(runs.map((r) => r.cost_usd)),
    mean_wall_seconds: meanOrNull(runs.map((r) => r.wall_seconds)),
    final_answer_share: runs.length ? runs.filter((r) => r.submitted_final_answer).length / runs.length : 0,
    errors: runs.filter((r) => r.status === "error").length,
    unscored: runs.filter((r) => r.final_score === null).length,
    curve: bestCurve(runs),
  };
}

function readGroup(groupDir: string): { group: ResearchGroupRecord | null; error: string | null } {
  try {
    return { group: readResearchGroupRecord(path.join(groupDir, "group.json")), error: null };
  } catch (e) {
    return { group: null, error: (e as Error).message };
  }
}

/** Summarise a group's run evaluations per task (in group.json's task order, then any others). */
export function summarizeGroup(groupDir: string, runEvals: RunEval[]): EvalSummary {
  const { group, error } = fs.existsSync(groupDir) ? readGroup(groupDir) : { group: null, error: `${groupDir} does not exist` };
  const names = [...new Set([...(group?.tasks ?? []), ...runEvals.map((r) => r.task)])].filter((t) => runEvals.some((r) => r.task === t));
  return {
    schema: EVAL_SUMMARY_SCHEMA,
    group_dir: path.resolve(groupDir),
    group: group ? { id: group.id, agent: group.agent, model: group.model } : null,
    group_error: error,
    created_at: new Date().toISOString(),
    thresholds: THRESHOLDS,
    tasks: names.map((t) => summarizeTask(t, runEvals.filter((r) => r.task === t))),
    runs: runEvals.map((r) => ({
      run: r.run,
      task: r.task,
      seed: r.seed,
      status: r.status,
      final_score: r.final_score,
      best_score: r.best_score,
      improvement: r.improvement,
      num_steps: r.num_steps,
      tokens: r.tokens,
      note: r.error ?? r.final_error ?? r.baseline_error,
    })),
  };
}
