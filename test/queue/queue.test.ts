import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Queue } from "bullmq";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getCompetition } from "../../src/competitions/registry.js";
import { QUEUE_NAME, jobId } from "../../src/queue/jobs.js";
import type { GroupMetadata, RunRecord } from "../../src/results/record.js";
import { CLI, mlebench, mlebenchAsync, type CliResult } from "../helpers/cli.js";
import { startViewCli } from "../helpers/view.js";
import { tempDir } from "../helpers/data-dir.js";
import { agentLog, runCli, titanicDataDir } from "../helpers/runs.js";
import { freePort, makeNetns, netnsAvailable, startRedis, startWorker, type TestRedis, type TestWorker } from "./redis.js";
import { startS3, type TestS3 } from "./s3.js";

let dataDir = "";
const SAMPLE = getCompetition("titanic").sampleSubmission;
/** An agent that sleeps, then submits the sample submission (the local sandbox names its dirs in env vars). */
const sleepThenSubmit = (seconds: number) => `sleep ${seconds}; cp "$MLEBENCH_DATA_DIR/${SAMPLE}" "$MLEBENCH_SUBMISSION_DIR/submission.csv"`;

let redis: TestRedis | null = null;
let workers: TestWorker[] = [];

beforeAll(async () => {
  dataDir = await titanicDataDir();
});

afterEach(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  workers = [];
  await redis?.stop();
  redis = null;
});

const readJson = <T>(f: string) => JSON.parse(fs.readFileSync(f, "utf8")) as T;

interface QueuedOut {
  dir: string;
  finished: boolean;
  runs: { run_id: string; seed: number; status: string; worker: string | null; attempts: number; error: string | null }[];
}

/** `mlebench run --queue` with --json; parses what it printed. */
async function produce(url: string, runsDir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult & { out: QueuedOut | null }> {
  const r = await mlebenchAsync(["run", "--queue", url, "--runs-dir", runsDir, "--data-dir", dataDir, "--sandbox", "local", "--json", ...args], env);
  let out: QueuedOut | null = null;
  try {
    out = JSON.parse(r.stdout) as QueuedOut;
  } catch {
    // left null: the assertion on the status shows stderr
  }
  return { ...r, out };
}

function worker(name: string, runsDir: string, extra: string[] = [], env: Record<string, string> = {}, data = dataDir): TestWorker {
  const w = startWorker(name, ["--queue", redis!.url, "--runs-dir", runsDir, "--data-dir", data, "--sandbox", "local", ...extra], env);
  workers.push(w);
  return w;
}

/** The entries of a group dir other than metadata.json. */
const runEntries = (groupDir: string) => fs.readdirSync(groupDir).filter((n) => n !== "metadata.json").sort();

/**
 * The run.json fields a queued run must share with a local one (not ids, times or peaks). The
 * default disk cap is a share of the free space when the run starts, so only its presence compares.
 */
const comparable = (r: RunRecord) => ({
  competition_id: r.competition_id,
  agent_id: r.agent_id,
  seed: r.seed,
  status: r.status,
  exit_reason: r.exit_reason,
  exit_code: r.exit_code,
  attempts: r.attempts,
  backend: r.sandbox.backend,
  limits: { ...r.sandbox.limits, diskBytes: typeof r.sandbox.limits.diskBytes === "number" ? "share of the free space" : r.sandbox.limits.diskBytes },
  submission_rejected: r.submission_rejected,
  grading: r.grading,
  error: r.error,
  validation_requests: r.validation_requests,
});

describe("mlebench run --queue with mlebench worker", () => {
  it("three workers drain a group into the same run group a local run makes; a repeated job writes nothing", async () => {
    const args = ["--agent", "dummy", "-c", "titanic", "--seeds", "6", "--grade", "--time-limit", "2m"];
    const local = runCli(dataDir, [...args, "--workers", "3", "--sandbox", "local"]);
    expect(local.status, local.stderr).toBe(0);

    redis = await startRedis();
    const runsDir = tempDir("mlebench-qruns-");
    // A long lock: a loaded machine must not make a slow renewal look like a lost worker (attempts are compared).
    for (const n of ["w1", "w2", "w3"]) worker(n, runsDir, ["--lock-duration", "30s", "--stalled-interval", "30s"]);
    const r = await produce(redis.url, runsDir, args);
    expect(r.status, r.stderr).toBe(0);
    const out = r.out!;
    expect(out.finished).toBe(true);
    expect(r.stderr).toMatch(/running titanic seed \d on w\d/);

    const records = out.runs.map((x) => readJson<RunRecord>(path.join(out.dir, x.run_id, "run.json")));
    const bySeed = (a: RunRecord, b: RunRecord) => a.seed - b.seed;
    expect(records.sort(bySeed).map(comparable)).toEqual(local.records.sort(bySeed).map(comparable));
    expect(records.every((x) => x.status === "completed" && x.grading?.valid_submission === true)).toBe(true);
    // Same layout inside each run dir as a local run.
    const layout = (d: string) => fs.readdirSync(d).sort();
    expect(layout(path.join(out.dir, out.runs[0].run_id))).toEqual(layout(local.runDirs[0]));
    // Each run published once, nothing left staged, and the work was shared.
    expect(runEntries(out.dir)).toEqual(out.runs.map((x) => x.run_id).sort());
    expect(new Set(out.runs.map((x) => x.worker)).size).toBeGreaterThanOrEqual(2);
    const meta = readJson<GroupMetadata>(path.join(out.dir, "metadata.json"));
    expect(Object.values(meta.runs).map((x) => x.success)).toEqual([true, true, true, true, true, true]);
    expect(meta.tasks.map((t) => t.seed)).toEqual([0, 1, 2, 3, 4, 5]);

    // Completing a job a second time publishes nothing new.
    const runJson = path.join(out.dir, out.runs[0].run_id, "run.json");
    const before = fs.readFileSync(runJson, "utf8");
    const queue = new Queue(QUEUE_NAME, { connection: { host: "127.0.0.1", port: redis.port, maxRetriesPerRequest: null } });
    try {
      const job = (await queue.getJob(jobId(path.basename(out.dir), out.runs[0].run_id)))!;
      await job.retry("completed");
      let again = job;
      for (let i = 0; i < 200 && !(again.returnvalue?.duplicate === true && (await again.getState()) === "completed"); i++) {
        await new Promise((res) => setTimeout(res, 50));
        again = (await queue.getJob(job.id!))!;
      }
      expect(again.returnvalue).toMatchObject({ status: "completed", duplicate: true });
    } finally {
      await queue.close();
    }
    expect(fs.readFileSync(runJson, "utf8")).toBe(before);
    expect(runEntries(out.dir)).toHaveLength(6);

    const st = await mlebenchAsync(["status", out.dir, "--queue", redis.url, "--json"], {});
    expect(st.status, st.stderr).toBe(0);
    const states = (JSON.parse(st.stdout) as { runs: { state: string; worker: string }[] }).runs;
    expect(states.map((s) => s.state)).toEqual(Array(6).fill("completed"));
    expect(states.every((s) => /^w[123]$/.test(s.worker))).toBe(true);
  });

  it("retries a SIGKILLed worker's run on another worker, which prepares the data and uses its own secrets", async () => {
    redis = await startRedis();
    const runsDir = tempDir("mlebench-qruns-");
    const cmd = `echo "key=$OPENAI_API_KEY"; ${sleepThenSubmit(3)}`;
    const a = worker("wa", runsDir, [], { TEST_LLM_KEY: "key-of-wa" });
    const producing = produce(redis.url, runsDir, [
      "--agent", "external", "--agent-cmd", cmd, "--env", "OPENAI_API_KEY=${{ secrets.TEST_LLM_KEY }}", "-c", "titanic", "--grade", "--max-attempts", "3",
    ]);
    await a.waitFor(/attempt 1 of 3/);
    // The second worker has no prepared data: it must prepare titanic itself.
    const emptyData = tempDir("mlebench-qdata-");
    const b = worker("wb", runsDir, [], { TEST_LLM_KEY: "key-of-wb" }, emptyData);
    await b.waitFor(/waiting for runs/);
    a.child.kill("SIGKILL");
    const r = await producing;
    expect(r.status, r.stderr).toBe(0);
    const out = r.out!;
    expect(out.runs).toHaveLength(1);
    expect(out.runs[0]).toMatchObject({ status: "completed", worker: "wb", attempts: 2 });
    const runDir = path.join(out.dir, out.runs[0].run_id);
    const rec = readJson<RunRecord>(path.join(runDir, "run.json"));
    expect(rec).toMatchObject({ status: "completed", exit_reason: "finished", attempts: 2, secret_env: ["OPENAI_API_KEY"] });
    expect(rec.grading?.valid_submission).toBe(true);
    expect(agentLog(runDir)).toBe("key=key-of-wb\n");
    expect(b.log()).toMatch(/preparing titanic/);
    expect(fs.existsSync(path.join(emptyData, "titanic", "prepared", "public", SAMPLE))).toBe(true);
    expect(runEntries(out.dir)).toEqual([out.runs[0].run_id]);
    expect(r.stderr).toMatch(/running titanic seed 0 on wa \(attempt 1,[^]*running titanic seed 0 on wb \(attempt 2,/);

    // The job in Redis holds the reference, never a worker's secret.
    const queue = new Queue(QUEUE_NAME, { connection: { host: "127.0.0.1", port: redis.port, maxRetriesPerRequest: null } });
    try {
      const data = JSON.stringify((await queue.getJob(jobId(path.basename(out.dir), out.runs[0].run_id)))!.data);
      expect(data).toContain("${{ secrets.TEST_LLM_KEY }}");
      expect(data).not.toContain("key-of");
    } finally {
      await queue.close();
    }
  });

  it("completes a group across a Redis crash and restart (append-only file on)", async () => {
    redis = await startRedis();
    const runsDir = tempDir("mlebench-qruns-");
    const [w1, w2] = [worker("w1", runsDir), worker("w2", runsDir)];
    const producing = produce(redis.url, runsDir, ["--agent", "external", "--agent-cmd", sleepThenSubmit(1.5), "-c", "titanic", "--seeds", "4", "--grade"]);
    await Promise.race([w1.waitFor(/attempt 1 of 3/), w2.waitFor(/attempt 1 of 3/)]);
    await redis.crashAndRestart(1000);
    const r = await producing;
    expect(r.status, r.stderr).toBe(0);
    const out = r.out!;
    expect(out.runs.map((x) => x.status)).toEqual(["completed", "completed", "completed", "completed"]);
    expect(out.runs.map((x) => x.seed)).toEqual([0, 1, 2, 3]);
    expect(runEntries(out.dir)).toEqual(out.runs.map((x) => x.run_id).sort());
    for (const x of out.runs) expect(readJson<RunRecord>(path.join(out.dir, x.run_id, "run.json")).grading?.valid_submission).toBe(true);
  });

  it("ends a run that keeps failing as failed, with the reason in the job and in run.json; a resume retries it, keeping the failed result aside", async () => {
    redis = await startRedis();
    const runsDir = tempDir("mlebench-qruns-");
    worker("w1", runsDir);
    const r = await produce(redis.url, runsDir, [
      "--agent", "external", "--agent-cmd", "true", "--env", "K=${{ secrets.ABSENT_TEST_SECRET }}", "-c", "titanic", "--max-attempts", "2",
    ]);
    expect(r.status, r.stderr).toBe(1);
    const out = r.out!;
    expect(out.runs[0]).toMatchObject({ status: "failed", attempts: 2 });
    const rec = readJson<RunRecord>(path.join(out.dir, out.runs[0].run_id, "run.json"));
    expect(rec.status).toBe("failed");
    expect(rec.attempts).toBe(2);
    expect(rec.error).toMatch(/^worker w1: agent "external": env var K needs secret ABSENT_TEST_SECRET, which is not set/);
    const st = await mlebenchAsync(["status", out.dir, "--queue", redis.url], {});
    expect(st.status).toBe(1);
    expect(st.stdout).toMatch(/failed +titanic seed 0 on w1 \(attempts 2, .*needs secret ABSENT_TEST_SECRET/);
    expect(st.stdout).not.toMatch(/secrets\.ABSENT_TEST_SECRET/);

    // Resuming retries the failed run (on a worker that has the secret); the failed result is set aside.
    await workers[0].stop();
    worker("w2", runsDir, [], { ABSENT_TEST_SECRET: "now-set" });
    const again = await produce(redis.url, runsDir, [
      "--agent", "external", "--agent-cmd", "true", "--env", "K=${{ secrets.ABSENT_TEST_SECRET }}", "--resume", out.dir,
    ]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.out!.runs[0]).toMatchObject({ status: "completed", worker: "w2" });
    expect(readJson<RunRecord>(path.join(out.dir, out.runs[0].run_id, "run.json")).status).toBe("completed");
    const aside = fs.readdirSync(path.join(out.dir, ".set-aside"));
    expect(aside).toHaveLength(1);
    expect(readJson<RunRecord>(path.join(out.dir, ".set-aside", aside[0], "run.json")).error).toBe(rec.error);
  });

  it("--detach returns at once; status shows the queued runs; --resume follows the group to its end", async () => {
    redis = await startRedis();
    const runsDir = tempDir("mlebench-qruns-");
    const r = await produce(redis.url, runsDir, ["--agent", "dummy", "-c", "titanic", "--seeds", "2", "--detach"]);
    expect(r.status, r.stderr).toBe(0);
    const out = r.out!;
    expect(out.finished).toBe(false);
    expect(out.runs.map((x) => x.status)).toEqual(["queued", "queued"]);
    const st = await mlebenchAsync(["status", path.basename(out.dir), "--runs-dir", runsDir, "--queue", redis.url], {});
    expect(st.status).toBe(3);
    expect(st.stdout).toContain("runs: 0/2 done, 0 running, 2 queued, 0 failed");
    worker("w1", runsDir);
    const again = await produce(redis.url, runsDir, ["--agent", "dummy", "--resume", out.dir]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.out!.dir).toBe(out.dir);
    expect(again.out!.runs.map((x) => x.status)).toEqual(["completed", "completed"]);
    // Without --queue, status reads the published run dirs.
    const files = await mlebenchAsync(["status", out.dir], {});
    expect(files.status).toBe(0);
    expect(files.stdout).toContain("runs: 2/2 done, 0 running, 0 queued, 0 failed");
  });
});

describe("run groups in an S3-compatible bucket (s3rver on 127.0.0.1)", () => {
  let s3: TestS3 | null = null;
  afterEach(async () => {
    await s3?.stop();
    s3 = null;
  });

  it("two workers publish into the bucket; status reads it there; pull brings back what a local run writes", async () => {
    const args = ["--agent", "dummy", "-c", "titanic", "--seeds", "4", "--grade", "--time-limit", "2m"];
    const local = runCli(dataDir, [...args, "--workers", "2", "--sandbox", "local"]);
    expect(local.status, local.stderr).toBe(0);

    s3 = await startS3();
    redis = await startRedis();
    const runsUrl = `s3://${s3.bucket}/team/runs`;
    const stage = tempDir("mlebench-s3stage-");
    for (const n of ["w1", "w2"]) worker(n, runsUrl, ["--staging-dir", stage, "--lock-duration", "30s", "--stalled-interval", "30s"], s3.env);
    const r = await produce(redis.url, runsUrl, args, s3.env);
    expect(r.status, r.stderr).toBe(0);
    const out = r.out!;
    expect(out.finished).toBe(true);
    expect(out.dir).toMatch(new RegExp(`^s3://${s3.bucket}/team/runs/[^/]+_run-group_dummy$`));
    expect(out.runs.map((x) => x.status)).toEqual(["completed", "completed", "completed", "completed"]);
    expect(r.stderr).toContain("warning: http://127.0.0.1:");
    expect(workers[0].log()).toContain(`results go to ${runsUrl} (${s3.endpoint})`);
    // Nothing is left on the workers' local staging disk.
    expect(fs.readdirSync(path.join(stage, path.basename(out.dir)))).toEqual([]);

    const st = await mlebenchAsync(["status", path.basename(out.dir), "--runs-dir", runsUrl, "--json"], s3.env);
    expect(st.status, st.stderr).toBe(0);
    const status = JSON.parse(st.stdout) as { dir: string; finished: boolean; runs: { state: string }[] };
    expect(status.dir).toBe(out.dir);
    expect(status.runs.map((x) => x.state)).toEqual(Array(4).fill("completed"));

    const to = tempDir("mlebench-pulled-");
    const pulled = await mlebenchAsync(["pull", out.dir, "--to", to, "--json"], s3.env);
    expect(pulled.status, pulled.stderr).toBe(0);
    const p = JSON.parse(pulled.stdout) as { dir: string; pulled: string[]; unpublished: string[] };
    expect(p.dir).toBe(path.join(to, path.basename(out.dir)));
    expect(p.pulled.sort()).toEqual(out.runs.map((x) => x.run_id).sort());
    expect(runEntries(p.dir)).toEqual(out.runs.map((x) => x.run_id).sort());
    const records = out.runs.map((x) => readJson<RunRecord>(path.join(p.dir, x.run_id, "run.json")));
    const bySeed = (a: RunRecord, b: RunRecord) => a.seed - b.seed;
    expect(records.sort(bySeed).map(comparable)).toEqual(local.records.sort(bySeed).map(comparable));
    const layout = (d: string) => fs.readdirSync(d).sort();
    expect(layout(path.join(p.dir, out.runs[0].run_id))).toEqual(layout(local.runDirs[0]));
    const meta = readJson<GroupMetadata>(path.join(p.dir, "metadata.json"));
    expect(Object.values(meta.runs).map((x) => x.success)).toEqual([true, true, true, true]);
    // The pulled group is an ordinary run group; report also takes the group's URL (pulled into a cache).
    const report = mlebench(["report", p.dir, "--out", tempDir("mlebench-report-"), "--format", "json", "--json"]);
    expect(report.status, report.stderr).toBe(0);
    const cache = tempDir("mlebench-s3cache-");
    const direct = await mlebenchAsync(["report", out.dir, "--out", tempDir("mlebench-report-"), "--format", "json", "--json"], { ...s3.env, MLEBENCH_S3_CACHE: cache });
    expect(direct.status, direct.stderr).toBe(0);
    expect(direct.stderr).toContain(`${out.dir}: 4 runs pulled, 0 cached, 0 not published yet`);
    // The same report but for when it was made and what the input is called.
    const comparableReport = (text: string) => JSON.stringify({ ...JSON.parse(text), created_at: null }).replaceAll(JSON.stringify(p.dir), JSON.stringify(out.dir));
    expect(comparableReport(direct.stdout)).toBe(comparableReport(report.stdout));
    expect(direct.stdout).toContain(JSON.stringify(out.dir));
    expect(fs.existsSync(path.join(cache, s3.bucket, "team", "runs", path.basename(out.dir), "metadata.json"))).toBe(true);
    // The viewer takes the group's URL too: pulled into the cache, then served like a local group.
    const view = await startViewCli([process.execPath, CLI, "view", out.dir, "--data-dir", dataDir], { ...process.env, ...s3.env, MLEBENCH_S3_CACHE: cache });
    try {
      const groups = (await (await fetch(new URL("/api/groups", view.url))).json()) as { id: string; totals: { runs: number; completed: number } }[];
      expect(groups).toMatchObject([{ id: path.basename(out.dir), totals: { runs: 4, completed: 4 } }]);
      const runsShown = (await (await fetch(new URL(`/api/groups/${groups[0]!.id}`, view.url))).json()) as { runs: { run_id: string; score: number }[] };
      expect(runsShown.runs.map((x) => x.run_id).sort()).toEqual(out.runs.map((x) => x.run_id).sort());
      expect(view.stderr()).toContain(`${out.dir}: `);
      expect(view.stderr()).toContain(`0 not published yet (${path.join(cache, s3.bucket, "team", "runs", path.basename(out.dir))})`);
    } finally {
      view.child.kill("SIGTERM");
    }
  });

  it("refuses an s3:// runs dir for a local run, and names an unreachable endpoint", async () => {
    const local = mlebench(["run", "--agent", "dummy", "-c", "titanic", "--runs-dir", "s3://bucket/runs"]);
    expect(local.status).toBe(2);
    expect(local.stderr).toContain("mlebench: s3:// run groups are for queued runs");
    const port = await freePort();
    const st = mlebench(["status", "s3://bucket/runs/g"], { AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`, AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s" });
    expect(st.status).toBe(2);
    expect(st.stderr).toBe(`mlebench: S3: cannot read s3://bucket/runs/g/metadata.json: cannot reach http://127.0.0.1:${port} (ECONNREFUSED)\n`);
  });
});

describe("workers in their own network namespaces", () => {
  it.skipIf(!netnsAvailable())("drain a group through Redis on the host's veth addresses (no shared loopback)", async () => {
    const spaces = [makeNetns(1), makeNetns(2)];
    try {
      redis = await startRedis(spaces.map((n) => n.hostIp));
      const runsDir = tempDir("mlebench-qruns-");
      spaces.forEach((ns, i) => {
        const url = `redis://${ns.hostIp}:${redis!.port}`;
        workers.push(startWorker(`ns${i + 1}`, ["--queue", url, "--runs-dir", runsDir, "--data-dir", dataDir, "--sandbox", "local"], {}, ["ip", "netns", "exec", ns.name]));
      });
      // Inside a namespace, 127.0.0.1 is its own loopback: nothing listens there.
      const probe = spawnSync("ip", ["netns", "exec", spaces[0].name, "redis-cli", "-p", String(redis.port), "ping"], { encoding: "utf8" });
      expect(probe.stdout + probe.stderr).toMatch(/refused/i);
      const r = await produce(redis.url, runsDir, ["--agent", "external", "--agent-cmd", sleepThenSubmit(1), "-c", "titanic", "--seeds", "4", "--grade"]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.out!.runs.map((x) => x.status)).toEqual(["completed", "completed", "completed", "completed"]);
      expect(new Set(r.out!.runs.map((x) => x.worker))).toEqual(new Set(["ns1", "ns2"]));
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      workers = [];
      for (const ns of spaces) ns.remove();
    }
  });
});

describe("queue flags", () => {
  it("refuses bad --queue URLs, unreachable Redis and --detach without --queue, never printing the password", async () => {
    const base = ["run", "--agent", "dummy", "-c", "titanic", "--runs-dir", tempDir("mlebench-qruns-")];
    const bad = mlebench([...base, "--queue", "http://user:pw-secret@host:6379"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('mlebench: --queue: "http://user:***@host:6379" is not a Redis URL: the scheme is "http"');
    const port = await freePort();
    const down = mlebench([...base, "--queue", `redis://user:pw-secret@127.0.0.1:${port}/1`]);
    expect(down.status).toBe(2);
    expect(down.stderr).toContain(`mlebench: --queue: cannot reach Redis at redis://user:***@127.0.0.1:${port}/1: `);
    const worker = mlebench(["worker", "--queue", `redis://:pw-secret@127.0.0.1:${port}`]);
    expect(worker.status).toBe(2);
    expect(worker.stderr).toContain(`cannot reach Redis at redis://:***@127.0.0.1:${port}/0`);
    for (const r of [bad, down, worker]) expect(r.stderr).not.toContain("pw-secret");
    const detach = mlebench([...base, "--detach"]);
    expect(detach.status).toBe(2);
    expect(detach.stderr).toContain("--detach is only for --queue");
    const workers = mlebench([...base, "--queue", `redis://127.0.0.1:${port}`, "--workers", "2"]);
    expect(workers.status).toBe(2);
    expect(workers.stderr).toContain("--workers is for local runs");
    const share = mlebench([...base, "--queue", `redis://127.0.0.1:${port}`, "--gpus-per-run", "1"]);
    expect(share.status).toBe(2);
    expect(share.stderr).toContain("--gpus-per-run is for local runs; with --queue, give it to each `mlebench worker`");
    const image = mlebench([...base, "--queue", `redis://127.0.0.1:${port}`, "--agent-image", "mine:1"]);
    expect(image.status).toBe(2);
    expect(image.stderr).toContain("agent dummy runs in its own image (mine:1): that needs --sandbox docker (not bwrap)");
    const obfuscated = mlebench([...base, "--queue", `redis://127.0.0.1:${port}`, "--obfuscate", "--sandbox", "local"]);
    expect(obfuscated.status).toBe(2);
    expect(obfuscated.stderr).toContain("--obfuscate needs a sandbox that can lay the obfuscated description over /home/data/description.md");
    const noGpus = mlebench([...base, "--data-dir", dataDir, "--sandbox", "local", "--gpus-per-run", "1"]);
    expect(noGpus.status).toBe(2);
    expect(noGpus.stderr).toContain("mlebench: --gpus-per-run needs --gpus <list> to share out");
  });
});

describe("mlebench run --queue under the default sandbox", () => {
  it("a worker runs the job in bwrap, as the producer asked, with --obfuscate carried along, and grades it", async () => {
    redis = await startRedis();
    const runsDir = tempDir("mlebench-qbwrap-");
    // No --sandbox for the worker: it uses the job's.
    const w = startWorker("wb", ["--queue", redis.url, "--runs-dir", runsDir, "--data-dir", dataDir, "--lock-duration", "30s", "--stalled-interval", "30s"]);
    workers.push(w);
    const cmd = "cp /home/data/sample_submission.csv /home/submission/submission.csv; head -1 /home/data/description.md";
    const r = await mlebenchAsync(
      ["run", "--queue", redis.url, "--runs-dir", runsDir, "--data-dir", dataDir, "--json", "--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--grade", "--obfuscate"],
      {},
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as QueuedOut;
    const runDir = path.join(out.dir, out.runs[0].run_id);
    const record = readJson<RunRecord>(path.join(runDir, "run.json"));
    expect(record).toMatchObject({ status: "completed", exit_reason: "finished", obfuscated: true });
    expect(record.sandbox.backend).toBe("bwrap");
    expect(record.grading?.valid_submission).toBe(true);
    expect(agentLog(runDir)).toBe("# Task\n");
    expect(readJson<GroupMetadata>(path.join(out.dir, "metadata.json")).options).toMatchObject({ sandbox: "bwrap", obfuscate: true });
  }, 180_000);
});
