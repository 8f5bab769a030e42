import type { Competition } from "../core/competition.js";
import type { GroupMetadata, RunRecord } from "../results/record.js";

/**
 * Where run groups live when runs are spread over machines: the producer creates a group there, workers publish
 * runs into it, the producer and `mlebench status` read it. A run's outputs appear all at once (complete) or not at
 * all, and only the first publication of a run counts.
 */
export interface ResultStore {
  /** Human-readable location of the store, for messages. */
  describe(): string;
  /** Where a group (or one of its runs) is, as a user would name it: a dir or an s3:// URL. */
  location(group: string, runId?: string): string;
  /** Fail with a clear message when the store cannot be used; return warnings about weaker guarantees. */
  check(): Promise<string[]>;
  /** Create a new group (a fresh name) with every (competition, seed) task. */
  createGroup(agentId: string, competitions: Competition[], seeds: number, options: Record<string, unknown>): Promise<GroupMetadata>;
  /** A group's metadata, or null when there is no such group. */
  readGroup(group: string): Promise<GroupMetadata | null>;
  /** Replace a group's metadata.json (outcomes recorded as runs end). */
  writeGroup(meta: GroupMetadata): Promise<void>;
  /** Whether the group exists in the store (the producer created it). */
  hasGroup(group: string): Promise<boolean>;
  /** The published record of a run, or null when nothing is published yet. */
  published(group: string, runId: string): Promise<RunRecord | null>;
  /** Move a published (failed) run out of the way so it can run again; kept under the group's `.set-aside/`. */
  setAside(group: string, runId: string): Promise<void>;
  /** A fresh local dir to run into, unseen by readers until published. */
  stage(group: string, runId: string): Promise<string>;
  /** Publish a staged run; false (and the staged dir removed) when another attempt published first. */
  publish(group: string, runId: string, staged: string): Promise<boolean>;
  /** Throw a staged dir away. */
  discard(staged: string): Promise<void>;
  /** Copy a published run to a local dir, run.json last (an interrupted copy is not a run). */
  download(group: string, runId: string, dest: string): Promise<void>;
  /** Remove what attempts of lost workers left staged in an ended group; returns how many attempts were removed. */
  sweep(group: string): Promise<number>;
}

/** Options of stores that keep nothing but the location in the URL (S3 stages runs on a local disk first). */
export interface StoreOptions {
  /** Local dir where an S3 store stages runs before uploading them (default: the OS temp dir). */
  stagingDir?: string;
  env?: NodeJS.ProcessEnv;
}
