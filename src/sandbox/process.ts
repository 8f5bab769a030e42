import { spawn } from "node:child_process";
import fs from "node:fs";
import { childStdio } from "./fds.js";

/** A byte budget shared by every command of a run, so logs/agent.log cannot grow without bound. */
export class OutputBudget {
  dropped = 0;
  constructor(public remaining: number) {}

  /** The part of `chunk` that still fits; counts what does not. */
  take(chunk: Buffer): Buffer {
    if (chunk.length <= this.remaining) {
      this.remaining -= chunk.length;
      return chunk;
    }
    const kept = chunk.subarray(0, Math.max(0, this.remaining));
    this.dropped += chunk.length - kept.length;
    this.remaining = 0;
    return kept;
  }
}

/** How to start and stop one host process that runs a sandboxed command. */
export interface ProcessOptions {
  env: Record<string, string>;
  cwd?: string;
  input?: string;
  timeoutMs?: number;
  /** Bytes of stdout and of stderr kept in memory (default 1 MiB each). */
  outputLimit?: number;
  /** Append both streams to this file, within `budget`. */
  logFile?: string;
  budget?: OutputBudget;
  onOutput?: (chunk: Buffer, stream: "stdout" | "stderr") => void;
  /** Called on timeout instead of the default (SIGTERM the group, SIGKILL after graceMs). */
  onTimeout?: (pid: number) => void;
  /** Open file descriptors handed to the child as fd 3, 4, ... */
  extraFds?: number[];
  /** Called once the process exists, with its pid (also its process group id). */
  onSpawn?: (pid: number) => void;
  /** Called when the leader exits, to stop what it left behind (daemons keep the pipes open). */
  onExit?: (pid: number) => void;
  graceMs?: number;
}

/** What a host process did. */
export interface ProcessResult {
  pid: number;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  truncated: boolean;
  wallMs: number;
}

const DEFAULT_OUTPUT_LIMIT = 1 << 20;

/** Send a signal to a whole process group, ignoring groups that are already gone. */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already exited
    }
  }
}

/** Host pids of every descendant of `root` (found through /proc, so pid namespaces do not hide them). */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return [];
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${e}/stat`, "utf8");
    } catch {
      continue;
    }
    // The command name may contain spaces and parentheses; fields resume after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(e));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    for (const c of children.get(stack.pop()!) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

/** A process's start time in clock ticks since boot (with its pid, an identity that survives pid reuse), or null when it is gone. */
export function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields resume after the command name's last ")"; the start time is field 22.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/** The command name of a process ("" when it is gone). */
export function processName(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}

/** Terminate a process group: SIGTERM now, SIGKILL after `graceMs` if anything is left. */
export function terminateGroup(pid: number, graceMs: number): void {
  killGroup(pid, "SIGTERM");
  const timer = setTimeout(() => killGroup(pid, "SIGKILL"), graceMs);
  timer.unref();
}

/**
 * Run argv as the leader of a new process group (so the whole tree can be signalled), with
 * capped output capture, an optional log file and a wall-clock limit.
 */
export function runProcess(argv: string[], opts: ProcessOptions): Promise<ProcessResult> {
  const limit = opts.outputLimit ?? DEFAULT_OUTPUT_LIMIT;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe", ...childStdio(opts.extraFds ?? [])],
    });
    if (child.pid !== undefined) opts.onSpawn?.(child.pid);
    const log = opts.logFile ? fs.openSync(opts.logFile, "a") : null;
    const captured = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    const sizes = { stdout: 0, stderr: 0 };
    let truncated = false;
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;

    const collect = (stream: "stdout" | "stderr") => (chunk: Buffer) => {
      opts.onOutput?.(chunk, stream);
      const room = limit - sizes[stream];
      if (room > 0) {
        const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
        captured[stream].push(part);
        sizes[stream] += part.length;
      }
      if (chunk.length > room) truncated = true;
      if (log !== null) {
        const part = opts.budget ? opts.budget.take(chunk) : chunk;
        if (part.length > 0) fs.writeSync(log, part);
      }
    };
    child.stdout!.on("data", collect("stdout"));
    child.stderr!.on("data", collect("stderr"));
    if (opts.input !== undefined) {
      child.stdin!.on("error", () => {}); // a command that never reads its input is not an error
      child.stdin!.end(opts.input);
    }

    child.on("error", (e) => {
      if (timer) clearTimeout(timer);
      if (log !== null) fs.closeSync(log);
      reject(new Error(`Cannot start ${argv[0]}: ${e.message}`));
    });
    if (opts.timeoutMs !== undefined && child.pid !== undefined) {
      const pid = child.pid;
      timer = setTimeout(() => {
        timedOut = true;
        if (opts.onTimeout) opts.onTimeout(pid);
        else terminateGroup(pid, opts.graceMs ?? 5000);
      }, Math.max(0, opts.timeoutMs));
    }
    let finished = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (finished) return;
      finished = true;
      if (timer) clearTimeout(timer);
      if (log !== null) fs.closeSync(log);
      resolve({
        pid: child.pid ?? -1,
        exitCode: code,
        signal,
        timedOut,
        stdout: Buffer.concat(captured.stdout).toString("utf8"),
        stderr: Buffer.concat(captured.stderr).toString("utf8"),
        truncated,
        wallMs: Date.now() - started,
      });
    };
    child.on("exit", (code, signal) => {
      if (child.pid !== undefined) opts.onExit?.(child.pid);
      // Processes that escaped the group may still hold the pipes; do not wait for them forever.
      const late = setTimeout(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
        finish(code, signal);
      }, 2000);
      late.unref();
      child.on("close", () => {
        clearTimeout(late);
        finish(code, signal);
      });
    });
  });
}
