import fs from "node:fs";
import path from "node:path";
import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import type { Competition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import { createGroupDir, openGroup } from "../runner/group.js";
import { readRunRecord, type GroupMetadata } from "../runner/record.js";
import { jobId, QUEUE_NAME, type RunJob } from "./jobs.js";
import { queueProgressView } from "./progress.js";
import { groupFinished, groupState, refreshMetadata, type RunState } from "./state.js";
import { connectionOptions, type RedisUrl } from "./url.js";

/** How long a completed job's run dir may take to show up on the shared filesystem. */
const PUBLISH_WAIT_MS = 120_000;

/** What every job of a group shares: the agent (no secrets), limits, sandbox and GPU policy. */
export type JobTemplate = Omit<RunJob, "version" | "group" | "run_id" | "competition_id" | "seed">;

/** A run group to enqueue (or resume) and, unless detached, follow to its end. */
export interface ProducerOptions {
  url: RedisUrl;
  runsDir: string;
  /** An existing group dir to enqueue again and follow. */
  resume?: string;
  competitions: Competition[];
  seeds: number;
  template: JobTemplate;
  /** Tries per run, lost workers included. */
  maxAttempts: number;
  /** Recorded in metadata.json. */
  options: Record<string, unknown>;
  detach: boolean;
  /** How often job states are read while following (QueueEvents also wake the follower). */
  pollMs?: number;
  progress: boolean;
  /** Aborting stops following (the jobs go on on the workers). */
  signal?: AbortSignal;
}

/** The group and the last known state of each of its runs. */
export interface ProducerResult {
  groupDir: string;
  runGroup: string;
  states: RunState[];
  /** False when detached or stopped before the group ended. */
  finished: boolean;
}

/** Fail fast with a clear message when Redis cannot be reached (BullMQ itself would retry forever). */
export async function checkReachable(url: RedisUrl, timeoutMs = 10_000): Promise<void> {
  const client = new Redis({ ...connectionOptions(url), lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: timeoutMs });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
  } catch (e) {
    throw new UserError(`--queue: cannot reach Redis at ${url.display}: ${(e as Error).message}`);
  } finally {
    client.disconnect();
  }
}

/** Enqueue one job per unfinished run; ids are stable, so runs already queued are not queued twice. */
async function enqueue(queue: Queue, groupDir: string, meta: GroupMetadata, opts: ProducerOptions): Promise<void> {
  for (const t of meta.tasks) {
    const runDir = path.join(groupDir, t.run_id);
    const record = readRunRecord(runDir);
    if (record?.status === "completed") continue;
    const id = jobId(meta.run_group, t.run_id);
    if (record) {
      // Resuming retries runs that failed for good: set the failed result aside so a new one can be published.
      fs.mkdirSync(path.join(groupDir, ".staging"), { recursive: true });
      fs.renameSync(runDir, path.join(groupDir, ".staging", `${t.run_id}.failed-${Date.now()}`));
    }
    const job = await queue.getJob(id);
    if (job && (await job.getState()) === "failed") {
      await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
      continue;
    }
    if (job) continue;
    await addJob(queue, meta.run_group, t, opts);
  }
}

async function addJob(queue: Queue, group: string, t: GroupMetadata["tasks"][number], opts: ProducerOptions): Promise<void> {
  const data: RunJob = { version: 1, group, run_id: t.run_id, competition_id: t.competition_id, seed: t.seed, ...opts.template };
  await queue.add("run", data, {
    jobId: jobId(group, t.run_id),
    attempts: opts.maxAttempts,
    // Kept so `mlebench status` can say who ran what and why a run failed.
    removeOnComplete: false,
    removeOnFail: false,
  });
}

/** Create (or reopen) a run group, enqueue its runs on Redis and follow them until every one has ended. */
export async function runOnQueue(opts: ProducerOptions): Promise<ProducerResult> {
  await checkReachable(opts.url);
  const connection = connectionOptions(opts.url);
  const queue = new Queue(QUEUE_NAME, { connection });
  let events: QueueEvents | null = null;
  const view = queueProgressView(opts.progress);
  try {
    const agentId = opts.template.agent.id;
    const { groupDir, meta } = opts.resume
      ? openGroup(opts.resume, agentId)
      : createGroupDir(opts.runsDir, agentId, opts.competitions, opts.seeds, opts.options);
    await enqueue(queue, groupDir, meta, opts);
    let states = await groupState(groupDir, meta, queue);
    if (opts.detach) return { groupDir, runGroup: meta.run_group, states, finished: false };

    view.planned(groupDir, opts.url.display, states);
    events = new QueueEvents(QUEUE_NAME, { connection });
    events.on("error", () => {});
    let wake: () => void = () => {};
    const nudge = () => wake();
    for (const e of ["active", "completed", "failed", "waiting", "stalled"] as const) events.on(e, nudge);
    const pollMs = opts.pollMs ?? 1000;
    const publishing = new Map<string, number>();
    while (!opts.signal?.aborted) {
      states = await groupState(groupDir, meta, queue);
      for (const s of states) {
        if (!s.reason?.startsWith("publishing:")) {
          publishing.delete(s.run_id);
          continue;
        }
        const since = publishing.get(s.run_id) ?? Date.now();
        publishing.set(s.run_id, since);
        // A shared filesystem shows a rename within seconds; a run dir missing for minutes is gone.
        if (Date.now() - since > PUBLISH_WAIT_MS) {
          s.state = "failed";
          s.reason = `its job completed on ${s.worker ?? "a worker"}, but ${path.join(groupDir, s.run_id)} never appeared`;
        }
      }
      // A job Redis lost (restarted without persistence) is queued again under the same id.
      for (const s of states.filter((x) => x.state === "missing")) {
        await addJob(queue, meta.run_group, meta.tasks.find((t) => t.run_id === s.run_id)!, opts);
      }
      view.update(states);
      refreshMetadata(groupDir, meta, states);
      if (groupFinished(states)) return { groupDir, runGroup: meta.run_group, states, finished: true };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        wake = done;
        opts.signal?.addEventListener("abort", done, { once: true });
      });
    }
    return { groupDir, runGroup: meta.run_group, states, finished: false };
  } finally {
    view.stop();
    await events?.close().catch(() => {});
    await queue.close().catch(() => {});
  }
}
