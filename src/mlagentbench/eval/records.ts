/**
 * What evaluation writes: `<run>/eval.json` (mlagentbench-eval/1) and `<group>/eval/summary.json` (mlagentbench-eval-summary/1), one zod schema each. They
 * live here rather than in results/ because they are made of evaluation's thresholds, task directions and
 * present/'s estimates.
 */
import { z } from "zod";
import type { Estimate } from "../../present/stats.js";
import { ResearchRunStatusSchema } from "../../results/research-record.js";
import { parseVersioned, readVersioned, writeVersioned, type VersionedFormat } from "../../results/versioned.js";
import type { Direction } from "../tasks/types.js";
import { THRESHOLDS, type Threshold } from "./improvement.js";

/** The format of `<run>/eval.json` this harness writes. */
export const RUN_EVAL_SCHEMA = "mlagentbench-eval/1";

/** The format of `<group>/eval/summary.json` (and of the JSON embedded in summary.html). */
export const EVAL_SUMMARY_SCHEMA = "mlagentbench-eval-summary/1";

const DIRECTIONS = ["higher", "lower"] as const satisfies readonly Direction[];
// Fails to compile when a task direction is added without being listed above.
const _everyDirection: [Exclude<Direction, (typeof DIRECTIONS)[number]>] extends [never] ? true : never = true;
void _everyDirection;
const DirectionSchema = z.enum(DIRECTIONS);

const BaselineSourceSchema = z.enum(["recorded", "measured"]);

// Records written before tasks could measure improvement on the error measured it on the score.
const ImprovementOfSchema = z.enum(["score", "error"]).default("score");

/** Success at each threshold of improvement.ts, keyed by the threshold in percent. */
const SuccessSchema = z.object(Object.fromEntries(THRESHOLDS.map((t) => [t, z.boolean()])) as Record<Threshold, z.ZodBoolean>);

/** The score of the workspace after one step. */
export const StepScoreSchema = z.object({
  step: z.number().int().nonnegative(),
  score: z.number().nullable(),
  /** Why the state could not be scored. */
  error: z.string().nullable(),
  /** Files that existed then but were too large to snapshot; the score was computed without them. */
  missing: z.array(z.string()),
});
export type StepScore = z.output<typeof StepScoreSchema>;

/** Everything evaluation says about one run: `<run>/eval.json`. */
export const RunEvalSchema = z.object({
  schema: z.literal(RUN_EVAL_SCHEMA),
  /** The run folder's name. */
  run: z.string(),
  task: z.string(),
  seed: z.number().int().nullable(),
  agent: z.string().nullable(),
  model: z.string().nullable(),
  /** How the run ended; "error" also when its run.json is missing or unreadable. */
  status: ResearchRunStatusSchema,
  /** The run's own error, or why its record could not be read. */
  error: z.string().nullable(),
  direction: DirectionSchema.nullable(),
  /** What `improvement` is measured on: the score, or the error 1 − score (see the task). */
  improvement_of: ImprovementOfSchema,
  baseline: z.number().nullable(),
  baseline_source: BaselineSourceSchema.nullable(),
  baseline_error: z.string().nullable(),
  final_score: z.number().nullable(),
  final_error: z.string().nullable(),
  steps: z.array(StepScoreSchema),
  /** Why intermediate steps could not be scored at all (no trace, task cannot be prepared). */
  steps_error: z.string().nullable(),
  /** Distinct workspace states scored for `steps` (identical states share one scoring). */
  states_scored: z.number().int().nonnegative(),
  best_score: z.number().nullable(),
  /** The earliest step at whose end the best score was reached (the final workspace counts as the last step). */
  best_step: z.number().int().nullable(),
  improvement: z.number().nullable(),
  best_improvement: z.number().nullable(),
  success: SuccessSchema,
  submitted_final_answer: z.boolean(),
  num_steps: z.number().int().nonnegative(),
  tokens: z.number().nullable(),
  cost_usd: z.number().nullable(),
  wall_seconds: z.number().nullable(),
  evaluated_at: z.string(),
});
export type RunEval = z.output<typeof RunEvalSchema>;

const RUN_EVAL_FORMAT: VersionedFormat<RunEval> = {
  what: "run evaluation",
  schema: RUN_EVAL_SCHEMA,
  parser: RunEvalSchema,
};

/**
 * Check parsed eval.json `json` (read from `file`) as a run evaluation; the error names the file and the
 * offending fields. Evaluation itself never reads one back (it rescores, so eval.json files of earlier
 * releases are simply rewritten); this is for tools and tests that read a group's results.
 */
export function parseRunEval(json: unknown, file: string): RunEval {
  return parseVersioned(RUN_EVAL_FORMAT, json, file);
}

/** Read and check an eval.json at `file`; the error names the file. */
export function readRunEval(file: string): RunEval {
  return readVersioned(RUN_EVAL_FORMAT, file);
}

/** Write a run's eval.json atomically, `schema` first. */
export function writeRunEval(file: string, record: RunEval): void {
  writeVersioned(file, record);
}

const EstimateSchema = z.object({
  mean: z.number(),
  sem: z.number(),
  ci_lower: z.number(),
  ci_upper: z.number(),
  per_seed: z.array(z.number()),
});
// present/'s Estimate and this schema describe the same object; either drifting from the other fails to compile.
const _sameEstimate: [z.output<typeof EstimateSchema>, Estimate] extends [Estimate, z.output<typeof EstimateSchema>] ? true : never = true;
void _sameEstimate;

/** One point of a task's best-so-far curve: the mean over runs of the best score reached by the end of `step`. */
export const CurvePointSchema = z.object({
  step: z.number().int().nonnegative(),
  mean: z.number(),
  sem: z.number(),
  /** Runs that had a score by then. */
  runs: z.number().int().nonnegative(),
});
export type CurvePoint = z.output<typeof CurvePointSchema>;

/** What a group's runs of one task achieved. */
export const TaskSummarySchema = z.object({
  task: z.string(),
  direction: DirectionSchema.nullable(),
  improvement_of: ImprovementOfSchema,
  baseline: z.number().nullable(),
  baseline_source: BaselineSourceSchema.nullable(),
  runs: z.number().int().nonnegative(),
  /** Share of runs (0 to 1) whose final improvement reaches each threshold, with its SEM over runs. */
  success: z.object(Object.fromEntries(THRESHOLDS.map((t) => [t, EstimateSchema])) as Record<Threshold, typeof EstimateSchema>),
  /** Final improvement over the baseline (a fraction), over the runs that have one; null when none has. */
  improvement: EstimateSchema.nullable(),
  /** Best improvement reached at any scored step, over the runs that have one. */
  best_improvement: EstimateSchema.nullable(),
  mean_tokens: z.number().nullable(),
  mean_cost_usd: z.number().nullable(),
  mean_wall_seconds: z.number().nullable(),
  /** Share of runs (0 to 1) that gave a final answer. */
  final_answer_share: z.number(),
  /** Runs that ended in an error (including those without a readable run.json). */
  errors: z.number().int().nonnegative(),
  /** Runs whose final workspace could not be scored. */
  unscored: z.number().int().nonnegative(),
  curve: z.array(CurvePointSchema),
});
export type TaskSummary = z.output<typeof TaskSummarySchema>;

/** One run, in brief. */
export const RunRowSchema = z.object({
  run: z.string(),
  task: z.string(),
  seed: z.number().int().nullable(),
  status: z.string(),
  final_score: z.number().nullable(),
  best_score: z.number().nullable(),
  improvement: z.number().nullable(),
  num_steps: z.number().int().nonnegative(),
  tokens: z.number().nullable(),
  /** The run's own error, else why its final state could not be scored. */
  note: z.string().nullable(),
});
export type RunRow = z.output<typeof RunRowSchema>;

/**
 * The evaluation of a whole run group: `<group>/eval/summary.json`, also embedded in summary.html and
 * printed by `tasks eval --json`. Nothing reads it back, so no earlier format is converted.
 */
export const EvalSummarySchema = z.object({
  schema: z.literal(EVAL_SUMMARY_SCHEMA),
  group_dir: z.string(),
  group: z.object({ id: z.string(), agent: z.string(), model: z.string().nullable() }).nullable(),
  /** Why group.json could not be read, if it could not. */
  group_error: z.string().nullable(),
  created_at: z.string(),
  thresholds: z.array(z.enum(THRESHOLDS)).readonly(),
  tasks: z.array(TaskSummarySchema),
  runs: z.array(RunRowSchema),
});
export type EvalSummary = z.output<typeof EvalSummarySchema>;

/** Write a group's summary.json atomically, `schema` first. */
export function writeEvalSummary(file: string, summary: EvalSummary): void {
  writeVersioned(file, summary);
}
