/**
 * The submission validation server agents reach from inside the sandbox (upstream MLE-bench's
 * `validate_submission.sh` endpoint). It runs as a child process per run (validation-child.ts):
 * uploads, connection floods and slow checks cost that process, which has its own memory cap
 * (and, where cgroups are writable, a memory cgroup of the run's size), never the harness's event
 * loop, so deadlines and other runs are kept whatever the agent sends. It only ever says "valid"
 * or "invalid"; the score never leaves it.
 */
import fs from "node:fs";
import { builtSibling } from "../core/built.js";
import { startServiceProcess } from "./service-process.js";
import type { ChildConfig, ChildMessage, ParentMessage } from "./validation-child.js";

export { INVALID_PREFIX, judgeSubmission, VALID_MESSAGE } from "./validation-judge.js";

/** A running validation server. */
export interface ValidationServer {
  socketPath: string;
  /** Requests answered so far (any route), for run statistics. */
  requests(): Promise<number>;
  /** Stop the server, drop open connections and remove the socket file. */
  close(): Promise<void>;
}

/** Options of {@link startValidationServer}. */
export interface ValidationServerOptions {
  socketPath: string;
  competitionId: string;
  /** The private answers file, read by the server process only. */
  answersFile: string;
  /** Largest accepted upload, bytes (default 256 MiB, or a quarter of `memoryBytes` if less: checking a file takes a few times its size). */
  maxUploadBytes?: number;
  /** Append one JSON line per request here (never the score). */
  logFile?: string;
  /** Validations in flight at once (uploading, waiting or being checked; each upload is on disk, not in memory); more are answered 503 (default 8). */
  maxConcurrent?: number;
  /** Open connections at once; more are closed as they arrive (default 64). */
  maxConnections?: number;
  /** Longest one check may take, ms (default 120 s); then the answer is 504. */
  checkTimeoutMs?: number;
  /** Longest an upload may take to arrive, ms (default 10 min). */
  uploadTimeoutMs?: number;
  /** Memory the server may use in all, bytes (null: 4 GiB of heap); the run's memory limit, typically. */
  memoryBytes?: number | null;
  /** Name of a cgroup to hold the server, with `memoryBytes` as its limit, where cgroups are writable. */
  cgroupName?: string;
  /** Lines worth a run's log (restarts, load failures). */
  log?: (line: string) => void;
}

const DEFAULT_MAX_UPLOAD = 256 * 1024 * 1024;
const CHILD = builtSibling(import.meta.url, "validation-child.js");

/** Heap sizes for the server and its grading thread within a memory budget. */
function heaps(memoryBytes: number | null | undefined): { mainMb: number; workerMb: number } {
  if (!memoryBytes) return { mainMb: 512, workerMb: 4096 };
  const mb = Math.floor(memoryBytes / (1024 * 1024));
  return { mainMb: Math.max(64, Math.floor(mb / 8)), workerMb: Math.max(128, Math.floor(mb / 2)) };
}

/** Start the server on a Unix socket that the sandbox's (non-root) user can connect to; resolves once it listens. */
export async function startValidationServer(opts: ValidationServerOptions): Promise<ValidationServer> {
  const { mainMb, workerMb } = heaps(opts.memoryBytes);
  const config: ChildConfig = {
    socketPath: opts.socketPath,
    competitionId: opts.competitionId,
    answersFile: opts.answersFile,
    logFile: opts.logFile ?? null,
    maxUploadBytes: opts.maxUploadBytes ?? (opts.memoryBytes ? Math.max(1 << 20, Math.min(DEFAULT_MAX_UPLOAD, Math.floor(opts.memoryBytes / 4))) : DEFAULT_MAX_UPLOAD),
    maxConcurrent: opts.maxConcurrent ?? 8,
    maxConnections: opts.maxConnections ?? 64,
    checkTimeoutMs: opts.checkTimeoutMs ?? 120_000,
    uploadTimeoutMs: opts.uploadTimeoutMs ?? 600_000,
    workerHeapMb: workerMb,
  };
  // Each count request is answered by the child; a child that dies answers with the last count known.
  let counted = 0;
  let asks = 0;
  const waiting = new Map<number, (n: number) => void>();
  const answerAll = () => {
    for (const [id, answer] of waiting) {
      answer(counted);
      waiting.delete(id);
    }
  };
  const service = await startServiceProcess({
    name: "validation server",
    entry: CHILD,
    config,
    heapMb: mainMb,
    cgroup: opts.cgroupName && opts.memoryBytes ? { name: opts.cgroupName, memoryBytes: opts.memoryBytes } : undefined,
    log: opts.log,
    onMessage: (m) => {
      const c = m as Extract<ChildMessage, { type: "count" }>;
      if (c.type !== "count") return;
      counted = c.requests;
      waiting.get(c.id)?.(c.requests);
      waiting.delete(c.id);
    },
    onExit: answerAll,
  });
  const count = (): Promise<number> => {
    const id = ++asks;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      if (!service.send({ type: "count", id } satisfies ParentMessage)) answerAll();
    });
  };

  let closed: Promise<void> | null = null;
  return {
    socketPath: opts.socketPath,
    requests: count,
    close() {
      closed ??= (async () => {
        // The last count first, so requests() after close still answers with it.
        await Promise.race([count(), new Promise((r) => setTimeout(r, 2000).unref())]);
        await service.close();
        fs.rmSync(opts.socketPath, { force: true });
      })();
      return closed;
    },
  };
}
