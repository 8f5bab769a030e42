/**
 * The facts a run's manifest is made of, each gathered by the harness from the machine or from
 * its own records (the LLM call log, egress.jsonl, validation.jsonl), never from the agent's files.
 * Machine-wide facts are asked once per process.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Competition, PackageSource } from "../core/competition.js";
import { CATALOG_SOURCE } from "../competitions/catalog.js";
import { competitionPaths } from "../core/paths.js";
import { writeFileAtomic } from "../core/atomic.js";
import { hashFile } from "../io/hash-file.js";
import { readRawLines } from "../io/lines.js";
import { npmPackageRoot } from "../sources/packages.js";
import { MAX_COST_POINTS, MAX_LISTED_DATA_FILES, treeSha256, type CostPoint, type Data, type Hardware, type ModelUse, type Network, type Software, type Validation, type ValidationCall } from "../results/manifest.js";

/** Validation calls listed one by one in a manifest; past this only the counts go on. */
export const MAX_VALIDATION_CALLS = 10_000;

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The Python packages whose versions a manifest records (import name → distribution name). */
const PYTHON_PACKAGES = ["numpy", "pandas", "scikit-learn", "scipy", "xgboost", "lightgbm", "torch"];

function run(cmd: string, args: string[], timeoutMs = 15_000): string | null {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", timeout: timeoutMs, stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 20 });
  } catch {
    return null;
  }
}

function once<T>(make: () => T): () => T {
  let value: { v: T } | null = null;
  return () => (value ??= { v: make() }).v;
}

/** The harness: its package name and version, and the git commit of its checkout where it is one. */
export const harnessInfo = once((): Software["harness"] => {
  const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { name: string; version: string };
  const isCheckout = fs.existsSync(path.join(PACKAGE_ROOT, ".git"));
  const commit = isCheckout ? (run("git", ["-C", PACKAGE_ROOT, "rev-parse", "HEAD"])?.trim() ?? null) : null;
  // Modified tracked files under src/ or scripts/ mean the commit alone does not say what ran.
  const status = commit !== null ? run("git", ["-C", PACKAGE_ROOT, "status", "--porcelain", "--untracked-files=no", "--", "src", "scripts", "package.json"]) : null;
  return { name: pkg.name, version: pkg.version, commit, modified: status === null ? null : status.trim() !== "" };
});

const osInfo = once((): Software["os"] => {
  let distribution: string | null = null;
  try {
    const m = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(fs.readFileSync("/etc/os-release", "utf8"));
    distribution = m ? m[1] : null;
  } catch {
    // Not every system has /etc/os-release.
  }
  return { platform: os.platform(), release: os.release(), distribution };
});

const gpuTable = once((): Map<number, { model: string; memoryBytes: number | null }> => {
  const out = new Map<number, { model: string; memoryBytes: number | null }>();
  const text = run("nvidia-smi", ["--query-gpu=index,name,memory.total", "--format=csv,noheader,nounits"]);
  for (const line of text?.split("\n") ?? []) {
    const [index, name, mib] = line.split(",").map((s) => s.trim());
    if (!/^\d+$/.test(index ?? "") || !name) continue;
    const memory = Number(mib);
    out.set(Number(index), { model: name, memoryBytes: Number.isFinite(memory) ? memory * 1024 * 1024 : null });
  }
  return out;
});

/** The machine and the share of it a run was given. */
export function hardwareInfo(limits: { cpus: number | null; memoryBytes: number | null; diskBytes: number | null }, gpus: number[]): Hardware {
  const cpus = os.cpus();
  const hostCpus = os.availableParallelism();
  const table = gpus.length > 0 ? gpuTable() : new Map();
  return {
    cpu_model: cpus[0]?.model?.trim() || null,
    host_cpus: hostCpus,
    host_memory_bytes: os.totalmem(),
    cpus_given: limits.cpus ?? hostCpus,
    memory_limit_bytes: limits.memoryBytes,
    disk_limit_bytes: limits.diskBytes,
    gpus: gpus.map((index) => ({ index, model: table.get(index)?.model ?? null, memory_bytes: table.get(index)?.memoryBytes ?? null })),
  };
}

const PY_VERSIONS =
  "import importlib.metadata as m, json, sys\n" +
  "out = {}\n" +
  "for d in sys.argv[1:]:\n" +
  "    try: out[d] = m.version(d)\n" +
  "    except Exception: pass\n" +
  "print(json.dumps({'python': sys.version.split()[0], 'packages': out}))\n";

const pythonCache = new Map<string, { python: string | null; packages: Record<string, string> }>();

/** The Python and package versions a command prefix (e.g. ["/usr/bin/python3"]) runs; cached per prefix. */
export function pythonVersions(prefix: string[]): { python: string | null; packages: Record<string, string> } {
  const key = prefix.join("\0");
  const cached = pythonCache.get(key);
  if (cached) return cached;
  const [cmd, ...rest] = prefix;
  const text = run(cmd, [...rest, "-c", PY_VERSIONS, ...PYTHON_PACKAGES], 60_000);
  let found: { python: string | null; packages: Record<string, string> } = { python: null, packages: {} };
  try {
    const parsed = JSON.parse(text ?? "") as { python: string; packages: Record<string, string> };
    found = { python: parsed.python, packages: parsed.packages };
  } catch {
    // No Python there: the manifest says so with a null version.
  }
  pythonCache.set(key, found);
  return found;
}

/** The docker image id a container ran, or null. */
export function dockerImageId(image: string): string | null {
  return run("docker", ["image", "inspect", "--format", "{{.Id}}", image], 30_000)?.trim() || null;
}

/** Everything a run's commands ran on: the harness, Node, the OS and the sandbox's Python. */
export function softwareInfo(backend: string, image: string | null): Software {
  const imageId = backend === "docker" && image !== null ? dockerImageId(image) : null;
  const py =
    backend === "docker"
      ? imageId !== null
        ? pythonVersions(["docker", "run", "--rm", "--network", "none", "--entrypoint", "python3", imageId])
        : { python: null, packages: {} }
      : pythonVersions(["/usr/bin/python3"]);
  return {
    harness: harnessInfo(),
    node: process.version,
    os: osInfo(),
    sandbox: { backend, image, image_id: imageId, python: py.python, python_packages: py.packages },
  };
}

/** Parse each line of a JSONL file the harness wrote; lines that are not JSON objects are counted, not fatal. */
function jsonLines(file: string, each: (value: Record<string, unknown>) => void): number {
  if (!fs.existsSync(file)) return 0;
  let bad = 0;
  for (const line of readRawLines(file)) {
    if (line.bytes.length === 0) continue;
    try {
      const v = JSON.parse(line.bytes.toString("utf8")) as unknown;
      if (v !== null && typeof v === "object" && !Array.isArray(v)) each(v as Record<string, unknown>);
      else bad++;
    } catch {
      bad++;
    }
  }
  return bad;
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/**
 * What a run's LLM call log (llm.jsonl) says, read in one pass: calls, tokens and cost per model
 * (sorted by name), and the cumulative cost of the priced calls over the run from `startedMs`, one
 * point a call, thinned evenly to at most MAX_COST_POINTS with the last point kept.
 */
export function llmUse(callLog: string, startedMs: number): { models: ModelUse[]; curve: CostPoint[] } {
  const by = new Map<string, ModelUse>();
  const points: CostPoint[] = [];
  let total = 0;
  jsonLines(callLog, (e) => {
    const model = typeof e.model === "string" ? e.model : "(unknown)";
    let m = by.get(model);
    if (!m) {
      m = { model, calls: 0, failed_calls: 0, input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cost_usd: null, unpriced_calls: 0 };
      by.set(model, m);
    }
    m.calls++;
    if (e.error !== null && e.error !== undefined) m.failed_calls++;
    const usage = (e.usage ?? null) as Record<string, unknown> | null;
    if (usage) {
      m.input_tokens += num(usage.inputTokens);
      m.output_tokens += num(usage.outputTokens);
      m.cached_input_tokens += num(usage.cachedInputTokens);
    }
    if (typeof e.costUsd !== "number" || !Number.isFinite(e.costUsd)) {
      if (usage) m.unpriced_calls++;
      return;
    }
    m.cost_usd = (m.cost_usd ?? 0) + e.costUsd;
    if (e.costUsd === 0) return;
    total += e.costUsd;
    // An entry's time is when its call ended, when the cost was incurred.
    const at = Date.parse(typeof e.time === "string" ? e.time : "");
    const ended = Number.isFinite(at) ? at : startedMs;
    points.push({ elapsed_seconds: Math.max(0, Math.round((ended - startedMs) / 10) / 100), cost_usd: total });
  });
  const models = [...by.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  if (points.length <= MAX_COST_POINTS) return { models, curve: points };
  const step = points.length / MAX_COST_POINTS;
  const curve: CostPoint[] = [];
  for (let i = 1; i <= MAX_COST_POINTS; i++) curve.push(points[Math.ceil(i * step) - 1]);
  return { models, curve };
}

/** What the egress proxy allowed and refused, from its log (egress.jsonl). */
export function networkUse(egressLog: string, allowedHosts: string[]): Network {
  const by = new Map<string, Network["connections"][number]>();
  let blocked = 0;
  const unreadable = jsonLines(egressLog, (e) => {
    const host = typeof e.host === "string" ? e.host : "";
    const port = Number.isInteger(e.port) ? (e.port as number) : 0;
    const allowed = e.allowed === true;
    if (!allowed) blocked++;
    const key = `${host}\0${port}\0${allowed}`;
    const c = by.get(key) ?? { host, port, allowed, count: 0 };
    c.count++;
    by.set(key, c);
  });
  const connections = [...by.values()].sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : a.port - b.port || Number(a.allowed) - Number(b.allowed)));
  return { mode: allowedHosts.length > 0 ? "proxy" : "none", allowed_hosts: [...allowedHosts], connections, blocked_attempts: blocked, unreadable_lines: unreadable };
}

/** The validation server's answers, from its log (validation.jsonl); elapsed times from `startedMs`. */
export function validationUse(validationLog: string, startedMs: number): Validation {
  const log: ValidationCall[] = [];
  let calls = 0;
  let valid = 0;
  let invalid = 0;
  const unreadable = jsonLines(validationLog, (e) => {
    calls++;
    if (e.valid === true) valid++;
    if (e.valid === false) invalid++;
    if (log.length >= MAX_VALIDATION_CALLS) return;
    const time = typeof e.time === "string" ? e.time : "";
    const at = Date.parse(time);
    const intOrNull = (v: unknown) => (Number.isInteger(v) ? (v as number) : null);
    log.push({
      time,
      elapsed_seconds: Number.isFinite(at) ? Math.round((at - startedMs) / 10) / 100 : null,
      route: typeof e.route === "string" ? e.route : "",
      status: intOrNull(e.status) ?? 0,
      valid: typeof e.valid === "boolean" ? e.valid : null,
      bytes: num(e.bytes),
      sha256: typeof e.sha256 === "string" ? e.sha256 : null,
      lines: intOrNull(e.lines),
      changed_lines: intOrNull(e.changed_lines),
    });
  });
  return { calls, valid, invalid, log, unreadable_lines: unreadable };
}

/** sha256 of a file, streamed. */
export function sha256File(file: string): string {
  return hashFile(file, "sha256");
}

/** Hashes of data files by identity, so a group's runs of one competition hash its data once. */
const dataHashes = new Map<string, string>();

/** The file in a competition's data dir that keeps its files' sha256 between processes. */
export const HASH_CACHE_FILE = "sha256-cache.json";

type HashCache = Record<string, { size: number; mtimeMs: number; ino: number; sha256: string }>;

function readHashCache(file: string): HashCache {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as { version?: number; files?: HashCache };
    return parsed.version === 1 && parsed.files && typeof parsed.files === "object" ? parsed.files : {};
  } catch {
    return {};
  }
}

/**
 * sha256 of `file`, from memory, else from the data dir's cache when the file's size, mtime and
 * inode are unchanged, else read; a dataset of many gigabytes is read once, not once per process.
 */
function cachedSha256(file: string, rel: string, st: fs.Stats, disk: HashCache, changed: { value: boolean }): string {
  const key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${file}`;
  let h = dataHashes.get(key);
  if (h !== undefined) return h;
  const hit = disk[rel];
  if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs && hit.ino === st.ino && /^[0-9a-f]{64}$/.test(hit.sha256)) h = hit.sha256;
  else {
    h = sha256File(file);
    disk[rel] = { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, sha256: h };
    changed.value = true;
  }
  dataHashes.set(key, h);
  return h;
}

/** Every regular file under `dir` by `prefix` + its forward-slash path, sorted; links are not followed. */
function listTree(dir: string, prefix: string, out: [string, string][]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listTree(p, `${prefix}${e.name}/`, out);
    else if (e.isFile()) out.push([`${prefix}${e.name}`, p]);
  }
}

function packageVersion(s: PackageSource): string | null {
  if (s.kind === "debian") return run("dpkg-query", ["-W", "-f", "${Version}", s.package])?.trim() || null;
  if (s.kind === "r") {
    try {
      const m = /^Version:\s*(\S+)/m.exec(fs.readFileSync(path.join(s.library, s.package, "DESCRIPTION"), "utf8"));
      return m ? m[1] : null;
    } catch {
      return null;
    }
  }
  const root = npmPackageRoot(s.package);
  if (!root) return null;
  return (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version?: string }).version ?? null;
}

/** The data a run was given: its source and the sha256 of every prepared file and of the leaderboard. */
export function dataInfo(competition: Competition, dataDir: string): Data {
  const paths = competitionPaths(dataDir, competition.id);
  const listed: [string, string][] = [];
  listTree(path.dirname(paths.public), "prepared/", listed);
  if (fs.existsSync(paths.leaderboard)) listed.push(["leaderboard.csv", paths.leaderboard]);
  const cacheFile = path.join(paths.root, HASH_CACHE_FILE);
  const disk = readHashCache(cacheFile);
  const changed = { value: false };
  const files: Record<string, string> = {};
  for (const [rel, abs] of listed) files[rel] = cachedSha256(abs, rel, fs.statSync(abs), disk, changed);
  if (changed.value) {
    try {
      const kept = Object.fromEntries(Object.entries(disk).filter(([rel]) => rel in files));
      writeFileAtomic(cacheFile, JSON.stringify({ version: 1, files: kept }) + "\n");
    } catch {
      // A read-only data dir only means hashing again next time.
    }
  }
  const count = Object.keys(files).length;
  const tree = { file_count: count, tree_sha256: treeSha256(files), files: count <= MAX_LISTED_DATA_FILES ? files : {} };
  if (competition.offline) {
    const seen = new Set<string>();
    const packages: Data["packages"] = [];
    for (const s of Object.values(competition.offline.sources)) {
      const key = `${s.kind}:${s.package}`;
      if (seen.has(key)) continue;
      seen.add(key);
      packages.push({ kind: s.kind, name: s.package, version: packageVersion(s) });
    }
    return { source: "offline", packages, upstream: null, ...tree };
  }
  return { source: "kaggle", packages: [], upstream: { repository: CATALOG_SOURCE.repository, commit: CATALOG_SOURCE.commit }, ...tree };
}
