import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { jobAgent, jobId, parseRunJob, type RunJob } from "../../src/queue/jobs.js";
import { changeLine, summaryLine } from "../../src/queue/progress.js";
import type { RunState } from "../../src/queue/state.js";
import { FsResultStore } from "../../src/queue/fs-store.js";
import { parseRedisUrl, redactUrl } from "../../src/queue/url.js";
import { tempDir } from "../helpers/data-dir.js";

describe("parseRedisUrl", () => {
  it("reads host, port, database, user and password", () => {
    const u = parseRedisUrl("redis://alice:s3cr%40t@queue.example:6380/2");
    expect(u).toMatchObject({ host: "queue.example", port: 6380, db: 2, username: "alice", password: "s3cr@t", tls: false });
    expect(u.display).toBe("redis://alice:***@queue.example:6380/2");
  });

  it("defaults to port 6379 and database 0; rediss means TLS; a password alone is redacted too", () => {
    expect(parseRedisUrl("redis://10.0.0.5")).toMatchObject({ host: "10.0.0.5", port: 6379, db: 0, tls: false, display: "redis://10.0.0.5/0" });
    const t = parseRedisUrl("rediss://:hunter2@h:7000/");
    expect(t).toMatchObject({ port: 7000, db: 0, tls: true, password: "hunter2", username: undefined });
    expect(t.display).toBe("rediss://:***@h:7000/0");
  });

  it("names what is wrong without ever printing the password", () => {
    const cases: [string, RegExp][] = [
      ["http://u:pw123@h:6379", /the scheme is "http"/],
      ["redis://u:pw123@h:6379/x", /database "x" is not a number/],
      ["redis://u:pw123@h:99999", /does not parse|port/],
      ["redis://u:pw123@h:6379/0?tls=1", /query strings/],
      ["redis://u:pw123@:6379", /no host|does not parse as a URL/],
      ["redis//u:pw123@h", /does not parse as a URL/],
    ];
    for (const [text, why] of cases) {
      let message = "";
      try {
        parseRedisUrl(text);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message, text).toMatch(why);
      expect(message, text).toMatch(/^--queue: /);
      expect(message, text).not.toContain("pw123");
    }
  });

  it("redacts passwords in URLs it cannot parse", () => {
    expect(redactUrl("redis://u:p@ss@host")).toBe("redis://u:***@host");
    expect(redactUrl("redis//u:pw/1@h")).toBe("redis//u:***@h");
    expect(redactUrl("redis://host:6379")).toBe("redis://host:6379");
  });
});

const JOB: RunJob = {
  version: 1,
  group: "2026-01-01T00-00-00-UTC_run-group_dummy",
  run_id: "titanic_1234",
  competition_id: "titanic",
  seed: 0,
  agent: { id: "dummy" },
  limits: { wallMs: 1000, memoryBytes: null, pids: 64, cpus: null, diskBytes: null, tmpBytes: null, outputBytes: 1024 },
  sandbox: "local",
  gpus: [],
  snapshot_every_ms: null,
  grade: true,
};

describe("run jobs", () => {
  it("keeps secret references unresolved and drops the producer's secrets file", () => {
    const a = jobAgent({ id: "external", cmd: "run.sh", env: ["OPENAI_API_KEY=${{ secrets.OPENAI_API_KEY }}"], secretsFile: "/home/me/.keys", configFile: "agents.yaml" });
    expect(a).toEqual({ id: "external", cmd: "run.sh", env: ["OPENAI_API_KEY=${{ secrets.OPENAI_API_KEY }}"], configFile: path.resolve("agents.yaml") });
    expect(JSON.stringify(a)).not.toContain(".keys");
  });

  it("gives a run the same job id every time", () => {
    expect(jobId(JOB.group, JOB.run_id)).toBe("2026-01-01T00-00-00-UTC_run-group_dummy/titanic_1234");
  });

  it("checks job data on the worker side, naming the bad field", () => {
    expect(parseRunJob(JOB, "j")).toEqual(JOB);
    expect(() => parseRunJob({ ...JOB, seed: -1 }, "j1")).toThrow(/^job j1: field seed: /);
    expect(() => parseRunJob({ ...JOB, run_id: "../escape" }, "j2")).toThrow(/^job j2: field run_id: .*run id/);
    expect(() => parseRunJob({ ...JOB, agent: { id: "x", apiKey: "k" } }, "j3")).toThrow(/^job j3: field agent: /);
  });
});

describe("FsResultStore", () => {
  it("publishes a run once: a second publication is discarded and the first stays", async () => {
    const runs = tempDir("mlebench-store-");
    fs.mkdirSync(path.join(runs, "g"));
    fs.writeFileSync(path.join(runs, "g", "metadata.json"), "{}");
    const store = new FsResultStore(runs);
    expect(await store.hasGroup("g")).toBe(true);
    expect(await store.hasGroup("other")).toBe(false);
    const a = await store.stage("g", "r1");
    const b = await store.stage("g", "r1");
    expect(a).not.toBe(b);
    fs.writeFileSync(path.join(a, "who"), "first");
    fs.writeFileSync(path.join(b, "who"), "second");
    expect(fs.existsSync(path.join(runs, "g", "r1"))).toBe(false);
    expect(await store.publish("g", "r1", a)).toBe(true);
    expect(await store.publish("g", "r1", b)).toBe(false);
    expect(fs.readFileSync(path.join(runs, "g", "r1", "who"), "utf8")).toBe("first");
    expect(fs.existsSync(a) || fs.existsSync(b)).toBe(false);
    expect(await store.published("g", "r1")).toBeNull(); // no run.json in it
  });
});

describe("the live view", () => {
  const run = (over: Partial<RunState>): RunState => ({
    run_id: "titanic_1", competition_id: "titanic", seed: 2, state: "queued", worker: null, attempts: 0, started_at_ms: null, reason: null, record: null, ...over,
  });

  it("says who runs what, retries and failures, and nothing when nothing changed", () => {
    const queued = run({});
    const running = run({ state: "running", worker: "gpu-7", attempts: 1 });
    expect(changeLine(undefined, queued)).toBeNull();
    expect(changeLine(queued, running)).toBe("running titanic seed 2 on gpu-7 (attempt 1, titanic_1)");
    expect(changeLine(running, running)).toBeNull();
    expect(changeLine(running, run({ state: "queued", attempts: 1, reason: "worker gpu-7 stopped during the run" }))).toBe(
      "requeued titanic seed 2 (attempt 1 did not finish: worker gpu-7 stopped during the run)",
    );
    expect(changeLine(running, run({ state: "running", worker: "gpu-8", attempts: 2 }))).toBe("running titanic seed 2 on gpu-8 (attempt 2, titanic_1)");
    expect(changeLine(running, run({ state: "failed", attempts: 3, reason: "boom" }))).toBe("failed titanic seed 2 after 3 attempt(s): boom");
  });

  it("counts runs per state", () => {
    const states = [run({ state: "completed" }), run({ state: "failed" }), run({ state: "running" }), run({}), run({ state: "missing" })];
    expect(summaryLine(states)).toBe("runs: 2/5 done, 1 running, 2 queued, 1 failed");
  });
});
