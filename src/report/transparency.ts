/**
 * What each agent was given and used, summed from its runs' manifests: the facts a reader needs to
 * judge whether two agents' numbers are comparable (hardware, time, models and their cost, network,
 * validation calls), and the runs whose validation calls look like probing.
 */
import { detectProbing } from "../integrity/probing.js";
import type { RunManifest } from "../results/manifest.js";
import type { ReportedRun } from "./inputs.js";

/** One distinct machine share among an agent's runs, with how many runs had it. */
export interface HardwareConfig {
  cpu_model: string | null;
  cpus_given: number;
  memory_limit_bytes: number | null;
  gpus: { model: string | null; memory_bytes: number | null }[];
  runs: number;
}

/** One model's use over an agent's runs. */
export interface ModelTotals {
  model: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  /** Summed over calls with a known price; null when none was known. */
  cost_usd: number | null;
  unpriced_calls: number;
}

/** A run flagged as probing, with the counts behind the flag. */
export interface ProbingRun {
  run_id: string;
  competition_id: string;
  seed: number;
  near_identical_calls: number;
  identical_repeats: number;
  calls: number;
  reason: string;
}

/** The transparency columns of one agent; totals are over the runs with a manifest, null when none has one. */
export interface Transparency {
  /** Runs reported (padded seeds left out). */
  runs: number;
  /** Of those, runs with a manifest.json. */
  recorded_runs: number;
  hardware: HardwareConfig[];
  /** Distinct time limits, ascending (null: no limit). */
  time_limit_seconds: (number | null)[];
  wall_seconds_total: number | null;
  wall_seconds_mean: number | null;
  models: ModelTotals[];
  llm_calls: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  /** Summed over calls with a known price; null when no cost is known. */
  cost_usd: number | null;
  unpriced_calls: number | null;
  network: { modes: ("none" | "proxy")[]; allowed_hosts: string[]; blocked_attempts: number } | null;
  validation_calls_mean: number | null;
  validation_calls_max: number | null;
  /** Advisory: never changes a medal. */
  probing: { checked: number; flagged: number; run_ids: string[]; runs: ProbingRun[] };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** A sum of possibly unknown parts: null when every part is unknown. */
function knownSum(xs: (number | null)[]): number | null {
  const known = xs.filter((x): x is number => x !== null);
  return known.length === 0 ? null : sum(known);
}

/** Distinct hardware among manifests, in first-seen order, with run counts. */
export function hardwareConfigs(manifests: RunManifest[]): HardwareConfig[] {
  const by = new Map<string, HardwareConfig>();
  for (const m of manifests) {
    const h = m.hardware;
    const config = { cpu_model: h.cpu_model, cpus_given: h.cpus_given, memory_limit_bytes: h.memory_limit_bytes, gpus: h.gpus.map((g) => ({ model: g.model, memory_bytes: g.memory_bytes })) };
    const key = JSON.stringify(config);
    const seen = by.get(key);
    if (seen) seen.runs++;
    else by.set(key, { ...config, runs: 1 });
  }
  return [...by.values()];
}

/** Each model's calls, tokens and cost over manifests, by model name. */
export function modelTotals(manifests: RunManifest[]): ModelTotals[] {
  const by = new Map<string, ModelTotals>();
  for (const u of manifests.flatMap((m) => m.models)) {
    const t = by.get(u.model) ?? { model: u.model, calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: null, unpriced_calls: 0 };
    t.calls += u.calls;
    t.input_tokens += u.input_tokens;
    t.output_tokens += u.output_tokens;
    if (u.cost_usd !== null) t.cost_usd = (t.cost_usd ?? 0) + u.cost_usd;
    t.unpriced_calls += u.unpriced_calls;
    by.set(u.model, t);
  }
  return [...by.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
}

/** The probing flag of every run with a manifest; flagged runs listed with their counts. */
export function probingOf(manifests: RunManifest[]): Transparency["probing"] {
  const runs: ProbingRun[] = [];
  for (const m of manifests) {
    const p = detectProbing(m.validation.log);
    if (p.flagged) {
      runs.push({ run_id: m.run_id, competition_id: m.competition_id, seed: m.seed, near_identical_calls: p.near_identical_calls, identical_repeats: p.identical_repeats, calls: p.calls, reason: p.reason });
    }
  }
  return { checked: manifests.length, flagged: runs.length, run_ids: runs.map((r) => r.run_id), runs };
}

/** The transparency columns of an agent's reported runs (runs without a manifest count as not recorded). */
export function transparencyOf(runs: ReportedRun[]): Transparency {
  const manifests = runs.map((r) => r.manifest).filter((m): m is RunManifest => m !== null);
  const recorded = manifests.length > 0;
  const walls = manifests.map((m) => m.usage.wall_seconds).filter((x): x is number => x !== null);
  const models = modelTotals(manifests);
  const calls = manifests.map((m) => m.validation.calls);
  const limits = [...new Set(manifests.map((m) => m.usage.time_limit_seconds))].sort((a, b) => (a ?? Infinity) - (b ?? Infinity));
  return {
    runs: runs.length,
    recorded_runs: manifests.length,
    hardware: hardwareConfigs(manifests),
    time_limit_seconds: limits,
    wall_seconds_total: walls.length > 0 ? sum(walls) : null,
    wall_seconds_mean: walls.length > 0 ? sum(walls) / walls.length : null,
    models,
    llm_calls: recorded ? sum(models.map((m) => m.calls)) : null,
    input_tokens: recorded ? sum(models.map((m) => m.input_tokens)) : null,
    output_tokens: recorded ? sum(models.map((m) => m.output_tokens)) : null,
    cost_usd: knownSum(models.map((m) => m.cost_usd)),
    unpriced_calls: recorded ? sum(models.map((m) => m.unpriced_calls)) : null,
    network: recorded
      ? {
          modes: [...new Set(manifests.map((m) => m.network.mode))].sort(),
          allowed_hosts: [...new Set(manifests.flatMap((m) => m.network.allowed_hosts))].sort(),
          blocked_attempts: sum(manifests.map((m) => m.network.blocked_attempts)),
        }
      : null,
    validation_calls_mean: recorded ? sum(calls) / calls.length : null,
    validation_calls_max: recorded ? Math.max(...calls) : null,
    probing: probingOf(manifests),
  };
}
