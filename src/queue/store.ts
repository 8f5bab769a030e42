import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.js";
import type { GroupMetadata } from "../results/record.js";
import { FsResultStore } from "./fs-store.js";
import type { ResultStore, StoreOptions } from "./result-store.js";
import { isS3Url, parseS3Url, type S3Location } from "./s3-url.js";

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
