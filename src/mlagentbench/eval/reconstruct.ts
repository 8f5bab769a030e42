/** Rebuild a run's workspace as it was after a given step, from the task's starter files and the trace's snapshots. */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { walkFiles } from "../env/files.js";
import type { ResearchTask, TaskContext } from "../tasks/types.js";
import { readTrace, runPaths, type TraceRecord } from "./layout.js";

/** What a reconstruction could not restore. */
export interface Reconstruction {
  /** Files that existed at that step but were too large to snapshot; they are absent from the rebuilt workspace. */
  missing: string[];
}

/** Whether `rel` is one of `readOnly` or lies under one of them. */
export function isUnder(rel: string, readOnly: Iterable<string>): boolean {
  for (const ro of readOnly) if (rel === ro || rel.startsWith(ro + "/")) return true;
  return false;
}

/** Delete a folder tree, first making its folders writable (a scored workspace may have locked some). */
export function removeTree(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    const unlock = (d: string): void => {
      try {
        fs.chmodSync(d, 0o700);
        for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) unlock(path.join(d, e.name));
      } catch {
        // Best effort: the second rmSync reports what is still in the way.
      }
    };
    unlock(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Steps a trace forward over one folder: the task's prepared workspace, then each step's snapshot
 * overlaid and its deletions applied. Moving forward only, so scoring many steps costs one pass.
 */
export class Replayer {
  /** The next step whose changes have not been applied yet. */
  private next = 0;
  private readonly tooLarge = new Set<string>();
  readonly readOnly: Set<string>;

  private constructor(
    readonly dir: string,
    private readonly runDir: string,
    readonly trace: TraceRecord,
    task: ResearchTask,
  ) {
    this.readOnly = new Set([...task.readOnly, ...trace.read_only_files]);
  }

  /** Prepare `dir` (created if missing, must be empty) as the task's fresh workspace, before any step. */
  static async start(task: ResearchTask, runDir: string, trace: TraceRecord, dir: string, ctx: TaskContext): Promise<Replayer> {
    fs.mkdirSync(dir, { recursive: true });
    if (fs.readdirSync(dir).length > 0) throw new Error(`Cannot rebuild a workspace in ${dir}: the folder is not empty`);
    await task.prepare(dir, ctx);
    return new Replayer(dir, runDir, trace, task);
  }

  /** Files missing from the folder because they were too large to snapshot, sorted. */
  missing(): string[] {
    return [...this.tooLarge].sort();
  }

  /** Apply the changes of every step up to and including `step`. */
  advanceTo(step: number): void {
    const count = this.trace.steps.length;
    if (!Number.isInteger(step) || step < 0 || step >= count) {
      throw new Error(`Step ${step} is not in the trace of ${this.runDir}: it has steps 0 to ${count - 1}`);
    }
    if (step < this.next - 1) throw new Error(`Cannot go back to step ${step}: the workspace is already at step ${this.next - 1}`);
    while (this.next <= step) this.apply(this.next++);
  }

  private apply(index: number): void {
    const { changed, deleted, tooLarge } = this.trace.steps[index].files;
    const snapshot = path.join(runPaths(this.runDir).snapshots, String(index));
    if (index === 0) this.pruneUnlisted(new Set([...changed, ...tooLarge]));
    for (const rel of changed) {
      const from = path.join(snapshot, rel);
      if (!fs.existsSync(from)) throw new Error(`The trace says step ${index} changed ${rel}, but ${from} does not exist`);
      const to = path.join(this.dir, rel);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.rmSync(to, { force: true });
      fs.copyFileSync(from, to);
      this.tooLarge.delete(rel);
    }
    for (const rel of tooLarge) {
      // A stale earlier version would be scored as if it were current; without the file the score is honest.
      fs.rmSync(path.join(this.dir, rel), { force: true });
      this.tooLarge.add(rel);
    }
    for (const rel of deleted) {
      fs.rmSync(path.join(this.dir, rel), { force: true });
      this.tooLarge.delete(rel);
    }
  }

  /** The first snapshot lists every writable file; a prepared file it omits was removed during step 0. */
  private pruneUnlisted(listed: Set<string>): void {
    for (const rel of walkFiles(this.dir, (r) => isUnder(r, this.readOnly))) {
      if (!listed.has(rel)) fs.rmSync(path.join(this.dir, rel), { force: true });
    }
  }
}

// Bookkeeping the environment writes for itself; it changes without changing what the code does.
const BOOKKEEPING = ["backup", "research_log.log"];

/** A hash of the writable files in `dir` (names and contents), ignoring read-only files and the environment's bookkeeping. */
export function stateHash(dir: string, readOnly: Iterable<string>): string {
  const skip = [...readOnly, ...BOOKKEEPING];
  const hash = createHash("sha256");
  for (const rel of walkFiles(dir, (r) => isUnder(r, skip))) {
    const data = fs.readFileSync(path.join(dir, rel));
    hash.update(`${rel}\0${data.length}\0`).update(data);
  }
  return hash.digest("hex");
}

/**
 * Rebuild in `targetDir` the workspace of the run in `runDir` as it was right after `step`: the task's
 * prepared workspace, then the trace's snapshots 0..step overlaid and their deletions applied in order.
 */
export async function workspaceAtStep(task: ResearchTask, runDir: string, step: number, targetDir: string, ctx: TaskContext): Promise<Reconstruction> {
  const trace = readTrace(runDir);
  if (!Number.isInteger(step) || step < 0 || step >= trace.steps.length) {
    throw new Error(`Step ${step} is not in the trace of ${runDir}: it has ${trace.steps.length} steps`);
  }
  const replayer = await Replayer.start(task, runDir, trace, targetDir, ctx);
  replayer.advanceTo(step);
  return { missing: replayer.missing() };
}
