import { MANIFEST_SCHEMA, type CostPoint, type ModelUse, type RunManifest, type ValidationCall } from "../../src/results/manifest.js";

/** What a fixture run's manifest varies in; the rest is fixed. */
export interface ManifestFacts {
  run_id: string;
  seed: number;
  wall_seconds: number;
  time_limit_seconds?: number;
  gpus?: number;
  gpu_seconds?: number | null;
  models?: ModelUse[];
  llm_cost_curve?: CostPoint[];
  allowed_hosts?: string[];
  blocked_attempts?: number;
  validation?: ValidationCall[];
}

/** One model's use with a cost (null: unpriced calls). */
export function modelUse(model: string, calls: number, input: number, output: number, cost: number | null): ModelUse {
  return { model, calls, failed_calls: 0, input_tokens: input, output_tokens: output, cached_input_tokens: 0, cost_usd: cost, unpriced_calls: cost === null ? calls : 0 };
}

/** A validation log: a first upload of 1000 lines, then `edits` distinct uploads each one line off the one before. */
export function probingLog(edits: number): ValidationCall[] {
  const at = (i: number, changed: number | null): ValidationCall => ({
    time: `2025-01-01T00:00:${String(i).padStart(2, "0")}.000Z`, elapsed_seconds: i, route: "/validate", status: 200, valid: true, bytes: 9000,
    sha256: `sha-${i}`, lines: 1000, changed_lines: changed,
  });
  return [at(0, null), ...Array.from({ length: edits }, (_, i) => at(i + 1, 1))];
}

/** A complete, schema-valid run manifest of a titanic run. */
export function fakeManifest(f: ManifestFacts): RunManifest {
  const gpus = Array.from({ length: f.gpus ?? 0 }, (_, index) => ({ index, model: "NVIDIA H200", memory_bytes: 141 * 2 ** 30 }));
  const hosts = f.allowed_hosts ?? [];
  const log = f.validation ?? [];
  return {
    schema: MANIFEST_SCHEMA,
    run_id: f.run_id,
    competition_id: "titanic",
    agent_id: "gamma",
    seed: f.seed,
    created_at: "2025-01-01T00:00:00.000Z",
    hardware: { cpu_model: "AMD EPYC 7763", host_cpus: 64, host_memory_bytes: 512 * 2 ** 30, cpus_given: 8, memory_limit_bytes: 64 * 2 ** 30, disk_limit_bytes: null, gpus },
    software: {
      harness: { name: "mlebench-ts", version: "0.1.0", commit: null, modified: null },
      node: "v20.0.0",
      os: { platform: "linux", release: "6.0", distribution: null },
      sandbox: { backend: "bwrap", image: null, image_id: null, python: null, python_packages: {} },
    },
    usage: {
      time_limit_seconds: f.time_limit_seconds ?? 3600, wall_seconds: f.wall_seconds, cpu_seconds: null, peak_memory_bytes: null, peak_disk_bytes: null,
      gpu_seconds: f.gpu_seconds === undefined ? f.wall_seconds * (f.gpus ?? 0) : f.gpu_seconds,
    },
    models: f.models ?? [],
    llm_cost_curve: f.llm_cost_curve ?? [],
    network: {
      mode: hosts.length > 0 ? "proxy" : "none", allowed_hosts: hosts,
      connections: [], blocked_attempts: f.blocked_attempts ?? 0, unreadable_lines: 0,
    },
    validation: { calls: log.length, valid: log.filter((c) => c.valid === true).length, invalid: log.filter((c) => c.valid === false).length, log, unreadable_lines: 0 },
    data: { source: "offline", packages: [], upstream: null, file_count: 0, tree_sha256: "0".repeat(64), files: {} },
  };
}
