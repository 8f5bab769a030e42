#!/usr/bin/env node
// Sandbox overhead, each figure against a reference measured in the same run, medians of repeats
// that alternate ours and the reference so that drift on a busy machine hits both alike:
//   per exec  sandbox.exec(["/bin/true"]) in one bwrap sandbox, versus a plain spawn of /bin/true
//             awaited until its pipes close. Target: at most 10 ms more.
//   per run   backend.create(spec) + one exec of /bin/true + sandbox.close(), versus one plain spawn
//             of /bin/true: what setting a sandbox up and tearing it down adds. Target: at most 300 ms more.
//   docker    the same two where the docker backend is usable (no target: figures only).
//   CLI       `mlebench run --agent external --agent-cmd true -c titanic` end to end, and
//             `mlebench --version`, versus `node -e 0` (informational, no target here). titanic is
//             prepared once into bench/.cache/sandbox/data.
// BENCH_REPEATS sets every repeat count (defaults: 20 execs, 10 runs, 10 CLI calls); BENCH_DOCKER=0
// and BENCH_CLI=0 leave those parts out. --json prints the figures as one JSON object instead of
// the table. Exit status: 0 every target met, 1 a target missed, 2 bwrap unusable here
// (no build, or a sandboxed /bin/true that fails).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..");
const dist = (p) => pathToFileURL(path.join(repo, "dist", p)).href;
const cli = path.join(repo, "dist", "cli", "main.js");
const cache = path.join(repo, "bench", ".cache", "sandbox");
const json = process.argv.includes("--json");

const override = process.env.BENCH_REPEATS;
const repeats = {
  exec: Number(override ?? 20),
  run: Number(override ?? 10),
  cli: Number(override ?? 10),
};
for (const [name, n] of Object.entries(repeats)) {
  if (!Number.isSafeInteger(n) || n < 1) {
    console.error(`bench: BENCH_REPEATS must be a whole number above 0 (${name}: ${n})`);
    process.exit(2);
  }
}
const TARGET_EXEC_MS = 10;
const TARGET_RUN_MS = 300;

if (!fs.existsSync(path.join(repo, "dist", "sandbox", "registry.js")) || !fs.existsSync(cli)) {
  console.error("bench: build first (npm run build)");
  process.exit(2);
}
const { getSandboxBackend } = await import(dist("sandbox/registry.js"));
const { baseSandboxEnv, WRITABLE_DIRS } = await import(dist("sandbox/types.js"));

const bwrap = getSandboxBackend("bwrap");
const bwrapWhy = await bwrap.unavailable();
if (bwrapWhy !== null) {
  console.error(`bench: the bwrap backend cannot run here: ${bwrapWhy}`);
  process.exit(2);
}

// Other work on the machine inflates every figure here; the load average says how much there was.
const loadBefore = os.loadavg()[0];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Wall time of an async action, ms. */
async function timed(action) {
  const t0 = performance.now();
  await action();
  return performance.now() - t0;
}

/** Median times of `ours` and `reference`, alternating which goes first, after one untimed round of each. */
async function compare(n, ours, reference) {
  await reference();
  await ours();
  const a = [];
  const b = [];
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      b.push(await timed(reference));
      a.push(await timed(ours));
    } else {
      a.push(await timed(ours));
      b.push(await timed(reference));
    }
  }
  return { ours: median(a), reference: median(b) };
}

/** A plain child process with the same stdio a sandboxed command gets, awaited until its pipes close. */
function plainSpawn(argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${argv.join(" ")} exited with ${code}`))));
  });
}

const trueRef = () => plainSpawn(["/bin/true"]);

const temps = [];
function tempDir(prefix) {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(d);
  return d;
}
const removeTemps = () => {
  for (const d of temps.splice(0)) fs.rmSync(d, { recursive: true, force: true });
};
process.on("exit", removeTemps);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(130));

/** Limits as `mlebench run` sets them by default, minus the wall clock and disk cap a bench has no use for. */
const LIMITS = { wallMs: null, memoryBytes: null, pids: 4096, cpus: null, diskBytes: null, tmpBytes: 2 * 1024 ** 3, outputBytes: 100 * 1024 ** 2 };

/** Folders made once and reused by every sandbox of a backend: making them is the harness's work, not the sandbox's. */
function specFactory(backendName) {
  const root = tempDir(`mlebench-bench-${backendName}-`);
  fs.chmodSync(root, 0o755);
  const dataDir = path.join(root, "public");
  fs.mkdirSync(dataDir);
  fs.writeFileSync(path.join(dataDir, "train.csv"), "id,y\n1,0\n");
  const writable = Object.fromEntries(WRITABLE_DIRS.map((d) => {
    const p = path.join(root, d);
    fs.mkdirSync(p);
    return [d, p];
  }));
  let n = 0;
  return () => ({
    // A cgroup or container of a previous sandbox may still be going away; a fresh id never clashes.
    id: `bench-${process.pid}-${backendName}-${++n}`,
    dataDir,
    writable,
    files: {},
    sockets: [],
    env: baseSandboxEnv(),
    limits: LIMITS,
    gpus: [],
    network: "none",
  });
}

async function mustSucceed(sandbox, argv) {
  const r = await sandbox.exec(argv);
  if (r.exitCode !== 0) throw new Error(`${sandbox.backend}: ${argv.join(" ")} ended ${r.reason} (exit ${r.exitCode}, ${r.signal ?? "no signal"}): ${r.stderr.trim()}`);
}

const rows = [];
const skipped = {};
const warnings = {};

function row(id, what, unit, m, targetMs) {
  const difference = m.ours - m.reference;
  rows.push({
    id,
    what,
    unit,
    ours_ms: m.ours,
    reference_ms: m.reference,
    difference_ms: difference,
    ratio: m.ours / m.reference,
    target_ms: targetMs,
    ok: targetMs === null ? null : difference <= targetMs,
  });
}

/** Per-exec and per-run figures of one backend. */
async function measureBackend(name, backend, targets) {
  const spec = specFactory(name);
  const sandbox = await backend.create(spec());
  warnings[name] = [...sandbox.warnings];
  try {
    row(`${name}.exec`, `${name}: exec /bin/true`, "ms", await compare(repeats.exec, () => mustSucceed(sandbox, ["/bin/true"]), trueRef), targets.exec);
  } finally {
    await sandbox.close();
  }
  const oneRun = async () => {
    const s = await backend.create(spec());
    try {
      await mustSucceed(s, ["/bin/true"]);
    } finally {
      await s.close();
    }
  };
  row(`${name}.run`, `${name}: create + exec + close`, "ms", await compare(repeats.run, oneRun, trueRef), targets.run);
}

try {
  await measureBackend("bwrap", bwrap, { exec: TARGET_EXEC_MS, run: TARGET_RUN_MS });
} catch (e) {
  console.error(`bench: the bwrap sandbox failed: ${e.message}`);
  process.exit(2);
}

if (process.env.BENCH_DOCKER === "0") skipped.docker = "BENCH_DOCKER=0";
else {
  const docker = getSandboxBackend("docker");
  const why = await docker.unavailable();
  if (why !== null) skipped.docker = why;
  else {
    try {
      await measureBackend("docker", docker, { exec: null, run: null });
    } catch (e) {
      skipped.docker = `failed: ${e.message.split("\n")[0]}`;
    }
  }
}

/** The CLI's environment without settings of the caller's that would change what it does. */
function cliEnv() {
  const { MLEBENCH_DATA_DIR: _d, MLEBENCH_LLM_MODEL: _m, MLEBENCH_DOCKER_IMAGE: _i, ...env } = process.env;
  return env;
}

function syncRunner(argv, check) {
  return async () => {
    const r = spawnSync(argv[0], argv.slice(1), { cwd: repo, env: cliEnv(), encoding: "utf8", maxBuffer: 1 << 26 });
    if (r.status !== 0) {
      const tail = `${r.stderr ?? ""}${r.stdout ?? ""}`.trim().split("\n").slice(-3).join(" | ");
      throw new Error(`${path.basename(argv[1] ?? argv[0])} ${argv.slice(2, 3).join(" ")} exited ${r.status ?? r.signal}: ${tail || r.error?.message || "no output"}`);
    }
    check?.(r.stdout);
  };
}

if (process.env.BENCH_CLI === "0") skipped.cli = "BENCH_CLI=0";
else {
  const node = process.execPath;
  const nodeRef = syncRunner([node, "-e", "0"]);
  try {
    const dataDir = path.join(cache, "data");
    const publicDir = path.join(dataDir, "titanic", "prepared", "public");
    if (!fs.existsSync(path.join(dataDir, "titanic", "leaderboard.csv")) || !fs.existsSync(path.join(publicDir, "train.csv"))) {
      await syncRunner([node, cli, "prepare", "-c", "titanic", "--data-dir", dataDir])();
    }
    const runsDir = tempDir("mlebench-bench-runs-");
    const runOnce = syncRunner(
      [node, cli, "run", "--agent", "external", "--agent-cmd", "true", "-c", "titanic", "--data-dir", dataDir, "--runs-dir", runsDir, "--json"],
      (stdout) => {
        const group = JSON.parse(stdout);
        const run = group.runs?.[0];
        if (run?.status !== "completed" || run.exit_reason !== "finished") {
          throw new Error(`the run ended ${run?.status}/${run?.exit_reason}: ${run?.error ?? "no error recorded"}`);
        }
        // Each run leaves a run dir (and a disk image while it lasts); keep the temp folder small.
        fs.rmSync(group.dir, { recursive: true, force: true });
      },
    );
    row("cli.run", "mlebench run (external `true`, titanic)", "s", await compare(repeats.cli, runOnce, nodeRef), null);
    row("cli.version", "mlebench --version", "s", await compare(repeats.cli, syncRunner([node, cli, "--version"]), nodeRef), null);
  } catch (e) {
    skipped.cli = `failed: ${e.message}`;
  }
}

removeTemps();
const load = { before: loadBefore, after: os.loadavg()[0] };
const ok = rows.every((r) => r.ok !== false);

if (json) {
  console.log(JSON.stringify({
    uid: process.getuid?.() ?? null,
    node: process.version,
    cpus: os.availableParallelism(),
    loadavg_1min: load,
    repeats,
    targets: { exec_ms: TARGET_EXEC_MS, run_ms: TARGET_RUN_MS },
    rows,
    skipped,
    warnings,
    ok,
  }, null, 2));
} else {
  const fmt = (ms, unit) => (unit === "s" ? `${(ms / 1000).toFixed(3)} s` : `${ms.toFixed(2)} ms`);
  const table = [["what", "ours", "reference", "difference", "ratio", "target", "status"]];
  for (const r of rows) {
    table.push([
      r.what,
      fmt(r.ours_ms, r.unit),
      fmt(r.reference_ms, r.unit),
      `${r.difference_ms >= 0 ? "+" : ""}${fmt(r.difference_ms, r.unit)}`,
      `${r.ratio.toFixed(2)}x`,
      r.target_ms === null ? "-" : `<= +${fmt(r.target_ms, r.unit)}`,
      r.ok === null ? "info" : r.ok ? "ok" : "MISSED",
    ]);
  }
  const widths = table[0].map((_, c) => Math.max(...table.map((t) => t[c].length)));
  const line = (t) => t.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ");
  console.log(`uid ${process.getuid?.()}, node ${process.version}, ${os.availableParallelism()} CPUs, load ${load.before.toFixed(2)} -> ${load.after.toFixed(2)}; medians of ${repeats.exec} execs, ${repeats.run} runs, ${repeats.cli} CLI calls`);
  console.log("reference: a plain spawn of /bin/true (exec, run rows); `node -e 0` (CLI rows)\n");
  console.log(line(table[0]));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const t of table.slice(1)) console.log(line(t));
  for (const [part, why] of Object.entries(skipped)) console.log(`\n${part}: skipped: ${why}`);
  for (const [backend, ws] of Object.entries(warnings)) for (const w of ws) console.log(`${backend} warning: ${w}`);
  console.log(`\n${ok ? "every target met" : "a target was MISSED"}`);
}
process.exit(ok ? 0 : 1);
