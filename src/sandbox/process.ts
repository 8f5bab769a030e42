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
export interface ProcessOptions extends CaptureOptions {
  env: Record<string, string>;
  cwd?: string;
  input?: string;
  timeoutMs?: number;
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

/** Where a command's output goes: kept in memory up to a limit, appended to a log within a budget, and passed on. */
export interface CaptureOptions {
  /** Bytes of stdout and of stderr kept in memory (default 1 MiB each). */
  outputLimit?: number;
  /** Append both streams to this file, within `budget`. */
  logFile?: string;
  budget?: OutputBudget;
  onOutput?: (chunk: Buffer, stream: "stdout" | "stderr") => void;
}

/** The output of one command as it arrives, for `runProcess` and the exec server's client alike. */
export class OutputCapture {
  private readonly limit: number;
  private readonly captured = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  private readonly sizes = { stdout: 0, stderr: 0 };
  private log: number | null;
  truncated = false;

  constructor(private readonly opts: CaptureOptions) {
    this.limit = opts.outputLimit ?? DEFAULT_OUTPUT_LIMIT;
    this.log = opts.logFile ? fs.openSync(opts.logFile, "a") : null;
  }

  add(chunk: Buffer, stream: "stdout" | "stderr"): void {
    this.opts.onOutput?.(chunk, stream);
    const room = this.limit - this.sizes[stream];
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.captured[stream].push(part);
      this.sizes[stream] += part.length;
    }
    if (chunk.length > room) this.truncated = true;
    if (this.log !== null) {
      const part = this.opts.budget ? this.opts.budget.take(chunk) : chunk;
      if (part.length > 0) fs.writeSync(this.log, part);
    }
  }

  /** Close the log file; later output is still kept in memory. */
  close(): void {
    if (this.log !== null) fs.closeSync(this.log);
    this.log = null;
  }

  text(stream: "stdout" | "stderr"): string {
    return Buffer.concat(this.captured[stream]).toString("utf8");
  }
}

/**
 * Run argv as the leader of a new process group (so the whole tree can be signalled), with
 * capped output capture, an optional log file and a wall-clock limit.
 */
export function runProcess(argv: string[], opts: ProcessOptions): Promise<ProcessResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe", ...childStdio(opts.extraFds ?? [])],
    });
    if (child.pid !== undefined) opts.onSpawn?.(child.pid);
    const capture = new OutputCapture(opts);
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    child.stdout!.on("data", (c: Buffer) => capture.add(c, "stdout"));
    child.stderr!.on("data", (c: Buffer) => capture.add(c, "stderr"));
    if (opts.input !== undefined) {
      child.stdin!.on("error", () => {}); // a command that never reads its input is not an error
      child.stdin!.end(opts.input);
    }

    child.on("error", (e) => {
      if (timer) clearTimeout(timer);
      capture.close();
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
      capture.close();
      resolve({
        pid: child.pid ?? -1,
        exitCode: code,
        signal,
        timedOut,
        stdout: capture.text("stdout"),
        stderr: capture.text("stderr"),
        truncated: capture.truncated,
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
