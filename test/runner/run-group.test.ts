import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCompetition } from "../../src/competitions/registry.js";
import { competitionPaths } from "../../src/core/paths.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import type { RunRecord } from "../../src/results/record.js";
import { CLI, REPO, mlebench } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { agentLog, runCli, titanicDataDir } from "../helpers/runs.js";

let dataDir = "";
let sample = "";
let sampleScore = 0;
const SUBMIT = "cp /home/data/sample_submission.csv /home/submission/submission.csv";

beforeAll(async () => {
  dataDir = await titanicDataDir();
  sample = path.join(competitionPaths(dataDir, "titanic").public, "sample_submission.csv");
  sampleScore = gradeSubmission(await loadCompetition("titanic"), sample, dataDir).score as number;
});

const readJson = (f: string) => JSON.parse(fs.readFileSync(f, "utf8"));

describe("mlebench run", () => {
  it("runs the dummy agent: upstream layout, metadata.json, run.json, grading report", () => {
    const r = runCli(dataDir, ["--agent", "dummy", "-c", "titanic", "--seeds", "2", "--workers", "2", "--grade"]);
    expect(r.status, r.stderr).toBe(0);
    expect(path.basename(r.groupDir)).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-UTC_run-group_dummy$/);
    expect(r.records.map((x) => x.seed).sort()).toEqual([0, 1]);
    const meta = readJson(path.join(r.groupDir, "metadata.json"));
    expect(Object.keys(meta).slice(0, 3)).toEqual(["run_group", "created_at", "runs"]);
    // Both files say which format they are, after upstream's own keys.
    expect(Object.keys(meta).at(-1)).toBe("schema");
    expect(meta.schema).toBe("mlebench-group/1");
    expect(r.records.map((x) => x.schema)).toEqual(["mlebench-run/1", "mlebench-run/1"]);
    expect(meta.run_group).toBe(path.basename(r.groupDir));
    for (const [i, runDir] of r.runDirs.entries()) {
      const id = path.basename(runDir);
      expect(id).toMatch(/^titanic_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(meta.runs[id]).toMatchObject({ success: true, status: "completed", exit_reason: "finished" });
      for (const d of ["submission", "code", "logs", "workspace", "snapshots"]) expect(fs.statSync(path.join(runDir, d)).isDirectory()).toBe(true);
      expect(fs.readFileSync(path.join(runDir, "submission", "submission.csv"))).toEqual(fs.readFileSync(sample));
      expect(fs.readFileSync(path.join(runDir, "run.log"), "utf8")).toContain("agent ended: finished (exit 0)");
      const rec = r.records[i];
      expect(rec).toMatchObject({ status: "completed", exit_reason: "finished", exit_code: 0, attempts: 1, validation_requests: 1 });
      expect(rec.grading).toEqual({ score: sampleScore, valid_submission: true, any_medal: false, report: "grading_report.json" });
      const report = readJson(path.join(runDir, "grading_report.json"));
      expect(report).toMatchObject({ competition_id: "titanic", score: sampleScore, valid_submission: true, submission_exists: true });
      const log = agentLog(runDir);
      expect(log).toContain('dummy: validation: {"result":"Submission is valid."}');
      expect(log).not.toContain("LEAK");
      expect(log.match(/: not readable$/gm)?.length).toBeGreaterThanOrEqual(8);
    }
  });

  it("serves the validator at http://localhost:5000/validate and writes /home/instructions.txt", () => {
    const cmd = [
      SUBMIT,
      'curl -s -X POST -F "file=@/home/submission/submission.csv" http://localhost:5000/validate; echo',
      "head -c 300 /home/data/sample_submission.csv | cut -d, -f1 | head -2 > /tmp/bad.csv",
      'curl -s -X POST -F "file=@/tmp/bad.csv" http://localhost:5000/validate; echo',
      "grep -c /home/submission/submission.csv /home/instructions.txt",
    ].join("\n");
    const r = runCli(dataDir, ["--agent", "external", "--agent-cmd", cmd, "-c", "titanic"]);
    expect(r.status, r.stderr).toBe(0);
    const lines = agentLog(r.runDirs[0]).trim().split("\n");
    expect(lines[0]).toBe('{"result":"Submission is valid."}');
    expect(lines[1]).toMatch(/^\{"result":"Submission invalid! The attempt to grade the submission has resulted in the following error message:\\n/);
    expect(lines[1]).not.toContain(String(sampleScore));
    expect(Number(lines.at(-1))).toBeGreaterThan(0);
    expect(r.records[0].validation_requests).toBe(2);
    expect(r.records[0].grading).toBeNull(); // no --grade
  });

  it("takes snapshots of submission.csv during the run", () => {
    const cmd = `${SUBMIT}; sleep 4.5`;
    const r = runCli(dataDir, ["--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--snapshot-every", "1s"]);
    expect(r.status, r.stderr).toBe(0);
    const snaps = r.records[0].snapshots;
    expect(snaps.length).toBeGreaterThanOrEqual(3);
    expect(snaps.map((s) => s.file)).toEqual([...snaps.map((s) => s.file)].sort());
    expect(snaps[0].file).toMatch(/^snapshots\/00h00m0\ds\.csv$/);
    for (const s of snaps) expect(fs.readFileSync(path.join(r.runDirs[0], s.file))).toEqual(fs.readFileSync(sample));
  });

  it("caps the agent's output and counts what it dropped", () => {
    const cmd = `${SUBMIT}; head -c 100000 /dev/zero | tr '\\0' x`;
    const r = runCli(dataDir, ["--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--output-limit", "1K"]);
    expect(r.status, r.stderr).toBe(0);
    expect(fs.statSync(path.join(r.runDirs[0], "logs", "agent.log")).size).toBe(1024);
    expect(r.records[0].output_dropped_bytes).toBe(100000 - 1024);
  });

  it("ends a run that exceeds its disk cap with disk_limit", () => {
    const cmd = `${SUBMIT}; head -c 3000000 /dev/zero > /home/workspace/big; sleep 60`;
    const r = runCli(dataDir, ["--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--disk", "1M", "--poll-interval", "500ms", "--grade"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.records[0].exit_reason).toBe("disk_limit");
    expect(r.records[0].peaks?.diskBytes).toBeGreaterThan(3_000_000);
    expect(r.records[0].grading?.valid_submission).toBe(true);
  });

  it("reaches allow-listed hosts through the egress proxy, and only those", async () => {
    const server = http.createServer((_q, s) => s.end("hello from the allowed host"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.2", r));
    const port = (server.address() as AddressInfo).port;
    try {
      const cmd = [
        SUBMIT,
        `curl -s --max-time 10 http://127.0.0.2:${port}/; echo`,
        `curl -s --max-time 10 -o /dev/null -w "%{http_code}\\n" http://127.0.0.3:${port}/`,
      ].join("\n");
      const child = spawn(process.execPath, [CLI, "run", "--data-dir", dataDir, "--runs-dir", tempDir("mlebench-runs-"), "--json", "--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--allow-host", `127.0.0.2:${port}`], { cwd: REPO });
      let stdout = "";
      child.stdout.on("data", (d) => (stdout += d));
      const code = await new Promise((r) => child.on("close", r));
      expect(code).toBe(0);
      const out = JSON.parse(stdout);
      const runDir = path.join(out.dir, out.runs[0].run_id);
      expect(agentLog(runDir).trim().split("\n")).toEqual(["hello from the allowed host", "403"]);
      const rec = readJson(path.join(runDir, "run.json")) as RunRecord;
      expect(rec.sandbox.allow_hosts).toEqual([`127.0.0.2:${port}`]);
      const egress = fs.readFileSync(path.join(runDir, "egress.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(egress.map((e) => [e.host, e.allowed])).toEqual([["127.0.0.2", true], ["127.0.0.3", false]]);
      // The manifest sums the proxy's decisions up, from the proxy's log.
      const manifest = readJson(path.join(runDir, "manifest.json")) as { network: unknown };
      expect(manifest.network).toEqual({
        mode: "proxy",
        allowed_hosts: [`127.0.0.2:${port}`],
        connections: [
          { host: "127.0.0.2", port, allowed: true, count: 1 },
          { host: "127.0.0.3", port, allowed: false, count: 1 },
        ],
        blocked_attempts: 1,
        unreadable_lines: 0,
      });
    } finally {
      server.close();
    }
  });

  it("--resume keeps finished runs after the harness is SIGKILLed and reruns the rest", async () => {
    const runsDir = tempDir("mlebench-runs-");
    const slow = `${SUBMIT}; if [ "$MLEBENCH_SEED" = 1 ]; then sleep 120; fi`;
    const child = spawn(process.execPath, [CLI, "run", "--data-dir", dataDir, "--runs-dir", runsDir, "--agent", "external", "--agent-cmd", slow, "-c", "titanic", "--seeds", "2", "--grade"], { cwd: REPO, stdio: "ignore" });
    const groupDir = await waitFor(() => {
      const g = fs.readdirSync(runsDir)[0];
      if (!g) return null;
      const meta = readJson(path.join(runsDir, g, "metadata.json"));
      const recs = meta.tasks.map((t: { run_id: string }) => {
        const f = path.join(runsDir, g, t.run_id, "run.json");
        return fs.existsSync(f) ? (readJson(f) as RunRecord) : null;
      });
      return recs[0]?.status === "completed" && recs[1]?.status === "running" ? path.join(runsDir, g) : null;
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.on("close", r));
    const meta = readJson(path.join(groupDir, "metadata.json"));
    const [first, second] = meta.tasks.map((t: { run_id: string }) => path.join(groupDir, t.run_id));
    const firstRecord = fs.readFileSync(path.join(first, "run.json"), "utf8");
    expect(readJson(path.join(second, "run.json")).status).toBe("running");

    const r = mlebench(["run", "--data-dir", dataDir, "--resume", groupDir, "--agent", "external", "--agent-cmd", SUBMIT, "--grade", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("(1 finished runs kept)");
    expect(fs.readFileSync(path.join(first, "run.json"), "utf8")).toBe(firstRecord);
    const again = readJson(path.join(second, "run.json")) as RunRecord;
    expect(again).toMatchObject({ status: "completed", exit_reason: "finished", attempts: 2 });
    expect(again.grading?.score).toBe(sampleScore);
    const after = readJson(path.join(groupDir, "metadata.json"));
    expect(Object.values(after.runs).map((x) => (x as { success: boolean }).success)).toEqual([true, true]);
  });
});

describe("mlebench run: interrupting the harness", () => {
  it("SIGINT interrupts the running run (exit 130, status interrupted) and --resume finishes it", async () => {
    const runsDir = tempDir("mlebench-runs-");
    const child = spawn(process.execPath, [CLI, "run", "--data-dir", dataDir, "--runs-dir", runsDir, "--agent", "external", "--agent-cmd", "sleep 120", "-c", "titanic"], { cwd: REPO, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const runDir = await waitFor(() => {
      const g = fs.readdirSync(runsDir)[0];
      const meta = readJson(path.join(runsDir, g, "metadata.json"));
      const dir = path.join(runsDir, g, meta.tasks[0].run_id);
      return readJson(path.join(dir, "run.json")).status === "running" && fs.existsSync(path.join(dir, "harness", "instructions.txt")) ? dir : null;
    });
    await new Promise((r) => setTimeout(r, 300));
    child.kill("SIGINT");
    const code = await new Promise((r) => child.on("close", r));
    expect(code).toBe(130);
    expect(stderr).toContain("stopping: interrupting running runs");
    expect(readJson(path.join(runDir, "run.json"))).toMatchObject({ status: "interrupted", exit_reason: "interrupted" });
    const r = mlebench(["run", "--data-dir", dataDir, "--resume", path.dirname(runDir), "--agent", "external", "--agent-cmd", SUBMIT]);
    expect(r.status, r.stderr).toBe(0);
    expect(readJson(path.join(runDir, "run.json"))).toMatchObject({ status: "completed", exit_reason: "finished", attempts: 2 });
  });
});

describe("mlebench run: bad input", () => {
  const cases: [string, string[], RegExp][] = [
    ["no competition", ["--agent", "dummy"], /exactly one of -c <id\.\.\.>, --split <name>, -l <file>/],
    ["bad time limit", ["--agent", "dummy", "-c", "titanic", "--time-limit", "soon"], /--time-limit: "soon" is not a duration/],
    ["bad memory", ["--agent", "dummy", "-c", "titanic", "--memory", "lots"], /--memory: "lots" is not a size/],
    ["bad seeds", ["--agent", "dummy", "-c", "titanic", "--seeds", "0"], /--seeds: "0" is not a positive whole number/],
    ["unknown agent", ["--agent", "nobody", "-c", "titanic"], /unknown agent "nobody"/],
    ["external without a command", ["--agent", "external", "-c", "titanic"], /--agent external needs --agent-cmd/],
    ["missing GPU", ["--agent", "dummy", "-c", "titanic", "--gpus", "7"], /--gpus: \/dev\/nvidia7 does not exist/],
    ["bad GPU list", ["--agent", "dummy", "-c", "titanic", "--gpus", "0,x"], /--gpus: "0,x" is not a list of GPU indices/],
    ["unknown competition", ["--agent", "dummy", "-c", "no-such-comp"], /no-such-comp/],
    ["resume of a non-group", ["--agent", "dummy", "--resume", "/nonexistent"], /--resume: \/nonexistent\/metadata\.json is missing/],
  ];
  it.each(cases)("%s: exit 2 with a message", (_name, args, message) => {
    const r = mlebench(["run", "--data-dir", dataDir, "--runs-dir", tempDir(), ...args]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it("an unprepared competition: exit 2 naming the prepare command", () => {
    const empty = tempDir();
    const r = mlebench(["run", "--data-dir", empty, "--agent", "dummy", "-c", "titanic"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`"titanic" is not prepared in ${empty}; run: mlebench prepare -c titanic --data-dir ${empty}`);
  });

  it("a competition list names the file line of an unknown id (comments and blank lines count)", () => {
    const list = path.join(tempDir(), "set.txt");
    fs.writeFileSync(list, "# my set\n\ntitanic\nno-such-comp\n");
    const r = mlebench(["run", "--data-dir", dataDir, "--agent", "dummy", "-l", list]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`--competition-list: ${list}, line 4: Unknown competition "no-such-comp"`);
  });

  it("an unknown --sandbox: exit 2 listing the backends", () => {
    const r = mlebench(["run", "--data-dir", dataDir, "--agent", "dummy", "-c", "titanic", "--sandbox", "vm"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/Allowed choices are bwrap, docker, local/);
  });
});

async function waitFor<T>(probe: () => T | null, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const v = probe();
      if (v !== null) return v;
    } catch {
      // not there yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("timed out waiting");
}
