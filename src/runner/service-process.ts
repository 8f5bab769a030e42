/**
 * A harness service that agents talk to (the validation server, the egress proxy) run as a child
 * process of its own: whatever an agent sends it costs that process's memory, descriptors and
 * event loop, never the harness's. The child is started from a compiled entry module, told its
 * settings as JSON in argv[2], reports `{type: "ready"}` once it listens (or `{type: "failed"}`),
 * is started again if it dies under load, and stops on `{type: "close"}` or when the harness goes.
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createCgroup, type Cgroup } from "../sandbox/cgroup.js";

/** What every service child may send besides its own messages. */
export type ServiceMessage = { type: "ready" } | { type: "failed"; message: string } | { type: "note"; line: string } | { type: string };

/** How to start one service. */
export interface ServiceOptions {
  /** The service's name in messages ("validation server"). */
  name: string;
  /** The compiled entry module. */
  entry: string;
  /** Settings handed to the child (JSON). */
  config: unknown;
  /** Old-generation heap of the child, MiB. */
  heapMb: number;
  /** A cgroup to hold the child, with this memory limit, where cgroups are writable. */
  cgroup?: { name: string; memoryBytes: number };
  /** Lines worth the run's log (restarts, failures, the child's notes). */
  log?: (line: string) => void;
  /** The child's own messages (not ready/failed/note). */
  onMessage?: (m: ServiceMessage) => void;
  /** Called when the child is gone for good or between restarts, so waiting callers can be answered. */
  onExit?: () => void;
}

/** A running service process. */
export interface ServiceProcess {
  /** Send a message to the child now running; false when none is. */
  send(message: unknown): boolean;
  /** Stop the child (and remove its cgroup); idempotent. */
  close(): Promise<void>;
}

/** A service that keeps dying is given up on after this many restarts. */
const MAX_RESTARTS = 20;

/** Start the service; resolves once it is ready, rejects with the reason when it cannot start. */
export async function startServiceProcess(opts: ServiceOptions): Promise<ServiceProcess> {
  let cgroup: Cgroup | null = null;
  if (opts.cgroup) {
    const made = createCgroup(opts.cgroup.name, { memoryBytes: opts.cgroup.memoryBytes, pids: 256, cpus: null });
    if ("cgroup" in made) cgroup = made.cgroup;
    else opts.log?.(`${opts.name}: ${made.error}; its memory is bounded by its heap size only`);
  }
  let child: ChildProcess | null = null;
  let closing = false;
  let restarts = 0;

  const launch = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const c = fork(opts.entry, [JSON.stringify(opts.config)], {
        execArgv: [`--max-old-space-size=${opts.heapMb}`],
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
      c.on("message", (m: ServiceMessage) => {
        if (m.type === "ready") {
          started = true;
          resolve();
        } else if (m.type === "failed") reject(new Error(`${opts.name}: ${(m as { message: string }).message}`));
        else if (m.type === "note") opts.log?.((m as { line: string }).line);
        else opts.onMessage?.(m);
      });
      c.on("error", (e) => {
        if (!started) reject(new Error(`${opts.name} could not start: ${e.message}`));
      });
      c.on("exit", (code, signal) => {
        if (child === c) child = null;
        opts.onExit?.();
        if (!started) {
          reject(new Error(`${opts.name} exited before listening (${signal ?? `exit ${code}`}): ${stderr.trim().split("\n").slice(-3).join(" ")}`));
          return;
        }
        if (closing) return;
        // Killed under the agent's load (its memory cap, say): the run goes on with a fresh one.
        const why = cgroup && (cgroup.stats().oomKills ?? 0) > 0 ? "out of memory" : (signal ?? `exit ${code}`);
        if (++restarts > MAX_RESTARTS) {
          opts.log?.(`${opts.name} stopped (${why}) and was restarted ${MAX_RESTARTS} times; it stays off for the rest of the run`);
          return;
        }
        opts.log?.(`${opts.name} stopped (${why}); starting it again`);
        setTimeout(() => {
          if (!closing) launch().catch((e: Error) => opts.log?.(e.message));
        }, 200).unref();
      });
    });

  const dropCgroup = () => {
    cgroup?.killAll("SIGKILL");
    cgroup?.destroy();
  };
  try {
    await launch();
  } catch (e) {
    closing = true;
    (child as ChildProcess | null)?.kill("SIGKILL");
    dropCgroup();
    throw e;
  }

  let closed: Promise<void> | null = null;
  return {
    send(message) {
      const c = child;
      if (!c || !c.connected) return false;
      c.send(message as object);
      return true;
    },
    close() {
      closed ??= (async () => {
        closing = true;
        const c = child;
        if (c && c.exitCode === null && c.signalCode === null) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => c.kill("SIGKILL"), 3000);
            c.once("exit", () => {
              clearTimeout(timer);
              resolve();
            });
            if (c.connected) c.send({ type: "close" });
            else c.kill("SIGKILL");
          });
        }
        dropCgroup();
      })();
      return closed;
    },
  };
}
