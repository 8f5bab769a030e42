/** run.json of a research run (an MLAgentBench task, any agent): its one schema, its atomic write, and its reading. */
import fs from "node:fs";
import { z } from "zod";
import { writeFileAtomic } from "../core/atomic.js";

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

function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "(top level)"}: ${i.message}`).join("; ");
}

/**
 * Check parsed run.json `json` (read from `file`) as a research run record, current or legacy
 * (`"mlab-run/1"`, converted); the error names the file and the offending fields.
 */
export function parseResearchRunRecord(json: unknown, file: string): ResearchRunRecord {
  const schema = json !== null && typeof json === "object" && !Array.isArray(json) ? (json as { schema?: unknown }).schema : undefined;
  // Dispatch on the declared schema so the error lists the fields of the format the file claims, not of both.
  if (schema === LEGACY_RESEARCH_RUN_SCHEMA) {
    const legacy = LegacyResearchRunRecordSchema.safeParse(json);
    if (!legacy.success) throw new Error(`${file} is not a valid research run record (${LEGACY_RESEARCH_RUN_SCHEMA}): ${issuesText(legacy.error)}`);
    return fromLegacy(legacy.data);
  }
  if (schema === RESEARCH_RUN_SCHEMA) {
    const current = ResearchRunRecordSchema.safeParse(json);
    if (!current.success) throw new Error(`${file} is not a valid research run record (${RESEARCH_RUN_SCHEMA}): ${issuesText(current.error)}`);
    return current.data;
  }
  const found = schema === undefined ? "has no schema field" : `has schema ${JSON.stringify(schema)}`;
  throw new Error(
    `${file} is not a research run record: it ${found}, expected "${RESEARCH_RUN_SCHEMA}" (or "${LEGACY_RESEARCH_RUN_SCHEMA}" from earlier releases)`,
  );
}

/** Read and check a research run's run.json at `file`; the error names the file. */
export function readResearchRunRecord(file: string): ResearchRunRecord {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : (e as Error).message;
    throw new Error(`Cannot read research run record ${file}: ${reason}`);
  }
  return parseResearchRunRecord(json, file);
}

/** Write a research run's run.json atomically, `schema` first, so a killed harness leaves the old or the new record. */
export function writeResearchRunRecord(file: string, record: ResearchRunRecord): void {
  const { schema, ...rest } = record;
  writeFileAtomic(file, JSON.stringify({ schema, ...rest }, null, 2) + "\n");
}
