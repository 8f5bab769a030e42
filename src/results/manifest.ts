/**
 * manifest.json: what a run was given and what it used, written by the harness beside run.json
 * once the agent's processes are gone, from the harness's own records only (never from anything
 * the agent wrote). It is what makes two results comparable: the hardware and software, the limits
 * and the use, every model and its cost, the network, the validation server's answers (never a
 * score) and the exact data.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { hashFile } from "../io/hash-file.js";
import type { GroupMetadata } from "./record.js";
import { writeVersioned, readVersioned, type VersionedFormat } from "./versioned.js";

/** The format of a run's manifest.json. */
export const MANIFEST_SCHEMA = "mlebench-manifest/1";

/** The format of a group's manifest.json. */
export const GROUP_MANIFEST_SCHEMA = "mlebench-group-manifest/1";

/** One GPU given to a run. */
export const GpuInfoSchema = z.object({
  index: z.number().int(),
  model: z.string().nullable(),
  memory_bytes: z.number().nullable(),
});

/** The machine, and the share of it given to the run. */
export const HardwareSchema = z.object({
  cpu_model: z.string().nullable(),
  host_cpus: z.number().int(),
  host_memory_bytes: z.number(),
  /** CPUs the run could use: its limit, else the host's count. */
  cpus_given: z.number(),
  memory_limit_bytes: z.number().nullable(),
  disk_limit_bytes: z.number().nullable(),
  gpus: z.array(GpuInfoSchema),
});
export type Hardware = z.infer<typeof HardwareSchema>;

/** The harness and what the agent's commands ran on. */
export const SoftwareSchema = z.object({
  harness: z.object({ name: z.string(), version: z.string(), commit: z.string().nullable(), modified: z.boolean().nullable() }),
  node: z.string(),
  os: z.object({ platform: z.string(), release: z.string(), distribution: z.string().nullable() }),
  sandbox: z.object({
    backend: z.string(),
    /** The image name (docker). */
    image: z.string().nullable(),
    /** The image's content-addressed id (docker), e.g. sha256:…. */
    image_id: z.string().nullable(),
    /** Versions of the Python packages the agent's commands see (bwrap and local: the host's /usr/bin/python3). */
    python: z.string().nullable(),
    python_packages: z.record(z.string(), z.string()),
  }),
});
export type Software = z.infer<typeof SoftwareSchema>;

/** Limits and what the run used of them. */
export const UsageSchema = z.object({
  time_limit_seconds: z.number().nullable(),
  wall_seconds: z.number().nullable(),
  cpu_seconds: z.number().nullable(),
  peak_memory_bytes: z.number().nullable(),
  peak_disk_bytes: z.number().nullable(),
  /** Wall time × GPUs given; the hours a GPU was held by this run. */
  gpu_seconds: z.number().nullable(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** One model's calls in a run, from the LLM layer's call log. */
export const ModelUseSchema = z.object({
  model: z.string(),
  calls: z.number().int(),
  failed_calls: z.number().int(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cached_input_tokens: z.number(),
  /** Summed over calls with a known price; null when no call's price was known. */
  cost_usd: z.number().nullable(),
  /** Calls whose price was unknown (not in the price table). */
  unpriced_calls: z.number().int(),
});
export type ModelUse = z.infer<typeof ModelUseSchema>;

/** The run's LLM spending over time: its cumulative cost after each priced call (thinned to at most MAX_COST_POINTS). */
export const CostPointSchema = z.object({ elapsed_seconds: z.number(), cost_usd: z.number() });
export type CostPoint = z.infer<typeof CostPointSchema>;

/** Points kept of a run's cost curve; a thinned curve keeps its last point, so the total is exact. */
export const MAX_COST_POINTS = 1000;

/** What the egress proxy let through and refused. */
export const NetworkSchema = z.object({
  /** "none" (no network) or "proxy" (only the allowed hosts, through the harness's proxy). */
  mode: z.enum(["none", "proxy"]),
  allowed_hosts: z.array(z.string()),
  /** Connections per host and port, as the proxy decided them. */
  connections: z.array(z.object({ host: z.string(), port: z.number().int(), allowed: z.boolean(), count: z.number().int() })),
  blocked_attempts: z.number().int(),
  /** Log lines that could not be read (a cut last line, say). */
  unreadable_lines: z.number().int(),
});
export type Network = z.infer<typeof NetworkSchema>;

/** One answer of the validation server: never a score. */
export const ValidationCallSchema = z.object({
  time: z.string(),
  elapsed_seconds: z.number().nullable(),
  route: z.string(),
  status: z.number().int(),
  valid: z.boolean().nullable(),
  bytes: z.number(),
  /** sha256 of the uploaded file, where it was received whole. */
  sha256: z.string().nullable(),
  /** Lines in the upload, where it was received whole. */
  lines: z.number().int().nullable(),
  /**
   * Lines that differ, position by position, from the previous upload received whole (all lines
   * when the counts differ); null for the first upload, or when either had more lines than are compared.
   */
  changed_lines: z.number().int().nullable(),
});
export type ValidationCall = z.infer<typeof ValidationCallSchema>;

/** The validation server's log, summarised and listed. */
export const ValidationSchema = z.object({
  calls: z.number().int(),
  valid: z.number().int(),
  invalid: z.number().int(),
  /** The first calls, in order (at most MAX_VALIDATION_CALLS); `calls` counts them all. */
  log: z.array(ValidationCallSchema),
  unreadable_lines: z.number().int(),
});
export type Validation = z.infer<typeof ValidationSchema>;

/** The data a run was given, tied to exact files. */
export const DataSchema = z.object({
  /** "offline": cut from installed packages; "kaggle": upstream's preparer over Kaggle's files. */
  source: z.enum(["offline", "kaggle"]),
  /** Offline: the packages the data comes from, with their installed versions. */
  packages: z.array(z.object({ kind: z.string(), name: z.string(), version: z.string().nullable() })),
  /** Kaggle: the upstream repository and commit whose preparer cut the split. */
  upstream: z.object({ repository: z.string(), commit: z.string() }).nullable(),
  file_count: z.number().int(),
  /** sha256 over the sorted lines "<path>\0<sha256>\n" of every file: the data in one value. */
  tree_sha256: z.string(),
  /**
   * sha256 of every prepared file, by path under `<data>/<id>/` ("prepared/public/train.csv",
   * "leaderboard.csv"); listed when there are at most MAX_LISTED_DATA_FILES, else empty.
   */
  files: z.record(z.string(), z.string()),
});
export type Data = z.infer<typeof DataSchema>;

/** Data files listed one by one in a manifest; a larger dataset is given by its tree hash alone. */
export const MAX_LISTED_DATA_FILES = 2000;

/** The tree hash of a data dir from each file's sha256 (paths sorted by code unit). */
export function treeSha256(files: Record<string, string>): string {
  const h = createHash("sha256");
  for (const p of Object.keys(files).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) h.update(`${p}\0${files[p]}\n`);
  return h.digest("hex");
}

/** A run's manifest.json. */
export const RunManifestSchema = z.object({
  schema: z.literal(MANIFEST_SCHEMA),
  run_id: z.string(),
  competition_id: z.string(),
  agent_id: z.string(),
  seed: z.number().int(),
  created_at: z.string(),
  hardware: HardwareSchema,
  software: SoftwareSchema,
  usage: UsageSchema,
  models: z.array(ModelUseSchema),
  /** Cumulative LLM cost over the run, for medal rates at an equal budget; empty when no call was priced. */
  llm_cost_curve: z.array(CostPointSchema),
  network: NetworkSchema,
  validation: ValidationSchema,
  data: DataSchema,
});
export type RunManifest = z.infer<typeof RunManifestSchema>;

/** A group's manifest.json: the machine and software once, each run's manifest by hash, and totals. */
export const GroupManifestSchema = z.object({
  schema: z.literal(GROUP_MANIFEST_SCHEMA),
  run_group: z.string(),
  agent_id: z.string(),
  updated_at: z.string(),
  software: SoftwareSchema.shape.harness,
  runs: z.array(
    z.object({
      run_id: z.string(),
      competition_id: z.string(),
      seed: z.number().int(),
      /** sha256 of the run's manifest.json; null while it has none (not run yet, or failed before one was written). */
      manifest_sha256: z.string().nullable(),
    }),
  ),
  totals: z.object({
    wall_seconds: z.number(),
    cpu_seconds: z.number().nullable(),
    gpu_seconds: z.number(),
    llm_calls: z.number().int(),
    input_tokens: z.number(),
    output_tokens: z.number(),
    cost_usd: z.number().nullable(),
    validation_calls: z.number().int(),
    blocked_network_attempts: z.number().int(),
  }),
});
export type GroupManifest = z.infer<typeof GroupManifestSchema>;

const RUN_FORMAT: VersionedFormat<RunManifest> = { what: "run manifest", schema: MANIFEST_SCHEMA, parser: RunManifestSchema };
const GROUP_FORMAT: VersionedFormat<GroupManifest> = { what: "group manifest", schema: GROUP_MANIFEST_SCHEMA, parser: GroupManifestSchema };

/** The manifest file of a run or group dir. */
export function manifestPath(dir: string): string {
  return path.join(dir, "manifest.json");
}

/** Write a run's manifest.json atomically. */
export function writeRunManifest(runDir: string, manifest: RunManifest): void {
  writeVersioned(manifestPath(runDir), manifest);
}

/** Read a run's manifest.json; the error names the file and the fields at fault. */
export function readRunManifest(runDir: string): RunManifest {
  return readVersioned(RUN_FORMAT, manifestPath(runDir));
}

/** A run's manifest, or null when it has none (older runs, or runs that failed before it was written). */
export function readRunManifestIfAny(runDir: string): RunManifest | null {
  return fs.existsSync(manifestPath(runDir)) ? readRunManifest(runDir) : null;
}

/** Write a group's manifest.json atomically. */
export function writeGroupManifest(groupDir: string, manifest: GroupManifest): void {
  writeVersioned(manifestPath(groupDir), manifest);
}

/** Read a group's manifest.json; the error names the file and the fields at fault. */
export function readGroupManifest(groupDir: string): GroupManifest {
  return readVersioned(GROUP_FORMAT, manifestPath(groupDir));
}

/** A group's manifest from its metadata and its runs' manifests (a run without one counts as nothing used). */
export function buildGroupManifest(groupDir: string, meta: GroupMetadata, harness: GroupManifest["software"]): GroupManifest {
  const totals: GroupManifest["totals"] = {
    wall_seconds: 0,
    cpu_seconds: null,
    gpu_seconds: 0,
    llm_calls: 0,
    input_tokens: 0,
    output_tokens: 0,
    cost_usd: null,
    validation_calls: 0,
    blocked_network_attempts: 0,
  };
  const runs = meta.tasks.map((t) => {
    const dir = path.join(groupDir, t.run_id);
    const m = readRunManifestIfAny(dir);
    if (m) {
      totals.wall_seconds += m.usage.wall_seconds ?? 0;
      if (m.usage.cpu_seconds !== null) totals.cpu_seconds = (totals.cpu_seconds ?? 0) + m.usage.cpu_seconds;
      totals.gpu_seconds += m.usage.gpu_seconds ?? 0;
      for (const u of m.models) {
        totals.llm_calls += u.calls;
        totals.input_tokens += u.input_tokens;
        totals.output_tokens += u.output_tokens;
        if (u.cost_usd !== null) totals.cost_usd = (totals.cost_usd ?? 0) + u.cost_usd;
      }
      totals.validation_calls += m.validation.calls;
      totals.blocked_network_attempts += m.network.blocked_attempts;
    }
    return { run_id: t.run_id, competition_id: t.competition_id, seed: t.seed, manifest_sha256: m ? hashFile(manifestPath(dir), "sha256") : null };
  });
  totals.wall_seconds = Math.round(totals.wall_seconds * 100) / 100;
  totals.gpu_seconds = Math.round(totals.gpu_seconds * 100) / 100;
  return {
    schema: GROUP_MANIFEST_SCHEMA,
    run_group: meta.run_group,
    agent_id: meta.agent_id,
    updated_at: new Date().toISOString(),
    software: harness,
    runs,
    totals,
  };
}
