/** A group of research runs: every (task, seed) pair of one agent, under one folder with group.json. */
import fs from "node:fs";
import path from "node:path";
import { RESEARCH_GROUP_SCHEMA, writeResearchGroupRecord, type ResearchGroupRecord } from "../results/research-group.js";
import type { ResearchRunRecord } from "../results/research-record.js";
import { runResearch, type ResearchRunOptions } from "./run.js";
import { taskDataDir, type ResearchTask, type TaskContext } from "./tasks/types.js";

/** What a group runs, beyond the per-run options. */
export interface ResearchGroupOptions extends Omit<ResearchRunOptions, "task" | "seed" | "runDir" | "ctx"> {
  tasks: ResearchTask[];
  /** Seeds 0..seeds-1 are run for each task. */
  seeds: number;
  runsDir: string;
  /** The data directory; each task's data is under <dataDir>/mlagentbench/<task>. */
  dataDir: string;
  /** Runs at once (default 1). */
  concurrency?: number;
  ctx?: Omit<TaskContext, "dataDir">;
  /** Told when each run starts and ends. */
  onRun?: (event: { kind: "start"; task: string; seed: number } | { kind: "end"; record: ResearchRunRecord }) => void;
}

/** The folder name of a run inside its group. */
export function runFolderName(task: string, seed: number): string {
  return `${task}-seed${seed}`;
}

// Earlier releases named group folders `<time>_mlab-group_<agent>`; nothing finds groups by that pattern.
const GROUP_FOLDER_INFIX = "_mlagentbench-group_";

/** A new group folder name: time first so groups sort by age, then the agent. */
function groupId(agent: string): string {
  return `${new Date().toISOString().replace(/[:.]/g, "-")}${GROUP_FOLDER_INFIX}${agent}`;
}

/** Create the group folder and run every (task, seed), `concurrency` at a time; returns the group folder and the records. */
export async function runResearchGroup(opts: ResearchGroupOptions): Promise<{ groupDir: string; records: ResearchRunRecord[] }> {
  const id = groupId(opts.agent);
  const groupDir = path.join(opts.runsDir, id);
  fs.mkdirSync(groupDir, { recursive: true });
  const seeds = Array.from({ length: opts.seeds }, (_, i) => i);
  const group: ResearchGroupRecord = {
    schema: RESEARCH_GROUP_SCHEMA,
    id,
    agent: opts.agent,
    model: opts.mlab?.model ?? null,
    tasks: opts.tasks.map((t) => t.name),
    seeds,
    created_at: new Date().toISOString(),
  };
  writeResearchGroupRecord(path.join(groupDir, "group.json"), group);
  const jobs = opts.tasks.flatMap((task) => seeds.map((seed) => ({ task, seed })));
  const records: ResearchRunRecord[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length && !opts.signal?.aborted) {
      const index = next++;
      const { task, seed } = jobs[index]!;
      opts.onRun?.({ kind: "start", task: task.name, seed });
      const record = await runResearch({
        ...opts,
        task,
        seed,
        runDir: path.join(groupDir, runFolderName(task.name, seed)),
        ctx: { ...opts.ctx, dataDir: taskDataDir(opts.dataDir, task.name) },
      });
      records[index] = record;
      opts.onRun?.({ kind: "end", record });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 1, jobs.length)) }, worker));
  return { groupDir, records: records.filter((r) => r !== undefined) };
}
