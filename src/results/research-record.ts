/** run.json of a research run (an MLAgentBench task, any agent): its one schema, its atomic write, and its reading. */
import { z } from "zod";
import { legacyFormat, parseVersioned, readVersioned, writeVersioned, type VersionedFormat } from "./versioned.js";

/** The format of a research run's run.json this harness writes. */
export const RESEARCH_RUN_SCHEMA = "mlagentbench-run/1";

/** The camelCase format earlier releases wrote; still read, converted to the current shape. */
export const LEGACY_RESEARCH_RUN_SCHEMA = "mlab-run/1";

/** How a research run ended. */
export const ResearchRunStatusSchema = z.enum(["finished", "step_limit", "time_limit", "error", "interrupted"]);
export type ResearchRunStatus = z.infer<typeof ResearchRunStatusSchema>;

/**
 * `<run>/run.json` of a research run. The reader stays as lenient as the one before it: model, stop
 * and ended_at may be absent (read as null), ended_at, wall_seconds and cost_usd null, so records
 * of interrupted runs or other writers still evaluate.
 */
export const ResearchRunRecordSchema = z.object({
  schema: z.literal(RESEARCH_RUN_SCHEMA),
  task: z.string(),
  seed: z.number().int(),
  /** "mlab" (the research agent) or "baseline" (train.py once), or another agent's name. */
  agent: z.string(),
  model: z.string().nullable().default(null),
  status: ResearchRunStatusSchema,
  /** Why the agent stopped, as it says (final_answer, env_final, max_steps, no_valid_response, llm_error). */
  stop: z.string().nullable().default(null),
  final_answer: z.string().nullable(),
  started_at: z.string(),
  ended_at: z.string().nullable().default(null),
  wall_seconds: z.number().nullable(),
  /** Environment steps taken (actions recorded in the trace). */
  steps: z.number().int().nonnegative(),
  usage: z.object({
    calls: z.number(),
    input_tokens: z.number(),
    output_tokens: z.number(),
    cost_usd: z.number().nullable(),
  }),
  error: z.string().nullable(),
});
export type ResearchRunRecord = z.output<typeof ResearchRunRecordSchema>;

/** The `"mlab-run/1"` record of earlier releases, with the leniency their reader had. */
const LegacyResearchRunRecordSchema = z.object({
  schema: z.literal(LEGACY_RESEARCH_RUN_SCHEMA),
  task: z.string(),
  seed: z.number().int(),
  agent: z.string(),
  model: z.string().nullable().optional(),
  status: ResearchRunStatusSchema,
  stop: z.string().nullable().optional(),
  finalAnswer: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable().optional(),
  wallSeconds: z.number().nullable(),
  steps: z.number().int().nonnegative(),
  usage: z.object({
    calls: z.number(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    costUsd: z.number().nullable(),
  }),
  error: z.string().nullable(),
});
type LegacyResearchRunRecord = z.output<typeof LegacyResearchRunRecordSchema>;

function fromLegacy(r: LegacyResearchRunRecord): ResearchRunRecord {
  return {
    schema: RESEARCH_RUN_SCHEMA,
    task: r.task,
    seed: r.seed,
    agent: r.agent,
    model: r.model ?? null,
    status: r.status,
    stop: r.stop ?? null,
    final_answer: r.finalAnswer,
    started_at: r.startedAt,
    ended_at: r.endedAt ?? null,
    wall_seconds: r.wallSeconds,
    steps: r.steps,
    usage: { calls: r.usage.calls, input_tokens: r.usage.inputTokens, output_tokens: r.usage.outputTokens, cost_usd: r.usage.costUsd },
    error: r.error,
  };
}

const FORMAT: VersionedFormat<ResearchRunRecord> = {
  what: "research run record",
  schema: RESEARCH_RUN_SCHEMA,
  parser: ResearchRunRecordSchema,
  legacy: legacyFormat(LEGACY_RESEARCH_RUN_SCHEMA, LegacyResearchRunRecordSchema, fromLegacy),
};

/**
 * Check parsed run.json `json` (read from `file`) as a research run record, current or legacy
 * (`"mlab-run/1"`, converted); the error names the file and the offending fields.
 */
export function parseResearchRunRecord(json: unknown, file: string): ResearchRunRecord {
  return parseVersioned(FORMAT, json, file);
}

/** Read and check a research run's run.json at `file`; the error names the file. */
export function readResearchRunRecord(file: string): ResearchRunRecord {
  return readVersioned(FORMAT, file);
}

/** Write a research run's run.json atomically, `schema` first, so a killed harness leaves the old or the new record. */
export function writeResearchRunRecord(file: string, record: ResearchRunRecord): void {
  writeVersioned(file, record);
}
