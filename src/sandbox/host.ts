import fs from "node:fs";
import { createCgroup, joinPrefix, type Cgroup } from "./cgroup.js";
import { measureDisk } from "./disk.js";
import { ExecServer, type ServerLaunch } from "./exec-server.js";
import { OutputBudget, descendants, killGroup, runProcess, type ProcessResult } from "./process.js";
import {
  STOP_GRACE_MS,
  type ExecOptions,
  type ExecResult,
  type ExitReason,
  type ResourcePeaks,
  type Sandbox,
  type SandboxPaths,
  type SandboxSpec,
} from "./types.js";

/** How a backend turns a command into the host argv and environment that run it. */
export interface Wrapper {
  /** Host argv; may return fds to pass as 3, 4, ... (closed by the caller after spawn). */
  argv(
    command: string[],
    cwd: string,
    env: Record<string, string>,
    cgroupLimited: boolean,
  ): { argv: string[]; fds?: number[] };
  /** Environment of the host process (for bwrap: nearly empty; the command's env is in argv). */
  hostEnv(commandEnv: Record<string, string>): Record<string, string>;
  /** Host working directory of the host process. */
  hostCwd(cwd: string): string | undefined;
  /**
   * Whether a descendant should get SIGTERM first: the sandbox's own supervisor processes
   * (bwrap) must not, since their death kills everything at once and leaves no grace period.
   */
  graceful?(pid: number): boolean;
  /**
   * Set where the backend runs a run's commands through one exec server (init.mjs --serve) instead
   * of a sandbox each: how to start the server (the cgroup join is added here), and the argv the
   * server starts for a command.
   */
  server?: {
    launch(cgroupLimited: boolean): ServerLaunch;
    command(argv: string[], cgroupLimited: boolean): string[];
  };
}

/**
 * A sandbox whose commands are host processes (bwrap, local): one cgroup per run for memory,
 * pids and CPUs, a deadline for the whole run, disk polling and kill of whole process trees.
 */
export class HostSandbox implements Sandbox {
  readonly warnings: string[] = [];
  private readonly cgroup: Cgroup | null;
  private readonly deadline: number;
  private readonly budget: OutputBudget;
  private readonly running = new Set<number>();
  private killedReason: ExitReason | null = null;
  private diskPeak = 0;
  private poll: NodeJS.Timeout | null = null;
  private closed = false;
  private finalPeaks: ResourcePeaks | null = null;
  private readonly served: ExecServer | null;

  constructor(
    readonly backend: string,
    readonly paths: SandboxPaths,
    private readonly spec: SandboxSpec,
    private readonly wrapper: Wrapper,
    private readonly cleanup: () => Promise<void> = async () => {},
    readonly agentOwner?: { uid: number; gid: number },
  ) {
    const { limits } = spec;
    const wantsCgroup = limits.memoryBytes !== null || limits.pids !== null || limits.cpus !== null;
    const made = createCgroup(`mlebench-${spec.id}`, limits);
    if ("cgroup" in made) this.cgroup = made.cgroup;
    else {
      this.cgroup = null;
      if (wantsCgroup) this.warnings.push(`${made.error}; memory, pid and CPU limits are not enforced`);
    }
    this.deadline = limits.wallMs === null ? Number.POSITIVE_INFINITY : Date.now() + limits.wallMs;
    this.budget = new OutputBudget(limits.outputBytes);
    this.poll = setInterval(() => void this.sample(), spec.pollMs ?? 10_000);
    this.poll.unref();
    const server = wrapper.server;
    this.served =
      server === undefined
        ? null
        : new ExecServer(() => {
            const launch = server.launch(this.cgroup !== null);
            return { ...launch, argv: [...joinPrefix(this.cgroup), ...launch.argv] };
          });
  }

  /** Whether any command of the agent runs now. */
  private get busy(): boolean {
    return this.running.size > 0 || (this.served?.inFlight ?? 0) > 0;
  }

  /** Bytes of agent output dropped because the run's output cap was reached. */
  get droppedOutput(): number {
    return this.budget.dropped;
  }

  private sampling = false;

  private async sample(): Promise<void> {
    this.cgroup?.stats();
    if (!this.busy || this.sampling) return;
    this.sampling = true;
    let used = 0;
    try {
      used = await this.diskNow();
    } finally {
      this.sampling = false;
    }
    this.diskPeak = Math.max(this.diskPeak, used);
    const cap = this.spec.limits.diskBytes;
    if (cap !== null && used > cap && this.killedReason === null) await this.kill("disk_limit");
  }

  /** Disk held by the run now: its own filesystem's count where it has one, else measured; plus what the harness keeps for it. */
  private async diskNow(): Promise<number> {
    const extra = this.spec.diskExtra?.() ?? 0;
    if (this.spec.diskUsed) return this.spec.diskUsed() + extra;
    return (await measureDisk(Object.values(this.spec.writable), this.agentPids())) + extra;
  }

  /** Host pids of the agent's processes now: the cgroup's members, else the running commands' trees. */
  private agentPids(): number[] {
    const procs = this.cgroup?.procsFiles[0];
    if (procs) {
      try {
        return fs.readFileSync(procs, "utf8").split("\n").filter(Boolean).map(Number);
      } catch {
        // the cgroup is gone
      }
    }
    const roots = [...this.running];
    if (this.served?.pid) roots.push(this.served.pid);
    return roots.flatMap((pid) => [pid, ...descendants(pid)]);
  }

  async exec(argv: string[], opts: ExecOptions = {}): Promise<ExecResult> {
    if (this.closed) throw new Error("sandbox is closed");
    const remaining = this.deadline - Date.now();
    if (this.killedReason !== null || remaining <= 0) {
      const reason = this.killedReason ?? "time_limit";
      return { exitCode: null, signal: null, reason, stdout: "", stderr: "", truncated: false, wallMs: 0 };
    }
    const timeoutMs = Math.min(opts.timeoutMs ?? Number.POSITIVE_INFINITY, remaining);
    const cwd = opts.cwd ?? this.paths.workspace;
    const env = { ...this.spec.env, ...opts.env };
    const oomBefore = this.cgroup?.stats().oomKills ?? 0;
    const result = this.served
      ? await this.execServed(this.served, argv, cwd, env, opts, timeoutMs)
      : await this.execDirect(argv, cwd, env, opts, timeoutMs);
    const oomAfter = this.cgroup?.stats().oomKills ?? 0;
    let reason: ExitReason;
    if (this.killedReason !== null) reason = this.killedReason;
    else if (result.timedOut) reason = "time_limit";
    else if (oomAfter > oomBefore && result.exitCode !== 0) reason = "oom";
    else reason = result.exitCode === 0 ? "finished" : "crashed";
    return {
      exitCode: result.exitCode,
      signal: result.signal,
      reason,
      stdout: result.stdout,
      stderr: result.stderr,
      truncated: result.truncated,
      wallMs: result.wallMs,
    };
  }

  /** One command as a sandbox of its own. */
  private async execDirect(argv: string[], cwd: string, env: Record<string, string>, opts: ExecOptions, timeoutMs: number): Promise<ProcessResult> {
    const wrapped = this.wrapper.argv(argv, cwd, env, this.cgroup !== null);
    const hostArgv = [...joinPrefix(this.cgroup), ...wrapped.argv];
    // The child holds its own copies once spawned; ours are closed then, or here if it never started.
    let fdsOpen = (wrapped.fds ?? []).length > 0;
    const closeFds = () => {
      if (fdsOpen) for (const fd of wrapped.fds ?? []) fs.closeSync(fd);
      fdsOpen = false;
    };
    const result = await runProcess(hostArgv, {
      env: this.wrapper.hostEnv(env),
      cwd: this.wrapper.hostCwd(cwd),
      input: opts.input,
      timeoutMs: Number.isFinite(timeoutMs) ? timeoutMs : undefined,
      outputLimit: opts.outputLimit,
      logFile: opts.logFile,
      budget: this.budget,
      onOutput: opts.onOutput,
      extraFds: wrapped.fds,
      onSpawn: (pid) => {
        this.running.add(pid);
        closeFds();
      },
      onTimeout: (pid) => {
        if (Date.now() >= this.deadline - 50) void this.kill("time_limit");
        else this.stopTree(pid);
      },
      // Anything the command left behind (daemons, background jobs) dies with it.
      onExit: (pid) => killGroup(pid, "SIGKILL"),
    }).finally(closeFds);
    this.running.delete(result.pid);
    // Between commands nothing of the agent's may keep running (a daemon outside the group).
    if (this.running.size === 0) this.cgroup?.killAll("SIGKILL");
    return result;
  }

  /**
   * One command through the run's exec server. The server kills what a command leaves behind
   * (see init.ts); a command that outlasts its SIGKILL takes the server down with it.
   */
  private async execServed(server: ExecServer, argv: string[], cwd: string, env: Record<string, string>, opts: ExecOptions, timeoutMs: number): Promise<ProcessResult> {
    const cgroupLimited = this.cgroup !== null;
    const command = this.wrapper.server!.command(argv, cgroupLimited);
    const result = await server.run(
      { argv: command, cwd, env, input: opts.input },
      {
        timeoutMs: Number.isFinite(timeoutMs) ? timeoutMs : undefined,
        outputLimit: opts.outputLimit,
        logFile: opts.logFile,
        budget: this.budget,
        onOutput: opts.onOutput,
        onTimeout: (id) => {
          if (Date.now() >= this.deadline - 50) void this.kill("time_limit");
          else this.stopServed(server, id);
        },
      },
    );
    // A server that is gone leaves nothing to spare.
    if (server.pid === null && !this.busy) this.cgroup?.killAll("SIGKILL");
    return result;
  }

  /** SIGTERM one served command, SIGKILL after a grace period, and the whole server if even that does not end it. */
  private stopServed(server: ExecServer, id: number): void {
    server.signal(id, "SIGTERM");
    setTimeout(() => {
      server.signal(id, "SIGKILL");
      setTimeout(() => {
        if (server.ids().includes(id)) server.destroy();
      }, STOP_GRACE_MS).unref();
    }, STOP_GRACE_MS).unref();
  }

  /** Ask a command's processes to stop (SIGTERM), leaving the sandbox's supervisors alone. */
  private terminate(pid: number): void {
    const graceful = this.wrapper.graceful;
    if (!graceful) killGroup(pid, "SIGTERM");
    for (const p of descendants(pid)) {
      if (graceful && !graceful(p)) continue;
      try {
        process.kill(p, "SIGTERM");
      } catch {
        // gone
      }
    }
  }

  /** SIGTERM one command's tree, SIGKILL after a grace period. */
  private stopTree(pid: number): void {
    this.terminate(pid);
    setTimeout(() => killGroup(pid, "SIGKILL"), STOP_GRACE_MS).unref();
  }

  async kill(reason: ExitReason): Promise<void> {
    if (this.killedReason === null) this.killedReason = reason;
    for (const pid of this.running) this.terminate(pid);
    for (const id of this.served?.ids() ?? []) this.served!.signal(id, "SIGTERM");
    const until = Date.now() + STOP_GRACE_MS;
    while (this.busy && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    for (const pid of this.running) killGroup(pid, "SIGKILL");
    this.served?.destroy();
    this.cgroup?.killAll("SIGKILL");
  }

  peaks(): ResourcePeaks {
    if (this.finalPeaks) return { ...this.finalPeaks, diskBytes: this.diskPeak };
    const s = this.cgroup?.stats();
    return {
      memoryBytes: s?.memoryPeakBytes ?? null,
      pids: s?.pidsPeak ?? null,
      cpuSeconds: s?.cpuSeconds ?? null,
      diskBytes: this.diskPeak,
      oomKills: s?.oomKills ?? null,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.poll) clearInterval(this.poll);
    // A final disk sample so the peak covers what the agent left behind.
    this.diskPeak = Math.max(this.diskPeak, await this.diskNow());
    await this.served?.stop();
    this.cgroup?.killAll("SIGKILL");
    // The cgroup's counters vanish with it.
    this.finalPeaks = this.peaks();
    this.cgroup?.destroy();
    await this.cleanup();
  }
}
