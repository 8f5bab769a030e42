/**
 * The submission validation server agents reach from inside the sandbox (upstream MLE-bench's
 * `validate_submission.sh` endpoint). It runs as a child process per run (validation-child.ts):
 * uploads, connection floods and slow checks cost that process, which has its own memory cap
 * (and, where cgroups are writable, a memory cgroup of the run's size), never the harness's event
 * loop, so deadlines and other runs are kept whatever the agent sends. It only ever says "valid"
 * or "invalid"; the score never leaves it.
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { builtSibling } from "../core/built.js";
import { createCgroup, type Cgroup } from "../sandbox/cgroup.js";
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
/** A server that keeps dying is given up on after this many restarts. */
const MAX_RESTARTS = 20;

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
  let cgroup: Cgroup | null = null;
  if (opts.cgroupName && opts.memoryBytes) {
    const made = createCgroup(opts.cgroupName, { memoryBytes: opts.memoryBytes, pids: 256, cpus: null });
    if ("cgroup" in made) cgroup = made.cgroup;
    else opts.log?.(`validation server: ${made.error}; its memory is bounded by its heap sizes only`);
  }

  let child: ChildProcess | null = null;
  let closing = false;
  let restarts = 0;
  let counted = 0;
  let asks = 0;
  const waiting = new Map<number, (n: number) => void>();

  const launch = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const c = fork(CHILD, [JSON.stringify(config)], {
        execArgv: [`--max-old-space-size=${mainMb}`],
        stdio: ["ignore", "ignore", "pipe", "ipc"],
        serialization: "json",
      });
      child = c;
      if (cgroup && c.pid !== undefined) {
        for (const procs of cgroup.procsFiles) {
          try {
            fs.writeFileSync(procs, String(c.pid));
          } catch {
            // exited already; the exit handler reports it
          }
        }
      }
      let stderr = "";
      c.stderr!.on("data", (d: Buffer) => {
        if (stderr.length < 4000) stderr += d.toString("utf8");
      });
      let started = false;
      c.on("message", (m: ChildMessage) => {
        if (m.type === "ready") {
          started = true;
          resolve();
        } else if (m.type === "failed") reject(new Error(`validation server: ${m.message}`));
        else if (m.type === "note") opts.log?.(m.line);
        else if (m.type === "count") {
          counted = m.requests;
          waiting.get(m.id)?.(m.requests);
          waiting.delete(m.id);
        }
      });
      c.on("error", (e) => {
        if (!started) reject(new Error(`validation server could not start: ${e.message}`));
      });
      c.on("exit", (code, signal) => {
        if (child === c) child = null;
        for (const [id, answer] of waiting) {
          answer(counted);
          waiting.delete(id);
        }
        if (!started) {
          reject(new Error(`validation server exited before listening (${signal ?? `exit ${code}`}): ${stderr.trim().split("\n").slice(-3).join(" ")}`));
          return;
        }
        if (closing) return;
        // Killed under the agent's load (its memory cap, say): the run goes on with a fresh one.
        const why = cgroup && (cgroup.stats().oomKills ?? 0) > 0 ? "out of memory" : (signal ?? `exit ${code}`);
        if (++restarts > MAX_RESTARTS) {
          opts.log?.(`validation server stopped (${why}) and was restarted ${MAX_RESTARTS} times; validation is off for the rest of the run`);
          return;
        }
        opts.log?.(`validation server stopped (${why}); starting it again`);
        setTimeout(() => {
          if (!closing) launch().catch((e: Error) => opts.log?.(e.message));
        }, 200).unref();
      });
    });

  try {
    await launch();
  } catch (e) {
    (child as ChildProcess | null)?.kill("SIGKILL");
    cgroup?.killAll("SIGKILL");
    cgroup?.destroy();
    throw e;
  }

  let closed: Promise<void> | null = null;
  return {
    socketPath: opts.socketPath,
    requests() {
      const c = child;
      if (!c || !c.connected) return Promise.resolve(counted);
      const id = ++asks;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        c.send({ type: "count", id } satisfies ParentMessage);
      });
    },
    close() {
      closed ??= (async () => {
        const c = child;
        if (c && c.exitCode === null && c.signalCode === null) {
          // The last count first: requests() after close still answers with it.
          await new Promise<void>((resolve) => {
            const id = ++asks;
            const timer = setTimeout(resolve, 2000);
            waiting.set(id, () => {
              clearTimeout(timer);
              resolve();
            });
            c.send({ type: "count", id } satisfies ParentMessage);
          });
          closing = true;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => c.kill("SIGKILL"), 3000);
            c.once("exit", () => {
              clearTimeout(timer);
              resolve();
            });
            if (c.connected) c.send({ type: "close" } satisfies ParentMessage);
            else c.kill("SIGKILL");
          });
        }
        closing = true;
        cgroup?.killAll("SIGKILL");
        cgroup?.destroy();
        fs.rmSync(opts.socketPath, { force: true });
      })();
      return closed;
    },
  };
}
