import path from "node:path";
import { z } from "zod";
import type { AgentRequest } from "../agents/registry.js";
import { LimitsSchema } from "../sandbox/types.js";

/** The one BullMQ queue every run group shares; workers serve all groups. */
export const QUEUE_NAME = "mlebench-runs";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const LlmRequestSchema = z
  .object({
    model: z.string().optional(),
    llmRecord: z.string().optional(),
    llmReplay: z.string().optional(),
    llmLog: z.string().optional(),
    llmPrices: z.string().optional(),
    maxCostUsd: z.number().optional(),
    maxCalls: z.number().int().optional(),
    maxTokens: z.number().int().optional(),
  })
  .strict();

/** The agent as the producer asked for it; secret references stay unresolved (workers fill them from their own environment). */
export const JobAgentSchema = z
  .object({
    id: z.string().min(1),
    cmd: z.string().optional(),
    env: z.array(z.string()).optional(),
    allowHosts: z.array(z.string()).optional(),
    configFile: z.string().optional(),
    image: z.string().optional(),
    aide: LlmRequestSchema.extend({
      steps: z.number().int().optional(),
      numDrafts: z.number().int().optional(),
      debugProb: z.number().optional(),
      maxDebugDepth: z.number().int().optional(),
      execTimeoutMs: z.number().optional(),
    }).optional(),
    mlab: LlmRequestSchema.extend({
      steps: z.number().int().optional(),
      retrieval: z.boolean().optional(),
      execTimeoutMs: z.number().optional(),
    }).optional(),
  })
  .strict();

/** One job: a (competition, seed) run of a run group, with everything a worker needs except secrets. */
export const RunJobSchema = z
  .object({
    version: z.literal(1),
    group: z.string().regex(NAME, "a run-group name (letters, digits, . _ -)"),
    run_id: z.string().regex(NAME, "a run id (letters, digits, . _ -)"),
    competition_id: z.string().min(1),
    seed: z.number().int().nonnegative(),
    agent: JobAgentSchema,
    limits: LimitsSchema,
    sandbox: z.string().min(1),
    gpus: z.array(z.number().int().nonnegative()),
    snapshot_every_ms: z.number().int().positive().nullable(),
    grade: z.boolean(),
    poll_ms: z.number().int().positive().optional(),
    /** With no disk cap in `limits`: each worker gives the run its share of the worker's free space. */
    disk_auto: z.boolean().optional(),
    /** Give the agent the obfuscated description and instructions. */
    obfuscate: z.boolean().optional(),
  })
  .strict();
export type RunJob = z.infer<typeof RunJobSchema>;

/** What a worker returns for a job (kept in Redis as the job's return value). */
export const JobResultSchema = z.object({
  status: z.string(),
  exit_reason: z.string().nullable(),
  worker: z.string(),
  /** True when another attempt had already published this run, so this one wrote nothing. */
  duplicate: z.boolean(),
});
export type JobResult = z.infer<typeof JobResultSchema>;

/**
 * The job id of a run: the same run always maps to the same id, so enqueueing it twice makes one job.
 * BullMQ forbids ":" in ids, hence "/" between group and run.
 */
export function jobId(group: string, runId: string): string {
  return `${group}/${runId}`;
}

/**
 * The agent request as it may travel through Redis: no secrets file (each worker uses its own), and the
 * agent config file as an absolute path (it must be readable at the same path on every worker).
 */
export function jobAgent(req: AgentRequest): RunJob["agent"] {
  const { secretsFile: _own, configFile, ...rest } = req;
  const agent: RunJob["agent"] = { ...rest };
  if (configFile !== undefined) agent.configFile = path.resolve(configFile);
  return JobAgentSchema.parse(JSON.parse(JSON.stringify(agent)));
}

/** Check a job's data on the worker side; the error names the first bad field. */
export function parseRunJob(data: unknown, id: string): RunJob {
  const r = RunJobSchema.safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`job ${id}: field ${issue.path.join(".") || "(top level)"}: ${issue.message}`);
  }
  return r.data;
}
