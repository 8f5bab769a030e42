import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCompetition } from "../../src/competitions/registry.js";
import { FsResultStore } from "../../src/queue/fs-store.js";
import { pullGroup } from "../../src/queue/pull.js";
import { removeDeadStaging, S3ResultStore } from "../../src/queue/s3-store.js";
import { parseS3Url } from "../../src/queue/s3-url.js";
import { locateGroup, openResultStore } from "../../src/queue/store.js";
import type { RunRecord } from "../../src/results/record.js";
import { tempDir } from "../helpers/data-dir.js";
import { freePort } from "./redis.js";
import { startS3, type TestS3 } from "./s3.js";
import { conditionalProxy } from "./s3-conditional.js";

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.stop();
});

/** A store under its own prefix, staging in its own temp dir; 5 MiB parts so a 12 MiB file is sent in three. */
function newStore(prefix = `p-${randomBytes(4).toString("hex")}`, endpoint = s3.endpoint): S3ResultStore {
  return new S3ResultStore(
    { bucket: s3.bucket, prefix },
    { env: { ...s3.env, AWS_ENDPOINT_URL: endpoint }, stagingDir: tempDir("mlebench-s3stage-"), tuning: { partSize: 5 * 2 ** 20 } },
  );
}

const record = (runId: string, over: Partial<RunRecord> = {}): RunRecord => ({
  run_id: runId, competition_id: "titanic", agent_id: "dummy", seed: 0, status: "completed", exit_reason: "finished", exit_code: 0,
  exit_signal: null, started_at: "2026-01-01T00:00:00.000000", ended_at: "2026-01-01T00:00:01.000000", wall_seconds: 1, attempts: 1,
  sandbox: { backend: "local", limits: { wallMs: 1000, memoryBytes: null, pids: 64, cpus: null, diskBytes: null, tmpBytes: null, outputBytes: 1024 }, gpus: [], allow_hosts: [], warnings: [] },
  secret_env: [], peaks: null, output_dropped_bytes: 0, validation_requests: 0, snapshots: [], submission_rejected: null, grading: null, error: null,
  ...over,
});

/** Stage a run dir with run.json, a nested file, an empty dir and whatever else is given. */
async function staged(store: S3ResultStore, group: string, runId: string, who: string, extra: Record<string, Buffer | string> = {}): Promise<string> {
  const dir = await store.stage(group, runId);
  fs.mkdirSync(path.join(dir, "submission"));
  fs.mkdirSync(path.join(dir, "code"));
  fs.writeFileSync(path.join(dir, "submission", "submission.csv"), `PassengerId,Survived\n892,${who}\n`);
  for (const [name, body] of Object.entries(extra)) fs.writeFileSync(path.join(dir, name), body);
  fs.writeFileSync(path.join(dir, "run.json"), JSON.stringify(record(runId, { error: who })));
  return dir;
}

const keys = async (store: S3ResultStore, under: string) => (await store.bucket.list(store.key(under) + "/")).map((o) => o.key.slice(store.key(under).length + 1)).sort();
const text = async (store: S3ResultStore, key: string) => (await store.bucket.get(store.key(key)))?.toString("utf8") ?? null;

describe("S3ResultStore on a local S3-compatible server (s3rver)", () => {
  it("creates groups under fresh names, reads and rewrites their metadata", async () => {
    const store = newStore();
    const titanic = getCompetition("titanic");
    const a = await store.createGroup("dummy", [titanic], 2, { seeds: 2 });
    const b = await store.createGroup("dummy", [titanic], 1, {});
    expect(a.run_group).toMatch(/_run-group_dummy$/);
    expect(b.run_group === a.run_group).toBe(false);
    expect(a.tasks.map((t) => [t.competition_id, t.seed])).toEqual([["titanic", 0], ["titanic", 1]]);
    expect(await store.hasGroup(a.run_group)).toBe(true);
    expect(await store.hasGroup("nope")).toBe(false);
    expect(await store.readGroup("nope")).toBeNull();
    expect(await store.readGroup(a.run_group)).toEqual(a);
    a.runs[a.tasks[0].run_id] = { success: true };
    await store.writeGroup(a);
    expect((await store.readGroup(a.run_group))!.runs).toEqual({ [a.tasks[0].run_id]: { success: true } });
    expect(store.location(a.run_group, "r1")).toBe(`s3://${s3.bucket}/${store.key(a.run_group)}/r1`);
    await store.bucket.put(store.key("broken", "metadata.json"), "{not json");
    await expect(store.readGroup("broken")).rejects.toThrow(`s3://${s3.bucket}/${store.key("broken")}/metadata.json is not a run group's metadata`);
  });

  it("publishes a run whole (large files in parts), once: a later attempt publishes nothing and leaves nothing staged", async () => {
    const store = newStore();
    const big = randomBytes(12 * 2 ** 20);
    const first = await staged(store, "g", "r1", "first", { "model.bin": big });
    expect(await store.published("g", "r1")).toBeNull();
    expect(await store.publish("g", "r1", first)).toBe(true);
    expect(fs.existsSync(first)).toBe(false);
    expect((await store.published("g", "r1"))?.error).toBe("first");
    expect(await keys(store, "g/r1")).toEqual(["code/", "model.bin", "run.json", "submission/submission.csv"]);
    expect((await store.bucket.get(store.key("g/r1/model.bin")))!.equals(big)).toBe(true);
    const second = await staged(store, "g", "r1", "second");
    expect(await store.publish("g", "r1", second)).toBe(false);
    expect(fs.existsSync(second)).toBe(false);
    expect(await text(store, "g/r1/submission/submission.csv")).toBe("PassengerId,Survived\n892,first\n");
    expect((await store.published("g", "r1"))?.error).toBe("first");
    expect(await keys(store, "g/.staging")).toEqual([]);
    expect(await keys(store, "g/.claims")).toEqual(["r1"]);
  });

  it("finishes the publication of an attempt that died after claiming the run, instead of publishing its own", async () => {
    const store = newStore();
    // What a publisher leaves when it is killed between its claim and its copy: staged files and a claim.
    const token = "deadbeef";
    await store.bucket.put(store.key("g/.staging/r1", token, "submission/submission.csv"), "PassengerId,Survived\n892,dead\n");
    const runJson = JSON.stringify(record("r1", { error: "dead" }));
    await store.bucket.put(store.key("g/.staging/r1", token, "run.json"), runJson);
    await store.bucket.put(
      store.key("g/.claims/r1"),
      JSON.stringify({ token, files: [{ path: "run.json", size: runJson.length }, { path: "submission/submission.csv", size: 29 }] }),
    );
    expect(await store.published("g", "r1")).toBeNull();
    const late = await staged(store, "g", "r1", "late");
    expect(await store.publish("g", "r1", late)).toBe(false);
    expect((await store.published("g", "r1"))?.error).toBe("dead");
    expect(await text(store, "g/r1/submission/submission.csv")).toBe("PassengerId,Survived\n892,dead\n");
    expect(await keys(store, "g/.staging")).toEqual([]);
  });

  it("sets a failed run aside so it can be published again, and sweeps what lost attempts left staged", async () => {
    const store = newStore();
    await store.publish("g", "r1", await staged(store, "g", "r1", "failed-once"));
    await store.setAside("g", "r1");
    expect(await store.published("g", "r1")).toBeNull();
    expect(await keys(store, "g/r1")).toEqual([]);
    const aside = await keys(store, "g/.set-aside");
    expect(aside).toHaveLength(3);
    expect(aside.map((k) => k.replace(/^r1\.\d+\//, ""))).toEqual(["code/", "run.json", "submission/submission.csv"]);
    expect(await store.publish("g", "r1", await staged(store, "g", "r1", "again"))).toBe(true);
    expect((await store.published("g", "r1"))?.error).toBe("again");

    await store.bucket.put(store.key("g/.staging/r2/aaaa/run.json"), "{}");
    await store.bucket.put(store.key("g/.staging/r2/aaaa/x"), "1");
    await store.bucket.put(store.key("g/.staging/r3/bbbb/run.json"), "{}");
    expect(await store.sweep("g")).toBe(2);
    expect(await keys(store, "g/.staging")).toEqual([]);
  });

  it("pulls a group's published runs into a local dir, skipping what is already there", async () => {
    const store = newStore();
    const meta = await store.createGroup("dummy", [getCompetition("titanic")], 3, {});
    const [t0, t1, t2] = meta.tasks.map((t) => t.run_id);
    await store.publish(meta.run_group, t0, await staged(store, meta.run_group, t0, "zero", { "notes.txt": "n" }));
    await store.publish(meta.run_group, t1, await staged(store, meta.run_group, t1, "one"));
    const to = tempDir("mlebench-pull-");
    const r = await pullGroup(store, meta.run_group, to);
    expect({ pulled: r.pulled, upToDate: r.upToDate, unpublished: r.unpublished }).toEqual({ pulled: [t0, t1], upToDate: [], unpublished: [t2] });
    const local = path.join(to, meta.run_group);
    expect(fs.readdirSync(local).sort()).toEqual(["metadata.json", t0, t1].sort());
    expect(fs.readFileSync(path.join(local, t0, "notes.txt"), "utf8")).toBe("n");
    expect(fs.readdirSync(path.join(local, t0)).sort()).toEqual(["code", "notes.txt", "run.json", "submission"]);
    expect(fs.readdirSync(path.join(local, t0, "code"))).toEqual([]);
    expect(fs.readFileSync(path.join(local, t1, "submission", "submission.csv"), "utf8")).toBe("PassengerId,Survived\n892,one\n");
    expect(JSON.parse(fs.readFileSync(path.join(local, "metadata.json"), "utf8")).tasks).toEqual(meta.tasks);
    await store.publish(meta.run_group, t2, await staged(store, meta.run_group, t2, "two"));
    const again = await pullGroup(store, meta.run_group, to);
    expect({ pulled: again.pulled, upToDate: again.upToDate, unpublished: again.unpublished }).toEqual({ pulled: [t2], upToDate: [t0, t1], unpublished: [] });
    // The same group read back from the local copy through the filesystem store.
    const { store: fsStore, group } = await locateGroup(local, "runs");
    expect(fsStore).toBeInstanceOf(FsResultStore);
    expect((await fsStore.published(group, t2))?.error).toBe("two");
  });

  it("warns that s3rver ignores conditional writes (first-wins then rests on looking before claiming)", async () => {
    const warnings = await newStore().check();
    expect(warnings).toEqual([
      `${s3.endpoint} ignores conditional writes (If-None-Match): a run whose attempts finish one after the other is still ` +
        "published once, but two attempts finishing at the same moment could both publish it",
    ]);
  });

  it("with conditional writes (as AWS S3 has them), one of four attempts finishing at once publishes, whole", async () => {
    const proxy = await conditionalProxy(s3, 50);
    try {
      const prefix = `p-${randomBytes(4).toString("hex")}`;
      const stores = [0, 1, 2, 3].map(() => newStore(prefix, proxy.endpoint));
      expect(await stores[0].check()).toEqual([]);
      const dirs = await Promise.all(stores.map((st, i) => staged(st, "g", "r1", `w${i}`, { [`only-w${i}.txt`]: `w${i}` })));
      const won = await Promise.all(stores.map((st, i) => st.publish("g", "r1", dirs[i])));
      expect(won.filter((x) => x)).toHaveLength(1);
      expect(proxy.conflicts()).toBeGreaterThanOrEqual(1);
      const winner = `w${won.indexOf(true)}`;
      const store = stores[0];
      expect((await store.published("g", "r1"))?.error).toBe(winner);
      expect(await keys(store, "g/r1")).toEqual(["code/", `only-${winner}.txt`, "run.json", "submission/submission.csv"]);
      expect(await text(store, "g/r1/submission/submission.csv")).toBe(`PassengerId,Survived\n892,${winner}\n`);
      expect(await keys(store, "g/.staging")).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("names the bucket, endpoint and cause when the store cannot be used", async () => {
    const missing = new S3ResultStore({ bucket: "no-such-bucket", prefix: "" }, { env: s3.env });
    await expect(missing.check()).rejects.toThrow(`S3: cannot use s3://no-such-bucket: bucket "no-such-bucket" does not exist at ${s3.endpoint}`);
    const port = await freePort();
    const down = new S3ResultStore({ bucket: s3.bucket, prefix: "" }, { env: { ...s3.env, AWS_ENDPOINT_URL: `http://127.0.0.1:${port}` } });
    await expect(down.check()).rejects.toThrow(`S3: cannot use s3://${s3.bucket}: cannot reach http://127.0.0.1:${port} (ECONNREFUSED)`);
    const wrongKey = new S3ResultStore({ bucket: s3.bucket, prefix: "" }, { env: { ...s3.env, AWS_ACCESS_KEY_ID: "WRONG" } });
    await expect(wrongKey.readGroup("g")).rejects.toThrow(`S3: cannot read s3://${s3.bucket}/g/metadata.json: ${s3.endpoint} rejected the AWS credentials (InvalidAccessKeyId)`);
    // Causes a local server cannot produce, as the SDK reports them.
    const b = newStore("").bucket;
    expect(b.fail({ name: "PermanentRedirect", $metadata: { httpStatusCode: 301 } }, "cannot read", "g/metadata.json").message).toBe(
      `S3: cannot read s3://${s3.bucket}/g/metadata.json: the bucket is not in region us-east-1 (set AWS_REGION to the bucket's region)`,
    );
    expect(b.fail({ name: "CredentialsProviderError", message: "Could not load credentials from any providers" }, "cannot use").message).toBe(
      `S3: cannot use s3://${s3.bucket}: no AWS credentials found (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE)`,
    );
    expect(b.fail({ name: "AccessDenied", $metadata: { httpStatusCode: 403 } }, "cannot write", "k").message).toBe(
      `S3: cannot write s3://${s3.bucket}/k: access denied by ${s3.endpoint} (check the credentials' permissions on the bucket)`,
    );
    await expect(openResultStore("s3://x/")).rejects.toThrow('--runs-dir: "s3://x/" is not an S3 location: bucket "x" is not a valid bucket name');
    expect(() => new S3ResultStore({ bucket: s3.bucket, prefix: "" }, { env: { AWS_ENDPOINT_URL: "ftp://h" } })).toThrow('AWS_ENDPOINT_URL: "ftp://h" is not an http(s) URL');
  });
});

describe("local staging of an S3 store", () => {
  it("removes what workers killed on this machine left staged, and only that", () => {
    const dir = tempDir("mlebench-s3stage-");
    const dead = spawnSync("true").pid!;
    fs.mkdirSync(path.join(dir, "g", `r1.${dead}.abc`, "submission"), { recursive: true });
    fs.mkdirSync(path.join(dir, "g", `r2.${process.pid}.def`), { recursive: true });
    fs.mkdirSync(path.join(dir, "h", "not-a-stage"), { recursive: true });
    expect(removeDeadStaging(dir)).toBe(1);
    expect(fs.readdirSync(path.join(dir, "g"))).toEqual([`r2.${process.pid}.def`]);
    expect(fs.readdirSync(path.join(dir, "h"))).toEqual(["not-a-stage"]);
    expect(removeDeadStaging(path.join(dir, "absent"))).toBe(0);
  });
});

describe("S3 locations", () => {
  it("parses buckets and prefixes, and finds the group in a group URL", async () => {
    expect(parseS3Url("s3://my-bucket")).toEqual({ bucket: "my-bucket", prefix: "" });
    expect(parseS3Url("s3://my.bucket/a/b/")).toEqual({ bucket: "my.bucket", prefix: "a/b" });
    expect(() => parseS3Url("s3://Upper/x")).toThrow('bucket "Upper" is not a valid bucket name');
    expect(() => parseS3Url("s3://bkt/a//b")).toThrow('prefix "a//b" has an empty, "." or ".." part');
    expect(() => parseS3Url("s3://bkt/../b")).toThrow('has an empty, "." or ".." part');
    const { store, group } = await locateGroup("s3://bkt/team/g1", "runs");
    expect(group).toBe("g1");
    expect(store.location(group, "r")).toBe("s3://bkt/team/g1/r");
    const byName = await locateGroup("g2", "s3://bkt/team");
    expect(byName.store.location(byName.group)).toBe("s3://bkt/team/g2");
    await expect(locateGroup("s3://bkt", "runs", {}, "status")).rejects.toThrow('status: "s3://bkt" names a bucket, not a run group');
    await expect(locateGroup("a/b", "s3://bkt")).rejects.toThrow('"a/b" is not a group name inside s3://bkt');
  });
});
