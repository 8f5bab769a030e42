import { spawn, spawnSync } from "node:child_process";
import path from "node:path";

export const REPO = path.resolve(decodeURIComponent(new URL("../..", import.meta.url).pathname));
export const CLI = path.join(REPO, "dist", "cli", "main.js");

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run the built `mlebench` binary with arguments, without inheriting MLEBENCH_DATA_DIR. */
export function mlebench(args: string[], env: Record<string, string> = {}, cwd = REPO): CliResult {
  const { MLEBENCH_DATA_DIR: _ignored, ...base } = process.env;
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    env: { ...base, ...env },
    encoding: "utf8",
    timeout: 300_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Like mlebench(), but without blocking (a fake server in the test process can answer) and without the harness's MLEBENCH_LLM_MODEL. */
export function mlebenchAsync(args: string[], env: Record<string, string>): Promise<CliResult> {
  const { MLEBENCH_DATA_DIR: _ignored, MLEBENCH_LLM_MODEL: _model, ...base } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO, env: { ...base, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
