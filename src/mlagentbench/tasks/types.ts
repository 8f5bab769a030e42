import { z } from "zod";

/** Whether a smaller or a larger score is better. */
export type Direction = "lower" | "higher";

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

/** An MLAgentBench-style research task: a problem statement, starter files and an evaluator. */
export interface ResearchTask {
  name: string;
  /** The research problem given to the agent. */
  statement: string;
  /** What the score measures, with its unit. */
  metric: string;
  direction: Direction;
  /** Folder whose contents become the initial workspace. */
  filesDir: string;
  /** Workspace-relative paths (normalised, no `./`) the agent may read but not change. */
  readOnly: string[];
  /** Whether preparing the task fetches data from the network. */
  needsDownload: boolean;
  /** The starter code's recorded score, or null until it has been measured. */
  baseline: Baseline | null;
  /** Fill an empty (or missing) workspace with the starter files and any generated data. */
  prepare(workspaceDir: string): Promise<void>;
  /** Score the workspace's current solution; throws InvalidSubmissionError, with the reason, when it cannot be scored. */
  score(workspaceDir: string, runner: TaskRunner): Promise<number>;
}
