import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Competition } from "../core/competition.js";
import { createGroupDir } from "../runner/group.js";
import { readGroupMetadata, readRunRecord, writeGroupMetadata, type GroupMetadata, type RunRecord } from "../results/record.js";
import type { ResultStore } from "./result-store.js";
import { removeTree } from "../io/remove-tree.js";

/** Hidden dirs inside a group: attempts being written, and failed runs moved away by a resume. */
export const STAGING = ".staging";
export const SET_ASIDE = ".set-aside";

/** A shared filesystem (NFS, EFS, a local disk): the run dir is published by one atomic rename. */
export class FsResultStore implements ResultStore {
  constructor(private readonly runsDir: string) {}

  describe(): string {
    return this.runsDir;
  }

  location(group: string, runId?: string): string {
    return runId === undefined ? this.groupDir(group) : path.join(this.groupDir(group), runId);
  }

  /** The dir of a run group. */
  groupDir(group: string): string {
    return path.join(this.runsDir, group);
  }

  async check(): Promise<string[]> {
    return [];
  }

  async createGroup(agentId: string, competitions: Competition[], seeds: number, options: Record<string, unknown>): Promise<GroupMetadata> {
    return createGroupDir(this.runsDir, agentId, competitions, seeds, options).meta;
  }

  async readGroup(group: string): Promise<GroupMetadata | null> {
    return readGroupMetadata(this.groupDir(group));
  }

  async writeGroup(meta: GroupMetadata): Promise<void> {
    writeGroupMetadata(this.groupDir(meta.run_group), meta);
  }

  async hasGroup(group: string): Promise<boolean> {
    return fs.existsSync(path.join(this.groupDir(group), "metadata.json"));
  }

  async published(group: string, runId: string): Promise<RunRecord | null> {
    return readRunRecord(path.join(this.groupDir(group), runId));
  }

  async setAside(group: string, runId: string): Promise<void> {
    const aside = path.join(this.groupDir(group), SET_ASIDE);
    fs.mkdirSync(aside, { recursive: true });
    fs.renameSync(path.join(this.groupDir(group), runId), path.join(aside, `${runId}.${Date.now()}`));
  }

  async stage(group: string, runId: string): Promise<string> {
    // Inside the group dir so the final rename never crosses filesystems; hidden so readers skip it.
    const dir = path.join(this.groupDir(group), STAGING, `${runId}.${randomBytes(6).toString("hex")}`);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  async publish(group: string, runId: string, staged: string): Promise<boolean> {
    const final = path.join(this.groupDir(group), runId);
    // rename(2) would silently replace an empty dir; an existing dir of any kind means someone got there first.
    if (fs.existsSync(final)) {
      await this.discard(staged);
      return false;
    }
    try {
      fs.renameSync(staged, final);
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOTEMPTY" || code === "EEXIST") {
        await this.discard(staged);
        return false;
      }
      throw e;
    }
  }

  async discard(staged: string): Promise<void> {
    removeTree(staged);
  }

  async download(group: string, runId: string, dest: string): Promise<void> {
    const src = path.join(this.groupDir(group), runId);
    fs.cpSync(src, dest, { recursive: true, filter: (f) => f !== path.join(src, "run.json") });
    fs.copyFileSync(path.join(src, "run.json"), path.join(dest, "run.json"));
  }

  async sweep(group: string): Promise<number> {
    const dir = path.join(this.groupDir(group), STAGING);
    let entries: string[];
    try {
      entries = fs.readdirSync(dir);
    } catch {
      return 0;
    }
    for (const e of entries) removeTree(path.join(dir, e));
    removeTree(dir);
    return entries.length;
  }
}
