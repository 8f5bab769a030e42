import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.js";
import { writeFileAtomic } from "../core/atomic.js";
import { ExitReasonSchema, LimitsSchema, ResourcePeaksSchema } from "../sandbox/types.js";

/** The format of run.json this harness writes (absent in files written before versions were recorded). */
export const RUN_SCHEMA = "mlebench-run/1";

/** The format of metadata.json this harness writes (upstream's files, and older ones, have none). */
export const GROUP_SCHEMA = "mlebench-group/1";

/** run.json: the lifecycle and outcome of one run, written atomically at every state change. */
export const RunRecordSchema = z.object({
  schema: z.literal(RUN_SCHEMA).optional(),
  run_id: z.string(),
  competition_id: z.string(),
  agent_id: z.string(),
  seed: z.number().int(),
  /** pending → running → completed | failed (harness error) | interrupted (harness stopped). */
  status: z.enum(["pending", "running", "completed", "failed", "interrupted"]),
  exit_reason: ExitReasonSchema.nullable(),
  exit_code: z.number().nullable(),
  exit_signal: z.string().nullable(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  wall_seconds: z.number().nullable(),
  attempts: z.number().int(),
  sandbox: z.object({
    backend: z.string(),
    limits: LimitsSchema,
    gpus: z.array(z.number().int()),
    allow_hosts: z.array(z.string()),
    warnings: z.array(z.string()),
    /** The Docker image the run ran in (docker only). */
    image: z.string().optional(),
  }),
  /** Set when the agent was given the obfuscated description and instructions. */
  obfuscated: z.boolean().optional(),
  /** Names (never values) of env vars that carried secrets. */
  secret_env: z.array(z.string()),
  peaks: ResourcePeaksSchema.nullable(),
  output_dropped_bytes: z.number(),
  validation_requests: z.number(),
  snapshots: z.array(z.object({ file: z.string(), elapsed_seconds: z.number() })),
  /**
   * Paths in logs/ where the agent had left something at the name of a harness record (its own
   * agent.log, say); each was kept as `<name>.by-agent` and the harness's record put in its place.
   */
  records_displaced: z.array(z.string()).optional(),
  /** Why the submission was set aside before grading (e.g. a symbolic link), else null. */
  submission_rejected: z.string().nullable(),
  grading: z
    .object({
      score: z.number().nullable(),
      valid_submission: z.boolean(),
      any_medal: z.boolean(),
      report: z.string(),
    })
    .nullable(),
  error: z.string().nullable(),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

/** Write run.json atomically, so a killed harness leaves either the old or the new record. */
export function writeRunRecord(runDir: string, record: RunRecord): void {
  writeFileAtomic(path.join(runDir, "run.json"), JSON.stringify(record, null, 2) + "\n");
}

/** Read run.json, or null when it is missing or unreadable. */
export function readRunRecord(runDir: string): RunRecord | null {
  try {
    return RunRecordSchema.parse(JSON.parse(fs.readFileSync(path.join(runDir, "run.json"), "utf8")));
  } catch {
    return null;
  }
}

/** upstream-compatible metadata.json, plus the plan a resume needs. */
export const GroupMetadataSchema = z.object({
  schema: z.literal(GROUP_SCHEMA).optional(),
  run_group: z.string(),
  created_at: z.string(),
  /** run_id → outcome (upstream: {"success": bool}). */
  runs: z.record(z.string(), z.object({ success: z.boolean() }).passthrough()),
  agent_id: z.string(),
  tasks: z.array(z.object({ run_id: z.string(), competition_id: z.string(), seed: z.number().int() })),
  options: z.record(z.string(), z.unknown()),
});
export type GroupMetadata = z.infer<typeof GroupMetadataSchema>;

/** Parse the text of a group's metadata.json; a UserError names `where` and the first problem. */
export function parseGroupMetadata(text: string, where: string): GroupMetadata {
  try {
    return GroupMetadataSchema.parse(JSON.parse(text));
  } catch (e) {
    throw new UserError(`${where} is not a run group's metadata (${(e as Error).message.split("\n")[0]})`);
  }
}

/** The metadata.json of a group dir, or null when the dir has none. */
export function readGroupMetadata(groupDir: string): GroupMetadata | null {
  const file = path.join(groupDir, "metadata.json");
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
  return parseGroupMetadata(text, file);
}

/** Write metadata.json atomically. */
export function writeGroupMetadata(groupDir: string, meta: GroupMetadata): void {
  writeFileAtomic(path.join(groupDir, "metadata.json"), JSON.stringify(meta, null, 4) + "\n");
}
