import { fileURLToPath } from "node:url";
import { z } from "zod";

/** Paths the agent sees inside every sandbox (upstream MLE-bench's container layout). */
export const SANDBOX_PATHS = {
  home: "/home",
  data: "/home/data",
  submission: "/home/submission",
  code: "/home/code",
  logs: "/home/logs",
  workspace: "/home/workspace",
  /** The agent's own folder, writable (upstream's agents write into it). */
  agent: "/home/agent",
  instructions: "/home/instructions.txt",
  validateScript: "/home/validate_submission.sh",
  /** Harness-provided helpers (init, node, sockets); read-only except the sockets. */
  runtime: "/run/mlebench",
} as const;

/** The environment every sandboxed process starts from; a run adds its own variables. */
export function baseSandboxEnv(): Record<string, string> {
  return {
    PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    HOME: SANDBOX_PATHS.workspace,
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    PYTHONUNBUFFERED: "1",
  };
}

/** The compiled in-sandbox init (it sits next to this module after `npm run build`); every backend mounts it. */
export const INIT_SCRIPT = fileURLToPath(new URL("./init.js", import.meta.url));

/** Time a stopped run's processes get between SIGTERM and SIGKILL, to save their work (all backends). */
export const STOP_GRACE_MS = 5000;

/** The writable directories of a run, by their name inside /home. */
export const WRITABLE_DIRS = ["submission", "code", "logs", "workspace", "agent"] as const;
export type WritableDir = (typeof WRITABLE_DIRS)[number];

/** Resource limits applied to everything an agent runs; null means "not limited". */
export const LimitsSchema = z.object({
  /** Wall-clock limit of the whole run, in milliseconds. */
  wallMs: z.number().int().positive().nullable(),
  /** Memory (RSS + page cache of the process tree), bytes; enforced with cgroups. */
  memoryBytes: z.number().int().positive().nullable(),
  /** Maximum number of processes/threads alive at once. */
  pids: z.number().int().positive().nullable(),
  /** Number of CPUs the agent may use. */
  cpus: z.number().int().positive().nullable(),
  /** Total size of the writable directories, bytes (polled; exceeding it ends the run). */
  diskBytes: z.number().int().positive().nullable(),
  /** Size of the in-memory /tmp, bytes. */
  tmpBytes: z.number().int().positive().nullable(),
  /** Agent stdout+stderr kept in logs/agent.log, bytes; the rest is dropped and counted. */
  outputBytes: z.number().int().positive(),
});
export type Limits = z.infer<typeof LimitsSchema>;

/** Why a sandboxed process ended. */
export const ExitReasonSchema = z.enum([
  "finished", // exited with status 0
  "crashed", // non-zero status or killed by a signal we did not send
  "time_limit",
  "oom",
  "disk_limit",
  "interrupted", // the harness was asked to stop
]);
export type ExitReason = z.infer<typeof ExitReasonSchema>;

/** Peak resource use observed for a run (null where the backend cannot measure it). */
export const ResourcePeaksSchema = z.object({
  memoryBytes: z.number().nullable(),
  pids: z.number().nullable(),
  cpuSeconds: z.number().nullable(),
  diskBytes: z.number().nullable(),
  oomKills: z.number().nullable(),
});
export type ResourcePeaks = z.infer<typeof ResourcePeaksSchema>;

/** A Unix socket served by the harness and reachable from inside the sandbox. */
export interface SocketService {
  /** Host path of the socket. */
  hostPath: string;
  /** Socket file name under /run/mlebench inside the sandbox. */
  name: string;
  /** If set, the sandbox init forwards TCP 127.0.0.1:<port> to this socket. */
  loopbackPort?: number;
}

/** Everything a backend needs to build one run's sandbox. */
export interface SandboxSpec {
  /** Unique id (used for cgroup and container names). */
  id: string;
  /** Host dir mounted read-only at /home/data (the competition's public dir). */
  dataDir: string;
  /** Host dirs mounted read-write at /home/<name>. */
  writable: Record<WritableDir, string>;
  /** Extra read-only files placed in the sandbox: sandbox path → host path. */
  files: Record<string, string>;
  /**
   * Absolute paths of files and folders the agent must not read although the system dirs it sees
   * hold them: the packaged datasets an offline competition is cut from (their test labels
   * included). Each file is replaced by an empty file, each folder by an empty read-only one.
   */
  hidden?: string[];
  /** Harness services exposed as Unix sockets (validation server, egress proxy). */
  sockets: SocketService[];
  /** Environment of the agent; nothing from the harness's environment leaks in. */
  env: Record<string, string>;
  limits: Limits;
  /** NVIDIA GPU indices passed through (empty: CPU only). */
  gpus: number[];
  /** "none": no network at all; "proxy": only the egress proxy socket (an allow-list). */
  network: "none" | "proxy";
  /** How often disk use and process counts are sampled, ms (default 10 s). */
  pollMs?: number;
  /** The image to run in (docker only): an agent's own, built on the agents' image; default the backend's. */
  image?: string;
  /**
   * The disk the writable dirs hold, counted by a filesystem of their own (see volume.ts); without
   * it the backend measures them (allocated blocks, plus deleted files its processes keep open).
   */
  diskUsed?: () => number;
  /** Bytes the harness keeps for the run elsewhere (its snapshots), counted against the disk cap too. */
  diskExtra?: () => number;
}

/** Where the agent finds things, as paths valid inside the sandbox. */
export interface SandboxPaths {
  data: string;
  submission: string;
  code: string;
  logs: string;
  workspace: string;
  /** The agent's own folder (its code, copied in before it starts), writable. */
  agent: string;
  instructions: string;
  validateScript: string;
  /** Directory holding the harness's sockets (e.g. validate.sock). */
  runtime: string;
}

/** Options of one command run inside a sandbox. */
export interface ExecOptions {
  /** Working directory inside the sandbox (default /home). */
  cwd?: string;
  /** Extra environment for this command. */
  env?: Record<string, string>;
  /** Per-command wall-clock limit, ms (the run's remaining time also applies). */
  timeoutMs?: number;
  /** Text written to the command's stdin. */
  input?: string;
  /** Bytes of stdout/stderr kept in the result (default 1 MiB each). */
  outputLimit?: number;
  /** Append stdout+stderr here as well (capped by the run's outputBytes). */
  logFile?: string;
  /** Called with output chunks as they arrive. */
  onOutput?: (chunk: Buffer, stream: "stdout" | "stderr") => void;
}

/** Result of one command. */
export interface ExecResult {
  exitCode: number | null;
  signal: string | null;
  reason: ExitReason;
  stdout: string;
  stderr: string;
  /** Whether stdout or stderr was cut at outputLimit. */
  truncated: boolean;
  wallMs: number;
}

/** A per-run isolated environment; one backend instance per run. */
export interface Sandbox {
  readonly backend: string;
  /** The image the run's commands run in, where the backend has one (docker). */
  readonly image?: string;
  /** Notes about limits the backend could not enforce here (recorded in run.json). */
  readonly warnings: string[];
  /** Bytes of agent output dropped at the run's output cap, where the backend counts them. */
  readonly droppedOutput?: number;
  /** Paths as the agent's commands see them. */
  readonly paths: SandboxPaths;
  /**
   * The host uid and gid the agent's processes run as, when they differ from the harness's own:
   * files the harness makes in the writable dirs for the agent are given to them.
   */
  readonly agentOwner?: { uid: number; gid: number };
  /** Run a command (argv, no shell) inside the sandbox. */
  exec(argv: string[], opts?: ExecOptions): Promise<ExecResult>;
  /** Stop everything running in the sandbox now (the run's reason is kept for the caller). */
  kill(reason: ExitReason): Promise<void>;
  /** Peak resource use so far. */
  peaks(): ResourcePeaks;
  /** Release cgroups, containers and temporary files; idempotent. */
  close(): Promise<void>;
}

/** Paths inside a container-like sandbox (bwrap, docker): upstream's layout. */
export const CONTAINER_PATHS: SandboxPaths = {
  data: SANDBOX_PATHS.data,
  submission: SANDBOX_PATHS.submission,
  code: SANDBOX_PATHS.code,
  logs: SANDBOX_PATHS.logs,
  workspace: SANDBOX_PATHS.workspace,
  agent: SANDBOX_PATHS.agent,
  instructions: SANDBOX_PATHS.instructions,
  validateScript: SANDBOX_PATHS.validateScript,
  runtime: SANDBOX_PATHS.runtime,
};

/** A named backend: checks whether it works here, and builds sandboxes. */
export interface SandboxBackend {
  name: string;
  /** null when usable here, else what is missing and how to fix it. */
  unavailable(): Promise<string | null>;
  create(spec: SandboxSpec): Promise<Sandbox>;
}
