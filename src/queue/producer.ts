import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import type { Competition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import type { GroupMetadata, RunRecord } from "../results/record.js";
import { jobId, QUEUE_NAME, type RunJob } from "./jobs.js";
import { queueProgressView } from "./progress.js";
import { groupFinished, groupState, refreshMetadata, type RunState } from "./state.js";
import { requireGroupAgent } from "../runner/group.js";
import type { ResultStore } from "./result-store.js";
import { requireGroup } from "./store.js";
import { connectionOptions, type RedisUrl } from "./url.js";

/** How long a completed job's run may take to show up in the store (a shared filesystem can lag). */
const PUBLISH_WAIT_MS = 120_000;

/** What every job of a group shares: the agent (no secrets), limits, sandbox and GPU policy. */
export type JobTemplate = Omit<RunJob, "version" | "group" | "run_id" | "competition_id" | "seed">;

/** A run group to enqueue (or resume) and, unless detached, follow to its end. */
export interface ProducerOptions {
  url: RedisUrl;
  /** Where the group lives (shared with the workers). */
  store: ResultStore;
  /** The name of an existing group in the store to enqueue again and follow. */
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
  /** The group's dir or s3:// URL. */
  location: string;
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
async function enqueue(queue: Queue, meta: GroupMetadata, opts: ProducerOptions): Promise<void> {
  for (const t of meta.tasks) {
    const record = await opts.store.published(meta.run_group, t.run_id);
    if (record?.status === "completed") continue;
    const id = jobId(meta.run_group, t.run_id);
    // Resuming retries runs that failed for good: set the failed result aside so a new one can be published.
    if (record) await opts.store.setAside(meta.run_group, t.run_id);
    const job = await queue.getJob(id);
    if (job && (await job.getState()) === "failed") {
      await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
      continue;
    }
    if (job) continue;
    await addJob(queue, meta.run_group, t, opts);
  }
}

/** Open the group to resume, checking it was run with the same agent. */
async function resumeGroup(store: ResultStore, group: string, agentId: string): Promise<GroupMetadata> {
  const meta = await requireGroup(store, group, "--resume");
  requireGroupAgent(meta, agentId, store.location(group));
  return meta;
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
    const { store } = opts;
    const meta = opts.resume
      ? await resumeGroup(store, opts.resume, agentId)
      : await store.createGroup(agentId, opts.competitions, opts.seeds, opts.options);
    const location = store.location(meta.run_group);
    await enqueue(queue, meta, opts);
    const known = new Map<string, RunRecord>();
    let states = await groupState(store, meta, queue, known);
    if (opts.detach) return { location, runGroup: meta.run_group, states, finished: false };

    view.planned(location, opts.url.display, states);
    events = new QueueEvents(QUEUE_NAME, { connection });
    events.on("error", () => {});
    let wake: () => void = () => {};
    const nudge = () => wake();
    for (const e of ["active", "completed", "failed", "waiting", "stalled"] as const) events.on(e, nudge);
    const pollMs = opts.pollMs ?? 1000;
    const publishing = new Map<string, number>();
    while (!opts.signal?.aborted) {
      states = await groupState(store, meta, queue, known);
      for (const s of states) {
        if (!s.reason?.startsWith("publishing:")) {
          publishing.delete(s.run_id);
          continue;
        }
        const since = publishing.get(s.run_id) ?? Date.now();
        publishing.set(s.run_id, since);
        // A shared filesystem shows a rename within seconds; a run missing for minutes is gone.
        if (Date.now() - since > PUBLISH_WAIT_MS) {
          s.state = "failed";
          s.reason = `its job completed on ${s.worker ?? "a worker"}, but ${store.location(meta.run_group, s.run_id)} never appeared`;
        }
      }
      // A job Redis lost (restarted without persistence) is queued again under the same id.
      for (const s of states.filter((x) => x.state === "missing")) {
        await addJob(queue, meta.run_group, meta.tasks.find((t) => t.run_id === s.run_id)!, opts);
      }
      view.update(states);
      await refreshMetadata(store, meta, states);
      if (groupFinished(states)) {
        // Every run is published: what is still staged belongs to attempts of lost workers.
        await store.sweep(meta.run_group);
        return { location, runGroup: meta.run_group, states, finished: true };
      }
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
    return { location, runGroup: meta.run_group, states, finished: false };
  } finally {
    view.stop();
    await events?.close().catch(() => {});
    await queue.close().catch(() => {});
  }
}
