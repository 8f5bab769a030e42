import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import type { Competition } from "../core/competition.js";
import { eachLimit } from "../core/each-limit.js";
import { groupBaseName, newGroupMetadata } from "../runner/group.js";
import { parseGroupMetadata, RunRecordSchema, type GroupMetadata, type RunRecord } from "../results/record.js";
import { DEFAULT_TUNING, MissingObjectError, S3Bucket, s3Settings, type S3Tuning } from "./s3-bucket.js";
import { s3Url, type S3Location } from "./s3-url.js";
import { SET_ASIDE, STAGING } from "./fs-store.js";
import type { ResultStore, StoreOptions } from "./result-store.js";
import { removeTree } from "../io/remove-tree.js";

// The SDK warns on every Node 20 process about its future releases; this project pins a release that supports Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const CLAIMS = ".claims";
/** Transfers in flight at once while publishing (a run dir is many small files; each request waits on a round trip). */
const TRANSFERS = 8;


/** The claim of the attempt that publishes a run: its token and the files it staged under `.staging/<run>/<token>/`. */
const ClaimSchema = z.object({
  token: z.string(),
  files: z.array(z.object({ path: z.string(), size: z.number().int().nonnegative() })),
});
type Claim = z.infer<typeof ClaimSchema>;

/**
 * Regular files under a dir as relative /-separated paths, plus each empty dir as `path/` with size 0 (S3 has no
 * dirs; a zero-byte key ending in "/" is the usual stand-in, and keeps a run's empty code/ or workspace/ on a pull).
 * Links are not followed.
 */
function walkFiles(root: string): { path: string; size: number }[] {
  const out: { path: string; size: number }[] = [];
  const walk = (dir: string, rel: string) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    if (entries.length === 0 && rel !== "") out.push({ path: `${rel}/`, size: 0 });
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(dir, e.name), r);
      else if (e.isFile()) out.push({ path: r, size: fs.statSync(path.join(dir, e.name)).size });
    }
  };
  walk(root, "");
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Remove staged runs (`<dir>/<group>/<run>.<pid>.<rand>`) whose process is gone: workers killed on this machine. */
export function removeDeadStaging(dir: string): number {
  let removed = 0;
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "EPERM";
    }
  };
  for (const group of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const groupDir = path.join(dir, group);
    if (!fs.statSync(groupDir).isDirectory()) continue;
    for (const name of fs.readdirSync(groupDir)) {
      const pid = Number(/\.(\d+)\.[^.]+$/.exec(name)?.[1]);
      if (!Number.isInteger(pid) || pid <= 0 || alive(pid)) continue;
      removeTree(path.join(groupDir, name));
      removed++;
    }
  }
  return removed;
}

/**
 * Run groups in an S3-compatible bucket. S3 has no rename, so a run is published in three steps: its files are
 * uploaded under `<group>/.staging/<run>/<token>/`; the attempt claims the run with a conditional write of
 * `<group>/.claims/<run>` (first claim wins); the claimed files are copied to `<group>/<run>/` with run.json last.
 * Readers see a run only once its run.json exists, so they see all of it or nothing. Anyone who finds a claim whose
 * run.json is missing (its publisher died while copying) finishes the copy from the claimed staging files.
 */
export class S3ResultStore implements ResultStore {
  readonly bucket: S3Bucket;
  private readonly stagingDir: string;
  private checked: Promise<string[]> | null = null;
  private cleaned = false;

  constructor(
    private readonly loc: S3Location,
    opts: StoreOptions & { tuning?: Partial<S3Tuning> } = {},
  ) {
    this.bucket = new S3Bucket(loc.bucket, s3Settings(opts.env ?? process.env), { ...DEFAULT_TUNING, ...opts.tuning });
    this.stagingDir = opts.stagingDir ?? path.join(os.tmpdir(), "mlebench-s3-staging");
  }

  /** The key of a path inside the store's prefix. */
  key(...parts: string[]): string {
    return [this.loc.prefix, ...parts].filter((p) => p !== "").join("/");
  }

  describe(): string {
    return `${s3Url(this.loc)} (${this.bucket.endpoint()})`;
  }

  location(group: string, runId?: string): string {
    return s3Url(this.loc, runId === undefined ? group : `${group}/${runId}`);
  }

  check(): Promise<string[]> {
    this.checked ??= this.probe();
    return this.checked;
  }

  private async probe(): Promise<string[]> {
    await this.bucket.checkBucket();
    // Publication relies on conditional writes; some S3-compatible servers accept the header and ignore it.
    const key = this.key(".mlebench-probe", randomBytes(8).toString("hex"));
    await this.bucket.put(key, "1");
    const ignored = await this.bucket.putIfAbsent(key, "2");
    await this.bucket.delete([key]);
    if (!ignored) return [];
    return [
      `${this.bucket.endpoint()} ignores conditional writes (If-None-Match): a run whose attempts finish one after the other is ` +
        "still published once, but two attempts finishing at the same moment could both publish it",
    ];
  }

  async createGroup(agentId: string, competitions: Competition[], seeds: number, options: Record<string, unknown>): Promise<GroupMetadata> {
    const base = groupBaseName(agentId);
    for (let i = 1; ; i++) {
      const name = i === 1 ? base : `${base}-${i}`;
      const key = this.key(name, "metadata.json");
      if (await this.bucket.exists(key)) continue;
      const meta = newGroupMetadata(name, agentId, competitions, seeds, options);
      if (await this.bucket.putIfAbsent(key, JSON.stringify(meta, null, 4) + "\n")) return meta;
    }
  }

  async readGroup(group: string): Promise<GroupMetadata | null> {
    const key = this.key(group, "metadata.json");
    const body = await this.bucket.get(key);
    if (body === null) return null;
    return parseGroupMetadata(body.toString("utf8"), `s3://${this.loc.bucket}/${key}`);
  }

  async writeGroup(meta: GroupMetadata): Promise<void> {
    await this.bucket.put(this.key(meta.run_group, "metadata.json"), JSON.stringify(meta, null, 4) + "\n");
  }

  async hasGroup(group: string): Promise<boolean> {
    return this.bucket.exists(this.key(group, "metadata.json"));
  }

  async published(group: string, runId: string): Promise<RunRecord | null> {
    const body = await this.bucket.get(this.key(group, runId, "run.json"));
    if (body === null) return null;
    try {
      return RunRecordSchema.parse(JSON.parse(body.toString("utf8")));
    } catch {
      return null;
    }
  }

  async setAside(group: string, runId: string): Promise<void> {
    const prefix = this.key(group, runId) + "/";
    const objects = await this.bucket.list(prefix);
    const aside = this.key(group, SET_ASIDE, `${runId}.${Date.now()}`);
    await eachLimit(objects, TRANSFERS, (o) => this.bucket.copy(o.key, `${aside}/${o.key.slice(prefix.length)}`, o.size));
    // run.json first: the run stops being published before its other files go.
    const runJson = prefix + "run.json";
    await this.bucket.delete([runJson]);
    await this.bucket.delete(objects.map((o) => o.key).filter((k) => k !== runJson));
    await this.bucket.delete([this.key(group, CLAIMS, runId)]);
  }

  async stage(group: string, runId: string): Promise<string> {
    if (!this.cleaned) {
      this.cleaned = true;
      removeDeadStaging(this.stagingDir);
    }
    const parent = path.join(this.stagingDir, group);
    fs.mkdirSync(parent, { recursive: true });
    // The pid in the name lets a later worker on this machine remove what a killed one left.
    return fs.mkdtempSync(path.join(parent, `${runId}.${process.pid}.`));
  }

  async publish(group: string, runId: string, staged: string): Promise<boolean> {
    const files = walkFiles(staged);
    if (!files.some((f) => f.path === "run.json")) throw new Error(`cannot publish ${staged}: it has no run.json`);
    if (await this.bucket.exists(this.key(group, runId, "run.json"))) {
      await this.discard(staged);
      return false;
    }
    const token = randomBytes(8).toString("hex");
    const stagedPrefix = this.stagedPrefix(group, runId, token);
    await eachLimit(files, TRANSFERS, async (f) => {
      const key = `${stagedPrefix}/${f.path}`;
      if (f.path.endsWith("/")) await this.bucket.put(key, "");
      else await this.bucket.uploadFile(key, path.join(staged, f.path), f.size);
    });
    const mine: Claim = { token, files };
    const claimKey = this.key(group, CLAIMS, runId);
    // Looking first keeps a server that ignores If-None-Match from letting a late attempt replace a finished claim.
    let claim = await this.readClaim(group, runId);
    if (!claim) {
      // Whether this write won or lost (412), the claim now there says who publishes.
      await this.bucket.putIfAbsent(claimKey, JSON.stringify(mine));
      claim = await this.readClaim(group, runId);
    }
    if (!claim) throw new Error(`S3: the claim s3://${this.loc.bucket}/${claimKey} vanished while publishing ${runId}`);
    const won = claim.token === token;
    await this.finish(group, runId, claim);
    if (!won) await this.bucket.deletePrefix(stagedPrefix + "/");
    await this.discard(staged);
    return won;
  }

  private stagedPrefix(group: string, runId: string, token: string): string {
    return this.key(group, STAGING, runId, token);
  }

  private async readClaim(group: string, runId: string): Promise<Claim | null> {
    const key = this.key(group, CLAIMS, runId);
    const body = await this.bucket.get(key);
    if (body === null) return null;
    try {
      return ClaimSchema.parse(JSON.parse(body.toString("utf8")));
    } catch (e) {
      throw new Error(`S3: s3://${this.loc.bucket}/${key} is not a publication claim (${(e as Error).message.split("\n")[0]})`);
    }
  }

  /** Copy a claim's staged files into the run's place, run.json last, then drop the staged copy (safe to repeat). */
  private async finish(group: string, runId: string, claim: Claim): Promise<void> {
    const runJson = this.key(group, runId, "run.json");
    const from = this.stagedPrefix(group, runId, claim.token);
    if (!(await this.bucket.exists(runJson))) {
      const copy = (f: Claim["files"][number]) => this.bucket.copy(`${from}/${f.path}`, this.key(group, runId, f.path), f.size);
      try {
        await eachLimit(claim.files.filter((f) => f.path !== "run.json"), TRANSFERS, copy);
        // Only once everything else is in place: its appearance is what publishes the run.
        await copy(claim.files.find((f) => f.path === "run.json")!);
      } catch (e) {
        // Another finisher completed and cleaned the staged files while this one was copying.
        if (!(e instanceof MissingObjectError) || !(await this.bucket.exists(runJson))) throw e;
      }
    }
    await this.bucket.deletePrefix(from + "/");
  }

  async discard(staged: string): Promise<void> {
    removeTree(staged);
  }

  async sweep(group: string): Promise<number> {
    const prefix = this.key(group, STAGING) + "/";
    const objects = await this.bucket.list(prefix);
    const attempts = new Set(objects.map((o) => o.key.slice(prefix.length).split("/").slice(0, 2).join("/")));
    await this.bucket.delete(objects.map((o) => o.key));
    return attempts.size;
  }

  async download(group: string, runId: string, dest: string): Promise<void> {
    const prefix = this.key(group, runId) + "/";
    const objects = await this.bucket.list(prefix);
    const last = prefix + "run.json";
    fs.mkdirSync(dest, { recursive: true });
    const fetch = async (o: { key: string }) => {
      const rel = o.key.slice(prefix.length);
      const dir = rel.endsWith("/");
      const parts = (dir ? rel.slice(0, -1) : rel).split("/");
      // Keys are written by this store, but a bucket is shared: never let a key name a path outside the run.
      if (parts.some((p) => p === "" || p === "." || p === "..")) return;
      if (dir) fs.mkdirSync(path.join(dest, ...parts), { recursive: true });
      else await this.bucket.download(o.key, path.join(dest, ...parts));
    };
    await eachLimit(objects.filter((o) => o.key !== last), TRANSFERS, fetch);
    for (const o of objects.filter((x) => x.key === last)) await fetch(o);
  }
}
