import type { Queue } from "bullmq";
import type { GroupMetadata, RunRecord } from "../results/record.js";
import { eachLimit } from "../core/each-limit.js";
import { jobId } from "./jobs.js";
import type { ResultStore } from "./result-store.js";

/** Where one run of a group stands, from its job in Redis and its published run dir. */
export interface RunState {
  run_id: string;
  competition_id: string;
  seed: number;
  /** queued | running | completed | failed | missing (no job in Redis and no result). */
  state: "queued" | "running" | "completed" | "failed" | "missing";
  /** The worker that runs or ran it. */
  worker: string | null;
  /** Times a worker started it (retries and lost workers included). */
  attempts: number;
  started_at_ms: number | null;
  /** The job's failure reason, or the run's error. */
  reason: string | null;
  record: RunRecord | null;
}

/** Runs whose state is read at the same time. */
const READS = 16;

/** Map BullMQ's job states onto the few a user cares about. */
function simpleState(s: string): RunState["state"] {
  if (s === "active") return "running";
  if (s === "completed" || s === "failed") return s;
  if (s === "unknown") return "missing";
  return "queued"; // waiting, delayed, prioritized, waiting-children
}

/**
 * The state of every task of a group; `queue` null reads only the published runs. `known` keeps the published
 * records already read (they are final), so following a large group does not read every run from the store each time.
 */
export async function groupState(store: ResultStore, meta: GroupMetadata, queue: Queue | null, known = new Map<string, RunRecord>()): Promise<RunState[]> {
  const out: RunState[] = new Array(meta.tasks.length);
  // Each run is a few round trips (Redis, and S3 where the group lives in a bucket): ask for many runs at once.
  await eachLimit([...meta.tasks.keys()], READS, async (index) => {
    const t = meta.tasks[index];
    // Redis first, the store second: a worker publishes the run before it completes the job, so a
    // completed job read first guarantees its run is found (unless the shared filesystem lags).
    const job = queue ? await queue.getJob(jobId(meta.run_group, t.run_id)) : undefined;
    const jobState = job ? simpleState(await job.getState()) : null;
    let record = known.get(t.run_id) ?? null;
    // A queued or running job has nothing published yet (a run is published just before its job completes).
    if (!record && (jobState === null || jobState === "completed" || jobState === "failed" || jobState === "missing")) {
      record = await store.published(meta.run_group, t.run_id);
      if (record?.status === "completed" || record?.status === "failed") known.set(t.run_id, record);
    }
    const row: RunState = {
      run_id: t.run_id,
      competition_id: t.competition_id,
      seed: t.seed,
      state: jobState ?? (queue ? "missing" : "queued"),
      worker: job?.processedBy ?? null,
      attempts: Math.max(record?.attempts ?? 0, job?.attemptsStarted ?? 0),
      started_at_ms: job?.processedOn ?? null,
      reason: job?.failedReason || record?.error || null,
      record,
    };
    const published = record?.status === "completed" || record?.status === "failed" ? record.status : null;
    // A published run is final whatever Redis says (it may have lost the job, or not heard yet).
    if (published) row.state = published;
    // A completed job whose run is not visible yet (a lagging shared filesystem) is still being published.
    if (row.state === "completed" && !published) {
      row.state = "running";
      row.reason = `publishing: the run is not visible in ${store.describe()} yet`;
    }
    out[index] = row;
  });
  return out;
}

/** Whether every run has ended (completed or failed). */
export function groupFinished(states: RunState[]): boolean {
  return states.every((s) => s.state === "completed" || s.state === "failed");
}

/** Record the published outcomes in metadata.json, as a local run group does after each run. */
export async function refreshMetadata(store: ResultStore, meta: GroupMetadata, states: RunState[]): Promise<void> {
  let changed = false;
  for (const s of states) {
    if (!s.record || meta.runs[s.run_id]?.status === s.record.status) continue;
    meta.runs[s.run_id] = { success: s.record.status === "completed", status: s.record.status, exit_reason: s.record.exit_reason };
    changed = true;
  }
  if (changed) await store.writeGroup(meta);
}
