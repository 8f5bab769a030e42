import fs from "node:fs";
import { UnrecoverableError, Worker, type Job } from "bullmq";
import { resolveAgent } from "../agents/registry.js";
import { getCompetition } from "../competitions/registry.js";
import { competitionPaths } from "../core/paths.js";
import { pythonIsoNow } from "../grading/report.js";
import { prepareCompetition } from "../prepare/prepare.js";
import { RUN_SCHEMA, writeRunRecord, type RunRecord } from "../results/record.js";
import { runTask } from "../runner/run.js";
import type { ExitReason, SandboxBackend } from "../sandbox/types.js";
import { getSandboxBackend } from "../sandbox/registry.js";
import { LOCAL_WARNING } from "../sandbox/local.js";
import { parseRunJob, QUEUE_NAME, type JobResult, type RunJob } from "./jobs.js";
import type { GpuPool } from "../runner/gpu-pool.js";
import type { ResultStore } from "./result-store.js";
import { connectionOptions, type RedisUrl } from "./url.js";

/** How a worker process serves the queue. */
export interface WorkerOptions {
  url: RedisUrl;
  store: ResultStore;
  dataDir: string;
  /** Runs at the same time. */
  concurrency: number;
  /** This machine's GPUs, replacing the ones a job asks for; undefined keeps the job's. */
  gpus?: number[];
  /** With --gpus-per-run: this machine's GPUs shared out among its runs going on at once. */
  gpuPool?: GpuPool | null;
  /** Sandbox backend replacing the one a job asks for. */
  sandbox?: string;
  /** This worker's secrets (agent keys never travel through Redis). */
  secretsFile?: string;
  /** A job whose lock is not renewed for this long is given to another worker. */
  lockMs: number;
  /** How often workers look for jobs whose lock expired. */
  stalledMs: number;
  /** Shown as "running on <name>". */
  name: string;
  log: (line: string) => void;
}

/** A running worker: stop() interrupts its runs (they are retried elsewhere) and disconnects. */
export interface RunWorker {
  worker: Worker;
  stop(): Promise<void>;
}

/** A failed run's record when the run never got to write one (lost workers, bad setup). */
function failedRecord(job: RunJob, backend: string, attempts: number, error: string): RunRecord {
  const now = pythonIsoNow();
  return {
    run_id: job.run_id, competition_id: job.competition_id, agent_id: job.agent.id, seed: job.seed,
    status: "failed", exit_reason: null, exit_code: null, exit_signal: null, started_at: now, ended_at: now, wall_seconds: 0,
    attempts,
    sandbox: { backend, limits: job.limits, gpus: job.gpus, allow_hosts: job.agent.allowHosts ?? [], warnings: [] },
    secret_env: [], peaks: null, output_dropped_bytes: 0, validation_requests: 0, snapshots: [], submission_rejected: null,
    grading: null, error, schema: RUN_SCHEMA,
  };
}

/** Start a BullMQ worker that runs jobs exactly as `mlebench run` runs them locally and publishes each run once. */
export function startRunWorker(opts: WorkerOptions): RunWorker {
  const kills = new Map<string, (r: ExitReason) => Promise<void>>();
  const preparing = new Map<string, Promise<void>>();
  const checkedBackends = new Map<string, Promise<string | null>>();
  let stopping = false;

  // One preparation per competition at a time in this process; the data dir is per machine.
  const ensurePrepared = (id: string): Promise<void> => {
    if (fs.existsSync(competitionPaths(opts.dataDir, id).public)) return Promise.resolve();
    let p = preparing.get(id);
    if (!p) {
      opts.log(`preparing ${id} in ${opts.dataDir}`);
      p = prepareCompetition(getCompetition(id), opts.dataDir).then(() => undefined);
      preparing.set(id, p);
      p.catch(() => preparing.delete(id));
    }
    return p;
  };
  const backendFor = async (name: string): Promise<SandboxBackend> => {
    const backend = getSandboxBackend(name);
    let check = checkedBackends.get(name);
    if (!check) {
      check = backend.unavailable();
      checkedBackends.set(name, check);
      if (name === "local") opts.log(LOCAL_WARNING);
    }
    const problem = await check;
    if (problem) throw new Error(`--sandbox ${name} does not work on worker ${opts.name}: ${problem}`);
    return backend;
  };

  /** Publish a failed run and end the job for good, unless another attempt published a completed run meanwhile. */
  const giveUp = async (run: RunJob, staged: string | null, record: RunRecord): Promise<JobResult> => {
    const dir = staged ?? (await opts.store.stage(run.group, run.run_id));
    writeRunRecord(dir, record);
    if (!(await opts.store.publish(run.group, run.run_id, dir))) {
      const winner = await opts.store.published(run.group, run.run_id);
      if (winner?.status === "completed") return { status: winner.status, exit_reason: winner.exit_reason, worker: opts.name, duplicate: true };
    }
    throw new UnrecoverableError(record.error ?? "failed");
  };

  const processRun = async (job: Job): Promise<JobResult> => {
    let run: RunJob;
    try {
      run = parseRunJob(job.data, String(job.id));
    } catch (e) {
      throw new UnrecoverableError((e as Error).message);
    }
    const label = `${run.competition_id} seed ${run.seed} (${run.group}/${run.run_id})`;
    const allowed = job.opts.attempts ?? 1;
    const started = job.attemptsStarted;
    const backendName = opts.sandbox ?? run.sandbox;
    if (!(await opts.store.hasGroup(run.group))) {
      throw new Error(`worker ${opts.name}: run group ${run.group} is not in ${opts.store.describe()}; give every worker the producer's shared --runs-dir`);
    }
    const already = await opts.store.published(run.group, run.run_id);
    if (already) {
      opts.log(`${label}: already published (${already.status}); nothing to do`);
      if (already.status !== "completed") throw new UnrecoverableError(already.error ?? `run ${already.status}`);
      return { status: already.status, exit_reason: already.exit_reason, worker: opts.name, duplicate: true };
    }
    if (started > allowed) {
      const why = `started ${started} times, more than --max-attempts ${allowed}: the workers running it were lost (killed, out of memory, disconnected) before it ended`;
      opts.log(`${label}: giving up: ${why}`);
      return giveUp(run, null, failedRecord(run, backendName, started, why));
    }
    opts.log(`${label}: attempt ${started} of ${allowed}`);
    let staged: string | null = null;
    let held: number[] | undefined;
    let record: RunRecord;
    try {
      const competition = getCompetition(run.competition_id);
      await ensurePrepared(competition.id);
      const agent = resolveAgent({ ...run.agent, secretsFile: opts.secretsFile });
      const backend = await backendFor(backendName);
      staged = await opts.store.stage(run.group, run.run_id);
      held = opts.gpuPool?.take();
      record = await runTask(
        { runId: run.run_id, runDir: staged, competition, seed: run.seed },
        {
          agent, backend, dataDir: opts.dataDir, limits: run.limits, gpus: held ?? opts.gpus ?? run.gpus,
          snapshotEveryMs: run.snapshot_every_ms, grade: run.grade, pollMs: run.poll_ms,
          diskAuto: run.disk_auto ? { share: opts.concurrency } : undefined,
          obfuscate: run.obfuscate,
        },
        {
          log: () => {},
          register: (kill) => {
            kills.set(String(job.id), kill);
            if (stopping) void kill("interrupted");
          },
        },
      );
    } catch (e) {
      record = failedRecord(run, backendName, started, `worker ${opts.name}: ${(e as Error).message}`);
    } finally {
      kills.delete(String(job.id));
      if (held) opts.gpuPool!.give(held);
    }
    record.attempts = started;
    if (record.status === "completed") {
      writeRunRecord(staged!, record);
      const first = await opts.store.publish(run.group, run.run_id, staged!);
      opts.log(`${label}: completed (${record.exit_reason})${first ? "" : "; another attempt had published it already, kept that one"}`);
      return { status: record.status, exit_reason: record.exit_reason, worker: opts.name, duplicate: !first };
    }
    const reason = record.status === "interrupted" ? `worker ${opts.name} stopped during the run` : (record.error ?? `run ${record.status}`);
    opts.log(`${label}: ${record.status}: ${reason}`);
    if (started >= allowed) {
      record.status = "failed";
      record.error = reason;
      return giveUp(run, staged, record);
    }
    if (staged) await opts.store.discard(staged);
    throw new Error(reason);
  };

  const worker = new Worker(QUEUE_NAME, processRun, {
    connection: connectionOptions(opts.url),
    concurrency: opts.concurrency,
    name: opts.name,
    lockDuration: opts.lockMs,
    stalledInterval: opts.stalledMs,
    // Lost workers are counted against the job's own attempts (see processRun), not this worker-wide limit.
    maxStalledCount: 1000,
    autorun: true,
  });
  let lastError = "";
  worker.on("error", (e) => {
    // Redis going away repeats the same error on every reconnect; say it once.
    if (e.message !== lastError) opts.log(`queue error: ${e.message}`);
    lastError = e.message;
  });
  worker.on("ready", () => {
    if (lastError) opts.log(`connected to ${opts.url.display}`);
    lastError = "";
  });
  return {
    worker,
    async stop() {
      stopping = true;
      const closing = worker.close();
      await Promise.all([...kills.values()].map((k) => k("interrupted")));
      await closing;
    },
  };
}
