import { runProcess } from "../../sandbox/process.js";
import type { Sandbox } from "../../sandbox/types.js";
import type { RunRequest, RunResult, TaskRunner } from "./types.js";

/** The interpreter task code runs with: Debian's, which has numpy, pandas, scikit-learn, scipy and xgboost. */
export const PYTHON = "/usr/bin/python3";

/** A runner that executes commands as ordinary host processes in `workspaceDir` (tests, baseline measurements). */
export function hostRunner(workspaceDir: string): TaskRunner {
  return async (request: RunRequest): Promise<RunResult> => {
    const env = { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8", HOME: workspaceDir, ...request.env };
    const result = await runProcess(request.argv, {
      cwd: workspaceDir,
      env,
      input: request.input,
      timeoutMs: request.timeoutMs,
      outputLimit: request.outputLimit,
      graceMs: 2000,
    });
    return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, timedOut: result.timedOut, wallMs: result.wallMs };
  };
}

/** A runner that executes commands inside `sandbox`, in `cwd` as the sandbox sees it (default: its workspace). */
export function sandboxRunner(sandbox: Sandbox, cwd: string = sandbox.paths.workspace): TaskRunner {
  return async (request: RunRequest): Promise<RunResult> => {
    const result = await sandbox.exec(request.argv, {
      cwd,
      env: request.env,
      input: request.input,
      timeoutMs: request.timeoutMs,
      outputLimit: request.outputLimit,
    });
    return {
      exitCode: result.exitCode,
      stdout: result.stdout,
      stderr: result.stderr,
      timedOut: result.reason === "time_limit",
      wallMs: result.wallMs,
    };
  };
}
