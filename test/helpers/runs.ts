import fs from "node:fs";
import path from "node:path";
import { getCompetition } from "../../src/competitions/registry.js";
import { competitionPaths } from "../../src/core/paths.js";
import { prepareCompetition } from "../../src/prepare/prepare.js";
import { createCgroup } from "../../src/sandbox/cgroup.js";
import type { RunRecord } from "../../src/runner/record.js";
import { mlebench, type CliResult } from "./cli.js";
import { tempDir } from "./data-dir.js";

/** A data dir with titanic prepared (the quickest offline competition), made once per test file. */
export async function titanicDataDir(): Promise<string> {
  const dataDir = tempDir("mlebench-run-data-");
  await prepareCompetition(getCompetition("titanic"), dataDir);
  return dataDir;
}

/** Host path of titanic's private answers in a data dir. */
export function titanicAnswers(dataDir: string): string {
  return path.join(competitionPaths(dataDir, "titanic").private, getCompetition("titanic").answers);
}

/** What one `mlebench run --json` produced. */
export interface RunOutcome extends CliResult {
  groupDir: string;
  runDirs: string[];
  records: RunRecord[];
}

/** Run `mlebench run --json` on titanic with the given flags; reads back every run.json. */
export function runCli(dataDir: string, args: string[], env: Record<string, string> = {}): RunOutcome {
  const runsDir = tempDir("mlebench-runs-");
  const r = mlebench(["run", "--data-dir", dataDir, "--runs-dir", runsDir, "--json", ...args], env);
  let groupDir = "";
  let runDirs: string[] = [];
  let records: RunRecord[] = [];
  if (r.status === 0 || r.status === 1) {
    const out = JSON.parse(r.stdout) as { dir: string; runs: { run_id: string }[] };
    groupDir = out.dir;
    runDirs = out.runs.map((x) => path.join(groupDir, x.run_id));
    records = runDirs.map((d) => JSON.parse(fs.readFileSync(path.join(d, "run.json"), "utf8")) as RunRecord);
  }
  return { ...r, groupDir, runDirs, records };
}

/** The agent's captured output of a run. */
export function agentLog(runDir: string): string {
  const f = path.join(runDir, "logs", "agent.log");
  return fs.existsSync(f) ? fs.readFileSync(f, "utf8") : "";
}

/** Whether cgroup limits can be set here (root on a host with writable cgroups). */
export function cgroupsWritable(): boolean {
  const made = createCgroup(`mlebench-probe-${process.pid}`, { memoryBytes: 64 << 20, pids: 16, cpus: null });
  if ("error" in made) return false;
  made.cgroup.destroy();
  return true;
}
