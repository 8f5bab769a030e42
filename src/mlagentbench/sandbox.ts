/** Sandboxes for research tasks: the workspace writable, the task's read-only files mounted read-only, its answer sources hidden. */
import fs from "node:fs";
import path from "node:path";
import type { Limits, Sandbox, SandboxBackend, SandboxSpec } from "../sandbox/types.js";
import { baseSandboxEnv, SANDBOX_PATHS, WRITABLE_DIRS } from "../sandbox/types.js";
import { sandboxRunner } from "./tasks/runner.js";
import type { ResearchTask, TaskRunner } from "./tasks/types.js";

/** Where a research sandbox keeps its folders on the host. */
export interface TaskSandboxDirs {
  /** The workspace, mounted read-write. */
  workspace: string;
  /** A scratch folder for the other folders every sandbox has (data, submission, code, logs). */
  scratch: string;
}

/** Environment of everything a research task runs. */
function taskEnv(seed: number, task: string): Record<string, string> {
  return {
    ...baseSandboxEnv(),
    MLAGENTBENCH_TASK: task,
    MLEBENCH_SEED: String(seed),
  };
}

/**
 * A sandbox over a task's workspace. The task's read-only files are bound read-only over themselves
 * (so a script run by Execute Script cannot change them either), and the installed files its answers
 * come from are replaced by empty ones. No network.
 */
export async function createTaskSandbox(
  task: ResearchTask,
  dirs: TaskSandboxDirs,
  backend: SandboxBackend,
  limits: Limits,
  opts: { seed?: number; id?: string } = {},
): Promise<Sandbox> {
  const writable = Object.fromEntries(
    WRITABLE_DIRS.map((d) => [d, d === "workspace" ? dirs.workspace : path.join(dirs.scratch, d)]),
  ) as SandboxSpec["writable"];
  const dataDir = path.join(dirs.scratch, "data");
  for (const d of [...Object.values(writable), dataDir]) fs.mkdirSync(d, { recursive: true });
  const files: Record<string, string> = {};
  for (const rel of task.readOnly) {
    const host = path.join(dirs.workspace, rel);
    if (fs.existsSync(host)) files[path.posix.join(SANDBOX_PATHS.workspace, rel)] = host;
  }
  const spec: SandboxSpec = {
    id: (opts.id ?? `mlab-${task.name}-${process.pid}-${Date.now()}`).slice(-60).replace(/[^A-Za-z0-9_-]/g, "-"),
    dataDir,
    writable,
    files,
    hidden: task.hiddenSources(),
    sockets: [],
    env: taskEnv(opts.seed ?? 0, task.name),
    limits,
    gpus: [],
    network: "none",
  };
  return backend.create(spec);
}

/** A TaskRunner inside a fresh task sandbox over `workspaceDir`, for scoring; close() tears the sandbox down. */
export async function sandboxedTaskRunner(
  task: ResearchTask,
  workspaceDir: string,
  backend: SandboxBackend,
  limits: Limits,
): Promise<{ runner: TaskRunner; close(): Promise<void> }> {
  const scratch = fs.mkdtempSync(path.join(path.dirname(workspaceDir), ".score-"));
  const sandbox = await createTaskSandbox(task, { workspace: workspaceDir, scratch }, backend, limits);
  return {
    runner: sandboxRunner(sandbox),
    async close() {
      await sandbox.close();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}
