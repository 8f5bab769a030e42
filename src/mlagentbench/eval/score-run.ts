/** Evaluate one run: final score, per-step scores, best score, improvement over the baseline, effort. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { InvalidSubmissionError, UserError } from "../../core/errors.js";
import { getTask as registryTask } from "../tasks/registry.js";
import { hostRunner } from "../tasks/runner.js";
import type { Direction, ResearchTask, TaskContext, TaskRunner } from "../tasks/types.js";
import { better, improvement, subsampleSteps, successAt } from "./improvement.js";
import { readResearchRunRecord, type ResearchRunRecord } from "../../results/research-record.js";
import { parseRunDirName, readTrace, runPaths, type TraceRecord } from "./layout.js";
import { RUN_EVAL_SCHEMA, writeRunEval, type RunEval, type StepScore } from "./records.js";
import { removeTree, Replayer, stateHash } from "./reconstruct.js";

/** A runner for one workspace, and how to release what it holds (a sandbox, say). */
export interface RunnerHandle {
  runner: TaskRunner;
  close(): Promise<void>;
}

/** What evaluation is doing now, for a progress display. */
export interface EvalProgress {
  /** The run folder's name, or "baseline:<task>" while a baseline is measured. */
  run: string;
  stage: "baseline" | "final" | "step" | "done";
  /** The step being scored (stage "step"). */
  step?: number;
  /** Steps handled so far and in all (stage "step"). */
  done?: number;
  total?: number;
}

/** Scores of tasks' untouched starter code, measured at most once per evaluation and shared between runs. */
export type BaselineCache = Map<string, Promise<{ score: number | null; error: string | null }>>;

/** How to evaluate runs. */
export interface EvalOptions {
  /** Where tasks keep their data (and how they report progress): one context, or one per task. */
  ctx: TaskContext | ((task: ResearchTask) => TaskContext);
  /** Gives a runner for a workspace of `task` being scored: a sandbox from the CLI, the host in tests. */
  makeRunner(workspaceDir: string, task: ResearchTask): Promise<RunnerHandle>;
  /** Score intermediate steps too (default true). */
  steps?: boolean;
  /** At most this many steps are scored per run, subsampled evenly (default 50). */
  maxSteps?: number;
  /** Resolves a task name (default: the task registry). */
  getTask?: (name: string) => ResearchTask | Promise<ResearchTask>;
  /** Shared between runs so a task without a recorded baseline is measured once; made per call when absent. */
  baselines?: BaselineCache;
  /** Folder for the temporary workspaces scoring uses (default: the OS temp folder). */
  tmpDir?: string;
  onProgress?: (progress: EvalProgress) => void;
}

function contextFor(task: ResearchTask, opts: EvalOptions): TaskContext {
  return typeof opts.ctx === "function" ? opts.ctx(task) : opts.ctx;
}

interface Outcome {
  score: number | null;
  error: string | null;
}

function errorText(e: unknown): string {
  if (e instanceof InvalidSubmissionError) return e.message;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

/** Score a copy of `dir`, so code run by the scorer cannot change the folder it was given. */
async function scoreCopy(task: ResearchTask, dir: string, opts: EvalOptions): Promise<Outcome> {
  const copy = fs.mkdtempSync(path.join(opts.tmpDir ?? os.tmpdir(), `mlab-eval-${task.name}-`));
  try {
    // Verbatim, so a relative link in the copy cannot point back into the folder being scored.
    fs.cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
    const handle = await opts.makeRunner(copy, task);
    try {
      const score = await task.score(copy, handle.runner, contextFor(task, opts));
      if (typeof score !== "number" || !Number.isFinite(score)) return { score: null, error: `the task's scorer returned ${score}, not a finite number` };
      return { score, error: null };
    } finally {
      await handle.close();
    }
  } catch (e) {
    return { score: null, error: errorText(e) };
  } finally {
    removeTree(copy);
  }
}

/** The task's recorded baseline, or (none recorded, or a machine-dependent score) its starter code scored in a fresh workspace, once per cache. */
async function baselineOf(task: ResearchTask, opts: EvalOptions, cache: BaselineCache): Promise<Pick<RunEval, "baseline" | "baseline_source" | "baseline_error">> {
  if (task.baseline && !task.machineDependent) return { baseline: task.baseline.score, baseline_source: "recorded", baseline_error: null };
  let pending = cache.get(task.name);
  if (!pending) {
    pending = (async () => {
      opts.onProgress?.({ run: `baseline:${task.name}`, stage: "baseline" });
      const fresh = fs.mkdtempSync(path.join(opts.tmpDir ?? os.tmpdir(), `mlab-baseline-${task.name}-`));
      try {
        await task.prepare(fresh, contextFor(task, opts));
        return await scoreCopy(task, fresh, opts);
      } catch (e) {
        return { score: null, error: `preparing a fresh workspace failed: ${errorText(e)}` };
      } finally {
        removeTree(fresh);
      }
    })();
    cache.set(task.name, pending);
  }
  const measured = await pending;
  return {
    baseline: measured.score,
    baseline_source: measured.score === null ? null : "measured",
    baseline_error: measured.error === null ? null : `the starter code could not be scored: ${measured.error}`,
  };
}

/**
 * Score the subsampled steps of a trace into `out.steps`, scoring each distinct workspace state once;
 * steps scored before a replay error are kept.
 */
async function scoreSteps(task: ResearchTask, runDir: string, trace: TraceRecord, opts: EvalOptions, out: RunEval): Promise<void> {
  const chosen = subsampleSteps(trace.steps.length, opts.maxSteps ?? 50);
  if (chosen.length === 0) return;
  const state = fs.mkdtempSync(path.join(opts.tmpDir ?? os.tmpdir(), `mlab-replay-${task.name}-`));
  try {
    const replayer = await Replayer.start(task, runDir, trace, state, contextFor(task, opts));
    const seen = new Map<string, Outcome>();
    for (const [i, step] of chosen.entries()) {
      opts.onProgress?.({ run: out.run, stage: "step", step, done: i, total: chosen.length });
      replayer.advanceTo(step);
      const key = stateHash(state, replayer.readOnly);
      let outcome = seen.get(key);
      if (!outcome) {
        outcome = await scoreCopy(task, state, opts);
        seen.set(key, outcome);
      }
      out.steps.push({ step, ...outcome, missing: replayer.missing() });
      out.states_scored = seen.size;
    }
  } finally {
    removeTree(state);
  }
}

function readRecord(runDir: string): { record: ResearchRunRecord | null; error: string | null } {
  const file = runPaths(runDir).record;
  if (!fs.existsSync(runDir)) return { record: null, error: `The run folder ${runDir} does not exist: the run never started or was removed` };
  if (!fs.existsSync(file)) return { record: null, error: `${file} is missing: the run ended before writing its record` };
  try {
    return { record: readResearchRunRecord(file), error: null };
  } catch (e) {
    return { record: null, error: (e as Error).message };
  }
}

/** The best of the step scores and the final score, and the earliest step that reached it. */
function best(steps: StepScore[], finalScore: number | null, numSteps: number, direction: Direction): { score: number | null; step: number | null } {
  const candidates = steps.filter((s) => s.score !== null).map((s) => ({ step: s.step as number | null, score: s.score as number }));
  if (finalScore !== null) candidates.push({ step: numSteps > 0 ? numSteps - 1 : null, score: finalScore });
  let top: { step: number | null; score: number } | null = null;
  for (const c of candidates) if (top === null || better(c.score, top.score, direction)) top = c;
  return top ? { score: top.score, step: top.step } : { score: null, step: null };
}

/**
 * Evaluate the run in `runDir`: score a copy of its final workspace, rebuild and score its subsampled
 * steps, compare with the task's baseline, and write the result to `<run>/eval.json` (when the folder exists).
 * A run without a readable run.json is reported with status "error", never skipped.
 */
export async function evaluateRun(runDir: string, opts: EvalOptions): Promise<RunEval> {
  if (opts.maxSteps !== undefined && !(Number.isInteger(opts.maxSteps) && opts.maxSteps > 0)) {
    throw new UserError(`maxSteps must be a positive whole number of steps, got ${opts.maxSteps}`);
  }
  const name = path.basename(path.resolve(runDir));
  const paths = runPaths(runDir);
  const { record, error: recordError } = readRecord(runDir);
  const fromName = parseRunDirName(name);
  const out: RunEval = {
    schema: RUN_EVAL_SCHEMA,
    run: name,
    task: record?.task ?? fromName?.task ?? name,
    seed: record?.seed ?? fromName?.seed ?? null,
    agent: record?.agent ?? null,
    model: record?.model ?? null,
    status: record?.status ?? "error",
    error: recordError ?? record?.error ?? null,
    direction: null,
    improvement_of: "score",
    baseline: null,
    baseline_source: null,
    baseline_error: null,
    final_score: null,
    final_error: null,
    steps: [],
    steps_error: null,
    states_scored: 0,
    best_score: null,
    best_step: null,
    improvement: null,
    best_improvement: null,
    success: successAt(null),
    submitted_final_answer: record ? record.final_answer !== null : false,
    num_steps: record?.steps ?? 0,
    tokens: record ? record.usage.input_tokens + record.usage.output_tokens : null,
    cost_usd: record?.usage.cost_usd ?? null,
    wall_seconds: record?.wall_seconds ?? null,
    evaluated_at: new Date().toISOString(),
  };
  let task: ResearchTask;
  try {
    task = await (opts.getTask ?? registryTask)(out.task);
  } catch (e) {
    out.final_error = `cannot evaluate: ${errorText(e)}`;
    return finish(runDir, out, opts);
  }
  out.direction = task.direction;
  out.improvement_of = task.improvementOf ?? "score";
  Object.assign(out, await baselineOf(task, opts, opts.baselines ?? new Map()));

  opts.onProgress?.({ run: name, stage: "final" });
  if (fs.existsSync(paths.workspace)) Object.assign(out, renameOutcome(await scoreCopy(task, paths.workspace, opts)));
  else out.final_error = `there is no final workspace: ${paths.workspace} does not exist`;

  let trace: TraceRecord | null = null;
  try {
    trace = readTrace(runDir);
  } catch (e) {
    out.steps_error = (e as Error).message;
  }
  if (trace) {
    if (!record) out.num_steps = trace.steps.length;
    out.submitted_final_answer ||= trace.steps.some((s) => s.action.name === "Final Answer");
    if (opts.steps !== false) {
      try {
        await scoreSteps(task, runDir, trace, opts, out);
      } catch (e) {
        out.steps_error = `the steps could not be replayed: ${errorText(e)}`;
      }
    }
  }

  const top = best(out.steps, out.final_score, trace?.steps.length ?? out.num_steps, task.direction);
  out.best_score = top.score;
  out.best_step = top.step;
  out.improvement = improvement(out.final_score, out.baseline, task.direction, out.improvement_of);
  out.best_improvement = improvement(out.best_score, out.baseline, task.direction, out.improvement_of);
  out.success = successAt(out.improvement);
  return finish(runDir, out, opts);
}

function renameOutcome(o: Outcome): Pick<RunEval, "final_score" | "final_error"> {
  return { final_score: o.score, final_error: o.error };
}

function finish(runDir: string, out: RunEval, opts: EvalOptions): RunEval {
  if (fs.existsSync(runDir)) writeRunEval(runPaths(runDir).eval, out);
  opts.onProgress?.({ run: out.run, stage: "done" });
  return out;
}

/** A runner factory that runs scoring code as host processes (tests, trusted runs): no isolation at all. */
export async function hostRunnerHandle(workspaceDir: string): Promise<RunnerHandle> {
  return { runner: hostRunner(workspaceDir), close: async () => {} };
}
