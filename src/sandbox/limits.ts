import { hms, pad2 } from "../core/duration.js";
import { UserError } from "../core/errors.js";
import type { Limits } from "./types.js";

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parse a duration such as "24h", "90m", "1h30m", "45s" or a bare number of seconds into ms. */
export function parseDuration(text: string, flag = "duration"): number {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g;
  let total = 0;
  let consumed = 0;
  for (const m of t.matchAll(re)) {
    if (m.index !== consumed) break;
    total += Number(m[1]) * DURATION_UNITS[m[2]];
    consumed += m[0].length;
  }
  if (consumed !== t.length || consumed === 0 || total <= 0) {
    throw new UserError(`${flag}: "${text}" is not a duration; expected e.g. 24h, 90m, 1h30m, 45s or seconds`);
  }
  return Math.round(total);
}

const BYTE_UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  k: 1024,
  kb: 1000,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1000 ** 4,
  tib: 1024 ** 4,
};

/** Parse a size such as "8G", "512MiB", "100MB" or a bare number of bytes (K/M/G/T are binary, as Docker). */
export function parseBytes(text: string, flag = "size"): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  const unit = m ? BYTE_UNITS[m[2].toLowerCase()] : undefined;
  if (!m || unit === undefined || Number(m[1]) <= 0) {
    throw new UserError(`${flag}: "${text}" is not a size; expected e.g. 8G, 512M, 100MB or a number of bytes`);
  }
  return Math.round(Number(m[1]) * unit);
}

/** Parse a positive integer flag. */
export function parsePositiveInt(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) <= 0) {
    throw new UserError(`${flag}: "${text}" is not a positive whole number`);
  }
  return Number(text);
}

/** Parse `--gpus 0,1` (or "none"/"") into device indices. */
export function parseGpus(text: string): number[] {
  const t = text.trim();
  if (t === "" || t === "none") return [];
  const parts = t.split(",").map((p) => p.trim());
  if (parts.some((p) => !/^\d+$/.test(p))) {
    throw new UserError(`--gpus: "${text}" is not a list of GPU indices; expected e.g. 0 or 0,1 (or none)`);
  }
  const ids = parts.map(Number);
  if (new Set(ids).size !== ids.length) throw new UserError(`--gpus: "${text}" lists a GPU twice`);
  return ids;
}

/** Format ms as a compact duration for file names and progress ("1h02m03s"). */
export function formatDuration(ms: number): string {
  const { h, m, s } = hms(ms / 1000);
  return h > 0 ? `${h}h${pad2(m)}m${pad2(s)}s` : m > 0 ? `${m}m${pad2(s)}s` : `${s}s`;
}

/** Run limits as the command line spells them; unset optional ones mean "unlimited". */
export interface LimitFlags {
  timeLimit: string;
  memory?: string;
  pids?: string;
  cpus?: string;
  disk?: string;
  tmpSize?: string;
  outputLimit?: string;
}

/** Defaults of the limit flags, shared by every command that starts runs. */
export const LIMIT_DEFAULTS = { timeLimit: "24h", pids: "4096", tmpSize: "2G", outputLimit: "100M" } as const;

/** Whether `--disk` leaves the cap to be derived from the free space at run time (not given, or "auto"). */
export function autoDisk(disk: string | undefined): boolean {
  return disk === undefined || disk === "auto";
}

/** Parse the limit flags (each error names its flag), filling in LIMIT_DEFAULTS; `--disk auto` and `none` leave diskBytes null. */
export function limitsFromFlags(f: LimitFlags): Limits {
  return {
    wallMs: parseDuration(f.timeLimit, "--time-limit"),
    memoryBytes: f.memory === undefined ? null : parseBytes(f.memory, "--memory"),
    pids: parsePositiveInt(f.pids ?? LIMIT_DEFAULTS.pids, "--pids"),
    cpus: f.cpus === undefined ? null : parsePositiveInt(f.cpus, "--cpus"),
    diskBytes: autoDisk(f.disk) || f.disk === "none" ? null : parseBytes(f.disk!, "--disk"),
    tmpBytes: parseBytes(f.tmpSize ?? LIMIT_DEFAULTS.tmpSize, "--tmp-size"),
    outputBytes: parseBytes(f.outputLimit ?? LIMIT_DEFAULTS.outputLimit, "--output-limit"),
  };
}

/** The snapshot interval: "never", an explicit duration, or one hour of upstream's 24, scaled to the time limit. */
export function snapshotInterval(text: string | undefined, wallMs: number | null): number | null {
  if (text === "never") return null;
  if (text !== undefined) return parseDuration(text, "--snapshot-every");
  return wallMs === null ? 3_600_000 : Math.max(1000, Math.round(wallMs / 24));
}
