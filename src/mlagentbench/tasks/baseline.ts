import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runProcess } from "../../sandbox/process.js";
import { hostRunner, PYTHON } from "./runner.js";
import type { Baseline, ResearchTask, TaskContext } from "./types.js";

/** CPU model, core count, OS and Python/numpy versions of this machine, as recorded with a baseline. */
export async function describeMachine(): Promise<string> {
  const cpus = os.cpus();
  const probe = await runProcess([PYTHON, "-c", "import sys, numpy; print(sys.version.split()[0], numpy.__version__)"], {
    env: { PATH: "/usr/bin:/bin" },
    timeoutMs: 60_000,
  });
  const [python, numpy] = probe.exitCode === 0 ? probe.stdout.trim().split(" ") : ["unavailable", "unavailable"];
  return `${cpus[0]?.model.trim() ?? "unknown CPU"} (${cpus.length} CPUs), ${os.type()} ${os.release()}, Python ${python}, numpy ${numpy}`;
}

/** Prepare a fresh workspace for `task`, score its untouched starter code on this host, and describe the measurement. */
export async function measureBaseline(task: ResearchTask, ctx: TaskContext): Promise<Baseline> {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), `mlab-baseline-${task.name}-`));
  try {
    await task.prepare(workspace, ctx);
    const score = await task.score(workspace, hostRunner(workspace), ctx);
    return { score, measuredAt: new Date().toISOString(), machine: await describeMachine() };
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

/** Write `baseline` as `<taskDir>/baseline.json`, where the task's module loads it from. */
export function saveBaseline(taskDir: string, baseline: Baseline): void {
  fs.writeFileSync(path.join(taskDir, "baseline.json"), JSON.stringify(baseline, null, 2) + "\n");
}
