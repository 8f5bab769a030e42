import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eachLimit } from "../core/each-limit.js";
import { writeGroupMetadata, type GroupMetadata } from "../results/record.js";
import { isS3Url } from "./s3-url.js";
import type { ResultStore } from "./result-store.js";
import { locateGroup, requireGroup } from "./store.js";
import { removeTree } from "../io/remove-tree.js";

/** What a pull did to each run of the group. */
export interface PullResult {
  dir: string;
  meta: GroupMetadata;
  pulled: string[];
  upToDate: string[];
  /** Runs with nothing published yet (queued, running, or lost). */
  unpublished: string[];
}

/**
 * Copy a group's published runs into `<toDir>/<group>/`, each run swapped in whole (downloaded beside it, then
 * renamed), so the local group is always readable by `mlebench report`; runs already there unchanged are skipped.
 */
export async function pullGroup(store: ResultStore, group: string, toDir: string, onRun: (runId: string, what: string) => void = () => {}): Promise<PullResult> {
  const meta = await requireGroup(store, group, "pull");
  const dir = path.join(toDir, meta.run_group);
  fs.mkdirSync(dir, { recursive: true });
  const outcome: ("pulled" | "upToDate" | "unpublished")[] = new Array(meta.tasks.length);
  // A few runs at once (each run's files already move several at a time).
  await eachLimit([...meta.tasks.keys()], 4, async (index) => {
    const t = meta.tasks[index];
    const record = await store.published(meta.run_group, t.run_id);
    if (!record) {
      outcome[index] = "unpublished";
      onRun(t.run_id, "not published yet");
      return;
    }
    const local = path.join(dir, t.run_id);
    if (sameRecord(path.join(local, "run.json"), record)) {
      outcome[index] = "upToDate";
      return;
    }
    const tmp = path.join(dir, `.pull-${t.run_id}.${randomBytes(4).toString("hex")}`);
    try {
      await store.download(meta.run_group, t.run_id, tmp);
      // A run set aside and run again replaces the stale local copy.
      if (fs.existsSync(local)) removeTree(local);
      fs.renameSync(tmp, local);
    } finally {
      removeTree(tmp);
    }
    outcome[index] = "pulled";
    onRun(t.run_id, `${record.status}${record.grading ? `, score ${record.grading.score ?? "invalid"}` : ""}`);
  });
  const ids = (kind: (typeof outcome)[number]) => meta.tasks.filter((_, i) => outcome[i] === kind).map((t) => t.run_id);
  const result: PullResult = { dir, meta, pulled: ids("pulled"), upToDate: ids("upToDate"), unpublished: ids("unpublished") };
  writeGroupMetadata(dir, meta);
  return result;
}

function sameRecord(file: string, record: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(fs.readFileSync(file, "utf8"))) === JSON.stringify(record);
  } catch {
    return false;
  }
}

/** Where groups named by s3:// URL on other commands are pulled to; kept, so a second use fetches only what is new. */
export function s3CacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.MLEBENCH_S3_CACHE || path.join(os.tmpdir(), "mlebench-s3-cache");
}

/** A local dir for a run group argument: itself, or for an s3:// group URL its copy pulled into the cache. */
export async function localGroupDir(arg: string, what: string, log: (line: string) => void = () => {}): Promise<string> {
  if (!isS3Url(arg)) return arg;
  const { store, group } = await locateGroup(arg, ".", {}, what);
  // One cache dir per bucket and prefix: two buckets may hold groups of the same name.
  const under = path.join(s3CacheDir(), store.location("").replace(/^s3:\/\//, "").replace(/\/+$/, ""));
  const r = await pullGroup(store, group, under);
  log(`${arg}: ${r.pulled.length} runs pulled, ${r.upToDate.length} cached, ${r.unpublished.length} not published yet (${r.dir})`);
  return r.dir;
}
