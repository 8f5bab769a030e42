import fs from "node:fs";
import path from "node:path";
import { getCompetition, loadCompetition } from "../../src/competitions/registry.js";
import { competitionPaths } from "../../src/core/paths.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { prepareCompetition } from "../../src/prepare/prepare.js";
import { createCgroup } from "../../src/sandbox/cgroup.js";
import type { RunRecord } from "../../src/results/record.js";
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
    let out: { dir: string; runs: { run_id: string }[] };
    try {
      out = JSON.parse(r.stdout) as typeof out;
    } catch {
      throw new Error(`mlebench run exited ${r.status} without its JSON summary; stderr:\n${r.stderr}`);
    }
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

/** One run of a crafted titanic run group. */
export interface FakeRun {
  seed: number;
  submission: string;
  wall: number;
  snapshots: { elapsed: number; from: string }[];
  /** Files the agent left in code/: name → content. */
  code?: Record<string, string>;
}

const titanic = await loadCompetition("titanic");

/** A run group on disk as `mlebench run --grade` leaves it, with chosen submissions and snapshots. */
export function writeTitanicGroup(dataDir: string, dir: string, agent: string, runs: FakeRun[]): void {
  fs.mkdirSync(dir, { recursive: true });
  const tasks = runs.map((r, i) => ({ run_id: `titanic_${i}`, competition_id: "titanic", seed: r.seed }));
  fs.writeFileSync(path.join(dir, "metadata.json"), JSON.stringify({ run_group: path.basename(dir), created_at: "x", runs: {}, agent_id: agent, tasks, options: {} }));
  runs.forEach((r, i) => {
    const runDir = path.join(dir, tasks[i].run_id);
    fs.mkdirSync(path.join(runDir, "submission"), { recursive: true });
    fs.mkdirSync(path.join(runDir, "snapshots"), { recursive: true });
    fs.copyFileSync(r.submission, path.join(runDir, "submission", "submission.csv"));
    for (const [name, content] of Object.entries(r.code ?? {})) {
      fs.mkdirSync(path.dirname(path.join(runDir, "code", name)), { recursive: true });
      fs.writeFileSync(path.join(runDir, "code", name), content);
    }
    const snaps = r.snapshots.map((s) => {
      const file = `snapshots/${String(s.elapsed).padStart(6, "0")}.csv`;
      fs.copyFileSync(s.from, path.join(runDir, file));
      return { file, elapsed_seconds: s.elapsed };
    });
    const report = gradeSubmission(titanic, path.join(runDir, "submission", "submission.csv"), dataDir);
    fs.writeFileSync(path.join(runDir, "grading_report.json"), JSON.stringify(report));
    const record: RunRecord = {
      run_id: tasks[i].run_id, competition_id: "titanic", agent_id: agent, seed: r.seed, status: "completed", exit_reason: "finished",
      exit_code: 0, exit_signal: null, started_at: "x", ended_at: "x", wall_seconds: r.wall, attempts: 1,
      sandbox: { backend: "bwrap", limits: { wallMs: 240_000, memoryBytes: null, pids: null, cpus: null, diskBytes: null, tmpBytes: null, outputBytes: 1 }, gpus: [], allow_hosts: [], warnings: [] },
      secret_env: [], peaks: null, output_dropped_bytes: 0, validation_requests: 0, snapshots: snaps, submission_rejected: null,
      grading: { score: report.score, valid_submission: report.valid_submission, any_medal: report.any_medal, report: "grading_report.json" }, error: null,
    };
    fs.writeFileSync(path.join(runDir, "run.json"), JSON.stringify(record));
  });
}
