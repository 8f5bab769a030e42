import path from "node:path";
import { z } from "zod";

/** Whether a smaller or a larger score is better. */
export type Direction = "lower" | "higher";

/**
 * What the improvement over the baseline is measured on: the score itself (the reference's rule), or
 * the error 1 − score of a score bounded by 1 (accuracy, ROC AUC) whose baseline is already close to
 * 1, where a 10% higher score cannot be reached but a 10% smaller error means real progress.
 */
export type ImprovementOf = "score" | "error";

/** One command a task's evaluator wants run in the workspace (the runner decides where: host or sandbox). */
export interface RunRequest {
  /** argv, no shell; the working directory is the workspace. */
  argv: string[];
  /** Wall-clock limit of the command, ms. */
  timeoutMs: number;
  /** Text written to the command's stdin. */
  input?: string;
  /** Extra environment for the command. */
  env?: Record<string, string>;
  /** Bytes of stdout and of stderr kept (the rest is dropped). */
  outputLimit?: number;
}

/** What a command run by a `TaskRunner` did. */
export interface RunResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  wallMs: number;
}

/** Runs commands with the workspace as working directory: on the host in tests, in the run's sandbox otherwise. */
export type TaskRunner = (request: RunRequest) => Promise<RunResult>;

/** The starter code's score, measured by running it (never typed in by hand). */
export const BaselineSchema = z.object({
  score: z.number(),
  /** ISO-8601 time of the measurement. */
  measuredAt: z.string(),
  /** CPU, core count, OS and interpreter versions of the machine that measured it. */
  machine: z.string(),
});
export type Baseline = z.infer<typeof BaselineSchema>;

/** Where a task keeps data outside any workspace, and how it reports what it does. */
export interface TaskContext {
  /**
   * Host folder for this task's downloaded raw files and prepared data: `<data dir>/mlagentbench/<task>/`,
   * with `raw/`, `public/` (copied into workspaces) and `private/` (answers, never copied into a workspace).
   */
  dataDir: string;
  /** Environment read for credentials (KAGGLE_USERNAME/KAGGLE_KEY, KAGGLE_CONFIG_DIR, proxies); default process.env. */
  env?: Record<string, string | undefined>;
  /** One line of progress or a warning, for the user. */
  log?: (message: string) => void;
  /**
   * A local mirror for downloads from public URLs: each URL's scheme and host are replaced by this base
   * (e.g. "http://127.0.0.1:8080" turns "https://host/a/b.tgz" into "http://127.0.0.1:8080/a/b.tgz").
   * Kaggle downloads follow MLEBENCH_KAGGLE_API_URL instead, as everywhere else.
   */
  mirror?: string;
  /** Bytes done (and total, when known) of the file being downloaded. */
  onProgress?: (done: number, total: number | null) => void;
}

/** An MLAgentBench-style research task: a problem statement, starter files and an evaluator. */
export interface ResearchTask {
  name: string;
  /** The research problem given to the agent. */
  statement: string;
  /** What the score measures, with its unit. */
  metric: string;
  direction: Direction;
  /** What improvement and success are measured on; "score" when absent. */
  improvementOf?: ImprovementOf;
  /** Folder whose contents become the initial workspace. */
  filesDir: string;
  /** Workspace-relative paths (normalised, no `./`) the agent may read but not change. */
  readOnly: string[];
  /**
   * Absolute paths of installed files (Debian or npm dataset files) the task's hidden answers come from;
   * every sandbox the task runs in replaces them with empty files, so an agent cannot read the answers there.
   */
  hiddenSources(): string[];
  /** Whether preparing the task fetches data from the network. */
  needsDownload: boolean;
  /**
   * Whether the score depends on the machine (a run time): evaluation then scores the starter code
   * on the same machine instead of comparing with the recorded baseline.
   */
  machineDependent?: boolean;
  /** The starter code's recorded score, or null until it has been measured. */
  baseline: Baseline | null;
  /**
   * Download and prepare the task's data into `ctx.dataDir` (tasks with `needsDownload` only); a no-op
   * when it is already there. Throws a UserError naming what is missing (credentials, rules not accepted).
   */
  fetchData?(ctx: TaskContext): Promise<void>;
  /** Whether the data `fetchData` produces is in `ctx.dataDir` (always true for tasks without downloads). */
  isReady?(ctx: TaskContext): boolean;
  /**
   * Fill an empty (or missing) workspace with the starter files and the task's public data. A task that
   * needs a download throws a UserError telling the user to run `mlebench tasks prepare <name>` first.
   */
  prepare(workspaceDir: string, ctx: TaskContext): Promise<void>;
  /** Score the workspace's current solution; throws InvalidSubmissionError, with the reason, when it cannot be scored. */
  score(workspaceDir: string, runner: TaskRunner, ctx: TaskContext): Promise<number>;
}

/** Where task `name` keeps its data inside a data directory: `<dataDir>/mlagentbench/<name>`. */
export function taskDataDir(dataDir: string, name: string): string {
  return path.join(dataDir, "mlagentbench", name);
}
