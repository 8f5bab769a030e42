import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Competition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import { getCompetition } from "../competitions/registry.js";
import { fileTimestamp, pythonIsoNow } from "../grading/report.js";
import type { ExitReason } from "../sandbox/types.js";
import {
  GROUP_SCHEMA,
  readGroupMetadata,
  readRunRecord,
  writeGroupMetadata,
  type GroupMetadata,
  type RunRecord,
} from "../results/record.js";
import { buildGroupManifest, writeGroupManifest } from "../results/manifest.js";
import type { GpuPool } from "./gpu-pool.js";
import { harnessInfo } from "./manifest-facts.js";
import { runTask, type RunProgress, type RunSettings, type RunTask } from "./run.js";

/** What a group runs: competitions × seeds, `workers` at a time. */
export interface GroupOptions {
  settings: RunSettings;
  competitions: Competition[];
  seeds: number;
  workers: number;
  /** Parent of run-group dirs (a new group) — ignored when resuming. */
  runsDir: string;
  /** An existing run-group dir to resume. */
  resume?: string;
  /** Recorded in metadata.json (the flags the group was started with). */
  options?: Record<string, unknown>;
  /** GPUs shared out among the runs going on at once (each run then gets its share instead of settings.gpus). */
  gpuPool?: GpuPool | null;
}

/** Something that happened in a group, for progress views and logs. */
export type GroupEvent =
  | { type: "planned"; groupDir: string; total: number; skipped: number }
  | { type: "start"; task: RunTask; progress: RunProgress }
  | { type: "log"; task: RunTask; line: string }
  | { type: "end"; task: RunTask; record: RunRecord };

/** Result of a group: its dir and the record of every task (skipped ones included). */
export interface GroupResult {
  groupDir: string;
  runGroup: string;
  records: RunRecord[];
}

/** A running group that can be stopped (SIGINT): running runs end as "interrupted". */
export class RunGroup {
  private stopping = false;
  private readonly kills = new Map<string, (r: ExitReason) => Promise<void>>();

  constructor(
    private readonly opts: GroupOptions,
    private readonly onEvent: (e: GroupEvent) => void = () => {},
  ) {}

  /** Stop starting runs and interrupt the running ones. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.kills.values()].map((k) => k("interrupted")));
  }

  /** Create (or reopen) the group and run every unfinished task. */
  async run(): Promise<GroupResult> {
    const { groupDir, meta } = this.opts.resume ? openGroup(this.opts.resume, this.opts.settings.agent.id) : this.createGroup();
    const tasks: RunTask[] = meta.tasks.map((t) => ({
      runId: t.run_id,
      runDir: path.join(groupDir, t.run_id),
      competition: getCompetition(t.competition_id),
      seed: t.seed,
    }));
    const done = new Map<string, RunRecord>();
    for (const t of tasks) {
      const rec = readRunRecord(t.runDir);
      if (rec?.status === "completed") done.set(t.runId, rec);
    }
    const todo = tasks.filter((t) => !done.has(t.runId));
    this.onEvent({ type: "planned", groupDir, total: tasks.length, skipped: done.size });

    const save = () => {
      for (const [id, rec] of done) {
        meta.runs[id] = { success: rec.status === "completed", status: rec.status, exit_reason: rec.exit_reason };
      }
      writeGroupMetadata(groupDir, meta);
      writeGroupManifest(groupDir, buildGroupManifest(groupDir, meta, harnessInfo()));
    };
    save();
    let next = 0;
    const worker = async () => {
      while (!this.stopping && next < todo.length) {
        const task = todo[next++];
        const held = this.opts.gpuPool?.take();
        const settings = held ? { ...this.opts.settings, gpus: held } : this.opts.settings;
        let record: RunRecord;
        try {
          record = await runTask(task, settings, {
            log: (line) => this.onEvent({ type: "log", task, line }),
            onStart: (progress) => this.onEvent({ type: "start", task, progress }),
            register: (kill) => {
              this.kills.set(task.runId, kill);
              if (this.stopping) void kill("interrupted");
            },
          });
        } finally {
          this.kills.delete(task.runId);
          if (held) this.opts.gpuPool!.give(held);
        }
        done.set(task.runId, record);
        save();
        this.onEvent({ type: "end", task, record });
      }
    };
    const n = Math.max(1, Math.min(this.opts.workers, todo.length));
    await Promise.all(Array.from({ length: n }, worker));
    save();
    return {
      groupDir,
      runGroup: meta.run_group,
      records: tasks.map((t) => done.get(t.runId)).filter((r): r is RunRecord => r !== undefined),
    };
  }

  private createGroup(): { groupDir: string; meta: GroupMetadata } {
    const { runsDir, settings, competitions, seeds, options } = this.opts;
    return createGroupDir(runsDir, settings.agent.id, competitions, seeds, options ?? {});
  }
}

/** The base name of a new run group: upstream's `<timestamp>_run-group_<agent>` (a "/" in upstream ids like aide/dev becomes "_"). */
export function groupBaseName(agentId: string): string {
  return `${fileTimestamp()}_run-group_${agentId.replace(/\//g, "_")}`;
}

/** metadata.json of a new group listing every (competition, seed) task, seeds outermost as upstream orders its queue. */
export function newGroupMetadata(
  runGroup: string,
  agentId: string,
  competitions: Competition[],
  seeds: number,
  options: Record<string, unknown>,
): GroupMetadata {
  const tasks: GroupMetadata["tasks"] = [];
  for (let seed = 0; seed < seeds; seed++) {
    for (const c of competitions) tasks.push({ run_id: `${c.id}_${randomUUID()}`, competition_id: c.id, seed });
  }
  // The version goes last: upstream's readers expect its keys, in its order, first.
  return { run_group: runGroup, created_at: pythonIsoNow(), runs: {}, agent_id: agentId, tasks, options, schema: GROUP_SCHEMA };
}

/** Create a new run-group dir with metadata.json listing every (competition, seed) task. */
export function createGroupDir(
  runsDir: string,
  agentId: string,
  competitions: Competition[],
  seeds: number,
  options: Record<string, unknown>,
): { groupDir: string; meta: GroupMetadata } {
  const base = groupBaseName(agentId);
  fs.mkdirSync(runsDir, { recursive: true });
  let runGroup = base;
  for (let i = 2; fs.existsSync(path.join(runsDir, runGroup)); i++) runGroup = `${base}-${i}`;
  const groupDir = path.join(runsDir, runGroup);
  fs.mkdirSync(groupDir);
  const meta = newGroupMetadata(runGroup, agentId, competitions, seeds, options);
  writeGroupMetadata(groupDir, meta);
  return { groupDir, meta };
}

/** Refuse to resume a group under another agent than the one it was run with. */
export function requireGroupAgent(meta: GroupMetadata, agentId: string, where: string): void {
  if (meta.agent_id !== agentId) {
    throw new UserError(`--resume: ${where} was run with agent "${meta.agent_id}", not "${agentId}"; pass --agent ${meta.agent_id}`);
  }
}

/** Open an existing group for --resume, checking it belongs to the same agent. */
export function openGroup(dir: string, agentId: string): { groupDir: string; meta: GroupMetadata } {
  let meta: GroupMetadata | null;
  try {
    meta = readGroupMetadata(dir);
  } catch (e) {
    throw new UserError(`--resume: ${(e as Error).message}`);
  }
  if (!meta) throw new UserError(`--resume: ${path.join(dir, "metadata.json")} is missing (expected a run group dir)`);
  requireGroupAgent(meta, agentId, dir);
  return { groupDir: path.resolve(dir), meta };
}
