import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CONDA_SHIM, CONDA_SHIM_DIR, PYTHON_SHIM } from "../agents/conda-shim.js";
import type { Agent } from "../agents/types.js";
import { hiddenSources } from "../sources/packages.js";
import type { Competition } from "../core/competition.js";
import { hms, pad2 } from "../core/duration.js";
import { competitionPaths, gradingPaths } from "../core/paths.js";
import { writeFileAtomic } from "../core/atomic.js";
import { removeTree } from "../io/remove-tree.js";
import { gradeToReport, loadGradingInputs } from "../grading/grade.js";
import { pythonIsoNow } from "../grading/report.js";
import { formatDuration } from "../sandbox/limits.js";
import type { ExitReason, Limits, Sandbox, SandboxBackend, SandboxSpec, SocketService } from "../sandbox/types.js";
import { baseSandboxEnv, SANDBOX_PATHS, WRITABLE_DIRS, type WritableDir } from "../sandbox/types.js";
import { createImageVolume, volumeUnavailable, type RunVolume } from "../sandbox/volume.js";
import { startEgressProcess, type EgressProxy } from "./egress-proxy.js";
import { instructionsText } from "./instructions.js";
import { checkBackendFits } from "./backend-fit.js";
import { requireObfuscatedDescription } from "./obfuscate.js";
import { readRunRecord, RUN_SCHEMA, writeRunRecord, type RunRecord } from "../results/record.js";
import { publishRecords, recordsDir } from "./records.js";
import { dataInfo, hardwareInfo, llmUse, networkUse, softwareInfo, validationUse } from "./manifest-facts.js";
import { MANIFEST_SCHEMA, writeRunManifest, type CostPoint, type ModelUse, type RunManifest } from "../results/manifest.js";
import { Snapshots } from "./snapshots.js";
import { quarantineSubmission } from "./submission.js";
import { VALIDATE_PORT, VALIDATE_SOCKET_NAME, validateScript } from "./validate-script.js";
import { startValidationServer, type ValidationServer } from "./validation-server.js";
import { loadGrader } from "../competitions/registry.js";



/** Loopback port inside the sandbox that reaches the egress proxy (HTTP(S)_PROXY). */
export const PROXY_PORT = 3128;

/** One run: an agent on a competition with a seed, in a run dir. */
export interface RunTask {
  runId: string;
  runDir: string;
  competition: Competition;
  seed: number;
}

/** Settings shared by every run of a group. */
export interface RunSettings {
  agent: Agent;
  backend: SandboxBackend;
  dataDir: string;
  limits: Limits;
  gpus: number[];
  /** Copy submission.csv into snapshots/ this often (ms); null: never. */
  snapshotEveryMs: number | null;
  grade: boolean;
  pollMs?: number;
  /**
   * With no disk cap in `limits`: give each run a share of the free space instead (80% of what is
   * free where the run dir is, divided by `share`, the runs that go on at once). Without it an
   * uncapped run is uncapped.
   */
  diskAuto?: { share: number };
  /** Give the agent the obfuscated description and instructions (the paper's contamination ablation). */
  obfuscate?: boolean;
}

/** A run's disk cap when none was given: its share of 80% of the free space of the runs' filesystem. */
export function autoDiskCap(dir: string, share: number): number {
  let at = path.resolve(dir);
  while (!fs.existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  const s = fs.statfsSync(at);
  return Math.max(1 << 20, Math.floor((s.bavail * s.bsize * 0.8) / Math.max(1, share)));
}

/** Live state of a run, for progress views. */
export interface RunProgress {
  startedAt: number;
  deadline: number;
}

/** Fixed-width elapsed time ("00h05m03s"), so snapshot files sort by time. */
export function snapshotName(elapsedSeconds: number): string {
  const { h, m, s } = hms(elapsedSeconds);
  return `${pad2(h)}h${pad2(m)}m${pad2(s)}s`;
}

/** Environment every agent process starts with; nothing is inherited from the harness. */
function baseEnv(seed: number, competitionId: string): Record<string, string> {
  return {
    ...baseSandboxEnv(),
    COMPETITION_ID: competitionId,
    MLEBENCH_SEED: String(seed),
  };
}

function emptyRecord(task: RunTask, settings: RunSettings, attempts: number): RunRecord {
  return {
    run_id: task.runId,
    competition_id: task.competition.id,
    agent_id: settings.agent.id,
    seed: task.seed,
    status: "pending",
    exit_reason: null,
    exit_code: null,
    exit_signal: null,
    started_at: null,
    ended_at: null,
    wall_seconds: null,
    attempts,
    sandbox: {
      backend: settings.backend.name,
      limits:
        settings.limits.diskBytes === null && settings.diskAuto
          ? { ...settings.limits, diskBytes: autoDiskCap(task.runDir, settings.diskAuto.share) }
          : settings.limits,
      gpus: settings.gpus,
      allow_hosts: settings.agent.allowHosts,
      warnings: [],
    },
    secret_env: settings.agent.secretNames,
    peaks: null,
    output_dropped_bytes: 0,
    validation_requests: 0,
    snapshots: [],
    records_displaced: [],
    submission_rejected: null,
    grading: null,
    error: null,
    schema: RUN_SCHEMA,
  };
}

/** Empty a run dir for a fresh attempt, keeping nothing an earlier attempt wrote. */
function resetRunDir(runDir: string): void {
  for (const d of [...WRITABLE_DIRS, "snapshots", "harness"]) removeTree(path.join(runDir, d));
  for (const f of ["grading_report.json", "validation.jsonl", "egress.jsonl", "manifest.json"]) fs.rmSync(path.join(runDir, f), { force: true });
  for (const d of [...WRITABLE_DIRS, "snapshots", "harness"]) fs.mkdirSync(path.join(runDir, d), { recursive: true });
  // Harness-only: the agent's uid may not even list it.
  fs.mkdirSync(recordsDir(runDir), { mode: 0o700 });
}

/** The call log LLM-driven agents keep among the harness's records. */
const LLM_CALL_LOG = "llm.jsonl";

/**
 * manifest.json of a finished run, from the harness's own records: the machine, the software, the
 * limits and use, the models, the network, the validation server's answers and the data.
 */
function runManifest(task: RunTask, settings: RunSettings, record: RunRecord, startedMs: number, llm: { models: ModelUse[]; curve: CostPoint[] }): RunManifest {
  const limits = record.sandbox.limits;
  const wall = record.wall_seconds;
  return {
    schema: MANIFEST_SCHEMA,
    run_id: task.runId,
    competition_id: task.competition.id,
    agent_id: settings.agent.id,
    seed: task.seed,
    created_at: pythonIsoNow(),
    hardware: hardwareInfo(limits, record.sandbox.gpus),
    software: softwareInfo(record.sandbox.backend, record.sandbox.image ?? null),
    usage: {
      time_limit_seconds: limits.wallMs === null ? null : limits.wallMs / 1000,
      wall_seconds: wall,
      cpu_seconds: record.peaks?.cpuSeconds ?? null,
      peak_memory_bytes: record.peaks?.memoryBytes ?? null,
      peak_disk_bytes: record.peaks?.diskBytes ?? null,
      gpu_seconds: wall === null ? null : Math.round(wall * record.sandbox.gpus.length * 100) / 100,
    },
    models: llm.models,
    llm_cost_curve: llm.curve,
    network: networkUse(path.join(task.runDir, "egress.jsonl"), record.sandbox.allow_hosts),
    validation: validationUse(path.join(task.runDir, "validation.jsonl"), startedMs),
    data: dataInfo(task.competition, settings.dataDir),
  };
}

/** Host-side services and files of a run, torn down in one place. */
class RunResources {
  validation: ValidationServer | null = null;
  egress: EgressProxy | null = null;
  sandbox: Sandbox | null = null;
  socketDir: string | null = null;
  snapshotTimer: NodeJS.Timeout | null = null;
  volume: RunVolume | null = null;
  /** The LLM calls of the run by model and its cost over time, read from the harness's call log before it is published. */
  llm: { models: ModelUse[]; curve: CostPoint[] } = { models: [], curve: [] };

  constructor(private readonly startedMs: number) {}

  async close(): Promise<void> {
    if (this.snapshotTimer) clearInterval(this.snapshotTimer);
    await this.sandbox?.close();
    await this.validation?.close();
    await this.egress?.close();
    if (this.socketDir) fs.rmSync(this.socketDir, { recursive: true, force: true });
  }

  /**
   * Once the sandbox is closed: the writable dirs from the run's own volume into the run dir, then
   * the harness's records into logs/. Returns what could not be copied, or null.
   */
  settle(runDir: string, record: RunRecord): string | null {
    const volume = this.volume;
    this.volume = null;
    const lost = volume?.finish(Object.fromEntries(WRITABLE_DIRS.map((d) => [d, path.join(runDir, d)])) as Record<WritableDir, string>) ?? null;
    this.llm = llmUse(path.join(recordsDir(runDir), LLM_CALL_LOG), this.startedMs);
    record.records_displaced = publishRecords(recordsDir(runDir), path.join(runDir, "logs"));
    return lost;
  }
}

/**
 * Run one task to completion: services, sandbox, agent, snapshots, submission check and
 * (optionally) grading. Returns the final run.json record; never throws for agent failures.
 */
export async function runTask(
  task: RunTask,
  settings: RunSettings,
  hooks: { log: (line: string) => void; onStart?: (p: RunProgress) => void; register?: (kill: (r: ExitReason) => Promise<void>) => void },
): Promise<RunRecord> {
  const previous = readRunRecord(task.runDir);
  const record = emptyRecord(task, settings, (previous?.attempts ?? 0) + 1);
  fs.mkdirSync(task.runDir, { recursive: true });
  resetRunDir(task.runDir);
  const logFile = path.join(task.runDir, "run.log");
  const log = (line: string) => {
    fs.appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
    hooks.log(line);
  };
  const started = Date.now();
  const res = new RunResources(started);
  record.status = "running";
  record.started_at = pythonIsoNow();
  writeRunRecord(task.runDir, record);
  log(`run ${task.runId}: agent ${settings.agent.id} on ${task.competition.id}, seed ${task.seed}, sandbox ${settings.backend.name}`);
  try {
    const competition = await loadGrader(task.competition);
    const obfuscate = settings.obfuscate === true || settings.agent.obfuscate === true;
    checkBackendFits(settings.agent, obfuscate, settings.backend.name);
    const obfuscatedDescription = obfuscate ? requireObfuscatedDescription(competition, settings.dataDir) : null;
    const dirs = competitionPaths(settings.dataDir, competition.id);
    const inputs = loadGradingInputs(competition, settings.dataDir);
    // Unix socket paths are limited to ~108 bytes, so sockets live in a short temp dir.
    res.socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "mlb-"));
    fs.chmodSync(res.socketDir, 0o711);
    const sockets: SocketService[] = [];
    const sandboxId = task.runId.slice(-36).replace(/[^A-Za-z0-9_-]/g, "-");
    res.validation = await startValidationServer({
      socketPath: path.join(res.socketDir, VALIDATE_SOCKET_NAME),
      competitionId: competition.id,
      answersFile: gradingPaths(competition, settings.dataDir).answers,
      logFile: path.join(task.runDir, "validation.jsonl"),
      memoryBytes: settings.limits.memoryBytes,
      cgroupName: `mlebench-${sandboxId}-validate`,
      log,
    });
    sockets.push({ hostPath: res.validation.socketPath, name: VALIDATE_SOCKET_NAME, loopbackPort: VALIDATE_PORT });
    const env = baseEnv(task.seed, competition.id);
    if (settings.agent.allowHosts.length > 0) {
      res.egress = await startEgressProcess({
        socketPath: path.join(res.socketDir, "egress.sock"),
        allow: settings.agent.allowHosts,
        logFile: path.join(task.runDir, "egress.jsonl"),
        memoryBytes: settings.limits.memoryBytes,
        cgroupName: `mlebench-${sandboxId}-egress`,
        log,
      });
      sockets.push({ hostPath: res.egress.socketPath, name: "egress.sock", loopbackPort: PROXY_PORT });
      const proxy = `http://127.0.0.1:${PROXY_PORT}`;
      Object.assign(env, { HTTPS_PROXY: proxy, HTTP_PROXY: proxy, https_proxy: proxy, http_proxy: proxy, NO_PROXY: "localhost,127.0.0.1", no_proxy: "localhost,127.0.0.1" });
    }
    const harness = path.join(task.runDir, "harness");
    const timeText = settings.limits.wallMs === null ? null : formatDuration(settings.limits.wallMs);
    const limits = record.sandbox.limits;
    let writable = Object.fromEntries(WRITABLE_DIRS.map((d) => [d, path.join(task.runDir, d)])) as SandboxSpec["writable"];
    const wantsVolume = limits.diskBytes !== null && settings.backend.name !== "local";
    let volumeWarning = wantsVolume ? volumeUnavailable() : null;
    if (wantsVolume && limits.diskBytes !== null && volumeWarning === null) {
      try {
        res.volume = createImageVolume(path.join(harness, "volume.img"), limits.diskBytes);
        writable = res.volume.dirs;
      } catch (e) {
        // Where the run dir is (a filesystem that refuses loop images, say) must not fail the run.
        volumeWarning = `no disk image for this run (${(e as Error).message})`;
      }
    }
    const volume = res.volume;
    // The agent's code is copied in, not mounted: upstream's agents write into their own folder.
    if (settings.agent.agentDir) fs.cpSync(settings.agent.agentDir, writable.agent, { recursive: true, verbatimSymlinks: true });
    const snapshots = new Snapshots();
    const spec: SandboxSpec = {
      id: sandboxId,
      dataDir: dirs.public,
      writable,
      files: {},
      hidden: hiddenSources(task.competition),
      sockets,
      env: { ...env, ...settings.agent.env },
      limits,
      gpus: settings.gpus,
      network: settings.agent.allowHosts.length > 0 ? "proxy" : "none",
      pollMs: settings.pollMs,
      diskUsed: volume ? () => volume.used() : undefined,
      diskExtra: () => snapshots.bytes,
      image: settings.agent.image,
    };
    // The instructions name sandbox paths, which depend on the backend; write them after creation.
    const instructionsFile = path.join(harness, "instructions.txt");
    const obfuscatedInstructionsFile = path.join(harness, "instructions_obfuscated.txt");
    const scriptFile = path.join(harness, "validate_submission.sh");
    fs.writeFileSync(instructionsFile, "");
    fs.writeFileSync(obfuscatedInstructionsFile, "");
    fs.writeFileSync(scriptFile, validateScript(), { mode: 0o755 });
    const condaFile = path.join(harness, "conda");
    fs.writeFileSync(condaFile, CONDA_SHIM, { mode: 0o755 });
    const pythonFile = path.join(harness, "python");
    fs.writeFileSync(pythonFile, PYTHON_SHIM, { mode: 0o755 });
    spec.files = {
      "/home/instructions.txt": instructionsFile,
      "/home/instructions_obfuscated.txt": obfuscatedInstructionsFile,
      // Over the competition's own, so an agent reading the usual path reads the obfuscated one.
      ...(obfuscatedDescription !== null ? { [path.posix.join(SANDBOX_PATHS.data, "description.md")]: obfuscatedDescription } : {}),
      "/home/validate_submission.sh": scriptFile,
      [path.posix.join(CONDA_SHIM_DIR, "conda")]: condaFile,
      [path.posix.join(CONDA_SHIM_DIR, "python")]: pythonFile,
      ...settings.agent.files,
    };
    spec.env.PATH = `${spec.env.PATH ?? ""}:${CONDA_SHIM_DIR}`;
    res.sandbox = await settings.backend.create(spec);
    const sandbox = res.sandbox;
    const instructions = instructionsText(sandbox.paths, timeText, obfuscate);
    fs.writeFileSync(instructionsFile, instructions);
    fs.writeFileSync(obfuscatedInstructionsFile, instructionsText(sandbox.paths, timeText, true));
    if (obfuscate) record.obfuscated = true;
    fs.writeFileSync(scriptFile, validateScript(path.posix.join(sandbox.paths.runtime, VALIDATE_SOCKET_NAME)));
    record.sandbox.warnings = [...sandbox.warnings];
    if (sandbox.image !== undefined) record.sandbox.image = sandbox.image;
    if (volumeWarning !== null) record.sandbox.warnings.push(`${volumeWarning}: the disk cap is checked by measuring the writable dirs at each poll`);
    for (const w of record.sandbox.warnings) log(`warning: ${w}`);
    writeRunRecord(task.runDir, record);

    const deadline = settings.limits.wallMs === null ? Number.POSITIVE_INFINITY : started + settings.limits.wallMs;
    hooks.onStart?.({ startedAt: started, deadline });
    hooks.register?.((reason) => sandbox.kill(reason));
    const submission = path.join(task.runDir, "submission", "submission.csv");
    const liveSubmission = path.join(spec.writable.submission, "submission.csv");
    const snapshot = () => {
      try {
        takeSnapshot();
      } catch (e) {
        // A full disk must not take the harness down with it; the run goes on without this snapshot.
        log(`snapshot failed: ${(e as Error).message}`);
      }
    };
    const takeSnapshot = () => {
      const elapsed = Math.round((Date.now() - started) / 1000);
      const name = `${snapshotName(elapsed)}.csv`;
      if (snapshots.take(liveSubmission, path.join(task.runDir, "snapshots", name))) {
        record.snapshots.push({ file: `snapshots/${name}`, elapsed_seconds: elapsed });
        writeRunRecord(task.runDir, record);
        log(`snapshot ${name}`);
      }
    };
    if (settings.snapshotEveryMs !== null) res.snapshotTimer = setInterval(snapshot, settings.snapshotEveryMs);

    const outcome = await settings.agent.run({
      sandbox,
      competition,
      instructions,
      seed: task.seed,
      deadline,
      records: recordsDir(task.runDir),
      agentLog: path.join(recordsDir(task.runDir), "agent.log"),
      hostPaths: { data: spec.dataDir, ...spec.writable, description: obfuscatedDescription ?? path.join(spec.dataDir, "description.md") },
      log,
    });
    record.exit_reason = outcome.reason;
    record.exit_code = outcome.exitCode;
    record.exit_signal = outcome.signal;
    // Taken now in case tearing down fails, and again after: close() samples the disk a last time.
    record.peaks = sandbox.peaks();
    record.output_dropped_bytes = sandbox.droppedOutput ?? 0;
    record.validation_requests = await res.validation.requests();
    await res.close();
    record.peaks = sandbox.peaks();
    const lost = res.settle(task.runDir, record);
    if (lost !== null) {
      record.sandbox.warnings.push(`some of the agent's files could not be copied out of its volume: ${lost}`);
      log(`warning: some of the agent's files could not be copied out of its volume: ${lost}`);
    }
    const displaced = record.records_displaced ?? [];
    if (displaced.length > 0) log(`the agent left entries at record names in logs/, kept as <name>.by-agent: ${displaced.join(", ")}`);
    record.submission_rejected = quarantineSubmission(submission);
    if (record.submission_rejected) log(`submission rejected: ${record.submission_rejected}`);
    record.status = outcome.reason === "interrupted" ? "interrupted" : "completed";
    log(`agent ended: ${outcome.reason} (exit ${outcome.exitCode ?? outcome.signal ?? "-"})`);
    if (settings.grade && record.status === "completed") {
      const report = gradeToReport(competition, submission, inputs);
      if (record.submission_rejected) report.invalid_reason = record.submission_rejected;
      const reportFile = path.join(task.runDir, "grading_report.json");
      writeFileAtomic(reportFile, JSON.stringify(report, null, 2) + "\n");
      record.grading = {
        score: report.score,
        valid_submission: report.valid_submission,
        any_medal: report.any_medal,
        report: "grading_report.json",
      };
      log(`graded: score ${report.score ?? "none"}${report.any_medal ? " (medal)" : ""}${report.invalid_reason ? `, invalid: ${report.invalid_reason}` : ""}`);
    }
  } catch (e) {
    record.status = "failed";
    record.error = (e as Error).message;
    log(`run failed: ${(e as Error).message}`);
    const closed = await res.close().then(
      () => true,
      () => false,
    );
    // A failed run's files and records are kept too, but only once nothing of the agent can run any more.
    if (closed) {
      try {
        res.settle(task.runDir, record);
      } catch (err) {
        log(`the run's files could not be moved into place: ${(err as Error).message}`);
      }
    } else res.volume?.discard();
  }
  record.ended_at = pythonIsoNow();
  record.wall_seconds = Math.round((Date.now() - started) / 10) / 100;
  try {
    writeRunManifest(task.runDir, runManifest(task, settings, record, started, res.llm));
  } catch (e) {
    // The result stands without it; run.json says why there is none.
    record.sandbox.warnings.push(`no manifest.json: ${(e as Error).message}`);
    log(`warning: no manifest.json: ${(e as Error).message}`);
  }
  writeRunRecord(task.runDir, record);
  return record;
}
