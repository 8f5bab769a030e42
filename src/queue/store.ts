import fs from "node:fs";
import path from "node:path";
import type { Competition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import type { GroupMetadata, RunRecord } from "../runner/record.js";
import { FsResultStore } from "./fs-store.js";
import { isS3Url, parseS3Url, type S3Location } from "./s3-url.js";

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

/** The store behind a --runs-dir value: an s3:// URL (S3-compatible bucket) or a path (shared filesystem). */
export async function openResultStore(runsDir: string, opts: StoreOptions = {}, flag = "--runs-dir"): Promise<ResultStore> {
  if (isS3Url(runsDir)) return openS3(parseS3Url(runsDir, flag), opts);
  return new FsResultStore(path.resolve(runsDir));
}

async function openS3(loc: S3Location, opts: StoreOptions): Promise<ResultStore> {
  // The SDK is large; only S3 users pay for loading it.
  const { S3ResultStore } = await import("./s3-store.js");
  return new S3ResultStore(loc, opts);
}

/** A group named by a user: a group dir, an s3:// URL of a group, or a group name inside --runs-dir. */
export async function locateGroup(arg: string, runsDir: string, opts: StoreOptions = {}, what = "run group"): Promise<{ store: ResultStore; group: string }> {
  if (isS3Url(arg)) {
    const loc = parseS3Url(arg, what);
    const slash = loc.prefix.lastIndexOf("/");
    const group = loc.prefix.slice(slash + 1);
    if (!group) throw new UserError(`${what}: "${arg}" names a bucket, not a run group (expected s3://bucket[/prefix]/<group>)`);
    return { store: await openS3({ ...loc, prefix: slash < 0 ? "" : loc.prefix.slice(0, slash) }, opts), group };
  }
  if (isS3Url(runsDir)) {
    if (arg.includes("/")) throw new UserError(`${what}: "${arg}" is not a group name inside ${runsDir} (give the name alone, or the group's s3:// URL)`);
    return { store: await openS3(parseS3Url(runsDir), opts), group: arg };
  }
  const candidates = [path.resolve(arg), path.resolve(runsDir, arg)];
  const dir = candidates.find((d) => fs.existsSync(path.join(d, "metadata.json")));
  if (!dir) throw new UserError(`${what}: no run group at ${[...new Set(candidates)].join(" or ")} (expected a dir with metadata.json)`);
  return { store: new FsResultStore(path.dirname(dir)), group: path.basename(dir) };
}

/** Read a group's metadata or fail naming where it was looked for. */
export async function requireGroup(store: ResultStore, group: string, what = "run group"): Promise<GroupMetadata> {
  const meta = await store.readGroup(group);
  if (!meta) throw new UserError(`${what}: no run group at ${store.location(group)} (expected metadata.json there)`);
  return meta;
}
