import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { readRunRecord, type RunRecord } from "../runner/record.js";

/**
 * Where workers put results: a run's outputs appear all at once (complete) or not at all, and only the
 * first publication of a run counts.
 */
export interface ResultStore {
  /** Human-readable location, for messages. */
  describe(): string;
  /** Whether the group exists in the store (the producer created it). */
  hasGroup(group: string): Promise<boolean>;
  /** The published record of a run, or null when nothing is published yet. */
  published(group: string, runId: string): Promise<RunRecord | null>;
  /** A fresh local dir to run into, unseen by readers until published. */
  stage(group: string, runId: string): Promise<string>;
  /** Publish a staged run; false (and the staged dir removed) when another attempt published first. */
  publish(group: string, runId: string, staged: string): Promise<boolean>;
  /** Throw a staged dir away. */
  discard(staged: string): Promise<void>;
}

/** A shared filesystem (NFS, EFS, a local disk): the run dir is published by one atomic rename. */
export class FsResultStore implements ResultStore {
  constructor(private readonly runsDir: string) {}

  describe(): string {
    return this.runsDir;
  }

  /** The dir of a run group. */
  groupDir(group: string): string {
    return path.join(this.runsDir, group);
  }

  async hasGroup(group: string): Promise<boolean> {
    return fs.existsSync(path.join(this.groupDir(group), "metadata.json"));
  }

  async published(group: string, runId: string): Promise<RunRecord | null> {
    return readRunRecord(path.join(this.groupDir(group), runId));
  }

  async stage(group: string, runId: string): Promise<string> {
    // Inside the group dir so the final rename never crosses filesystems; hidden so readers skip it.
    const dir = path.join(this.groupDir(group), ".staging", `${runId}.${randomBytes(6).toString("hex")}`);
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
    fs.rmSync(staged, { recursive: true, force: true });
  }
}
