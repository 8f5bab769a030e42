// Attacks on the validation server from inside the default (bubblewrap) sandbox, through
// `mlebench run`: degenerate uploads that are slow to parse, large concurrent uploads, and a flood
// of idle connections. None may delay the run's deadline, swell the harness's memory, or stop a
// concurrent innocent run from validating.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, REPO } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { titanicDataDir } from "../helpers/runs.js";
import type { RunRecord } from "../../src/results/record.js";

let dataDir = "";
beforeAll(async () => {
  dataDir = await titanicDataDir();
});

const SUBMIT = "cp /home/data/sample_submission.csv /home/submission/submission.csv";

interface Watched {
  status: number | null;
  stderr: string;
  records: RunRecord[];
  runDirs: string[];
  /** Peak resident memory of the harness process itself (VmHWM), bytes. */
  harnessPeak: number;
}

/** `mlebench run --json` on titanic, watching the harness process's own peak memory while it runs. */
function watchedRun(args: string[]): Promise<Watched> {
  const runsDir = tempDir("mlebench-runs-");
  const { MLEBENCH_DATA_DIR: _d, ...env } = process.env;
  const child = spawn(process.execPath, [CLI, "run", "-c", "titanic", "--data-dir", dataDir, "--runs-dir", runsDir, "--json", ...args], { cwd: REPO, env });
  let stdout = "";
  let stderr = "";
  let harnessPeak = 0;
  const sample = setInterval(() => {
    try {
      const m = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (m) harnessPeak = Math.max(harnessPeak, Number(m[1]) * 1024);
    } catch {
      // exited
    }
  }, 100);
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => {
    child.on("close", (status) => {
      clearInterval(sample);
      let records: RunRecord[] = [];
      let runDirs: string[] = [];
      if (status === 0 || status === 1) {
        const out = JSON.parse(stdout) as { dir: string; runs: { run_id: string }[] };
        runDirs = out.runs.map((r) => path.join(out.dir, r.run_id));
        records = runDirs.map((d) => JSON.parse(fs.readFileSync(path.join(d, "run.json"), "utf8")) as RunRecord);
      }
      resolve({ status, stderr, records, runDirs, harnessPeak });
    });
  });
}

/** Lines a run's agent wrote into its workspace file `name`. */
function workspaceLines(runDir: string, name: string): string[] {
  const f = path.join(runDir, "workspace", name);
  return fs.existsSync(f) ? fs.readFileSync(f, "utf8").trim().split("\n").filter(Boolean) : [];
}

/** One seed attacks, the other (seed 1) validates the sample submission every half second and notes each answer. */
function pair(attack: string, delay = 0): string {
  const innocent = [
    SUBMIT,
    `sleep ${delay}`,
    "for i in $(seq 1 16); do",
    "  r=$(timeout 10 bash /home/validate_submission.sh /home/submission/submission.csv 2>&1 | tr -d '\\n')",
    '  echo "$(date +%s.%N) $r" >> /home/workspace/answers',
    "  sleep 0.5",
    "done",
  ].join("\n");
  return `if [ "$MLEBENCH_SEED" = 0 ]; then\n${attack}\nelse\n${innocent}\nfi`;
}

describe("the validation server under attack (bwrap)", () => {
  it("uploads of 10 MB of commas neither stretch the run past its time limit nor stall a concurrent run", async () => {
    const attack = [
      SUBMIT,
      "head -c 10485760 /dev/zero | tr '\\0' ',' > /tmp/commas.csv",
      "for i in 1 2; do (curl -s --max-time 120 --unix-socket /run/mlebench/validate.sock -F file=@/tmp/commas.csv http://localhost/validate > /home/workspace/upload-$i.json) & done",
      // Stays busy past the deadline, noting the time each second.
      "while :; do date +%s >> /home/workspace/alive; sleep 1; done",
    ].join("\n");
    const started = Date.now() / 1000;
    const r = await watchedRun(["--agent", "external", "--agent-cmd", pair(attack), "--seeds", "2", "--workers", "2", "--time-limit", "20s"]);
    expect(r.status, r.stderr).toBe(0);
    const [hostile, innocent] = r.records[0].seed === 0 ? [0, 1] : [1, 0];
    expect(r.records[hostile].exit_reason).toBe("time_limit");
    // 20 s, the 5 s grace period and the sandbox's start-up; 76 s when checks ran on the harness's event loop.
    expect(r.records[hostile].wall_seconds!).toBeLessThan(32);
    const alive = workspaceLines(r.runDirs[hostile], "alive").map(Number);
    expect(alive.length).toBeGreaterThan(10);
    expect(Math.max(...alive)).toBeLessThan(started + 32);
    const answers = workspaceLines(r.runDirs[innocent], "answers");
    expect(answers).toHaveLength(16);
    for (const a of answers) expect(a).toMatch(/ \{"result":"Submission is valid\."\}$/);
    expect(r.records[innocent].wall_seconds!).toBeLessThan(25);
  }, 180_000);

  it("four concurrent 120 MB uploads cost the validation server, not the harness", async () => {
    const attack = [
      SUBMIT,
      "/usr/bin/python3 - <<'PY'",
      "with open('/home/workspace/big.csv', 'w') as f:",
      "    f.write('PassengerId,Survived\\n')",
      "    row = ''.join('%d,1\\n' % i for i in range(100000))",
      "    while f.tell() < 120 * 1024 * 1024: f.write(row)",
      "PY",
      "for i in 1 2 3 4; do (curl -s --max-time 300 --unix-socket /run/mlebench/validate.sock -F file=@/home/workspace/big.csv http://localhost/validate > /home/workspace/upload-$i.json; echo >> /home/workspace/upload-$i.json) & done",
      "wait",
    ].join("\n");
    const r = await watchedRun(["--agent", "external", "--agent-cmd", attack, "--memory", "2G", "--time-limit", "3m", "--snapshot-every", "never"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.records[0].exit_reason).toBe("finished");
    // The harness holds none of the uploads (over 2 GB when it parsed them itself).
    expect(r.harnessPeak).toBeGreaterThan(0);
    expect(r.harnessPeak).toBeLessThan(400 * 1024 * 1024);
    // Each upload was checked (the ids are not titanic's, so each is invalid, with the grader's reason).
    for (let i = 1; i <= 4; i++) {
      const text = fs.readFileSync(path.join(r.runDirs[0], "workspace", `upload-${i}.json`), "utf8").trim();
      expect((JSON.parse(text) as { result: string }).result, `upload ${i}`).toMatch(/^Submission invalid! /);
    }
  }, 300_000);

  it.each([
    ["the validation socket", "validate.sock", []],
    // An allowed host makes the harness start an egress proxy for each run.
    ["the egress proxy's socket", "egress.sock", ["--allow-host", "127.0.0.1:9"]],
  ])("a flood of idle connections to %s does not stop a concurrent run from validating", async (_what, socket, extra) => {
    // Four processes, each holding up to 15,000 connections: more than the harness's descriptor limit.
    const attack = [
      SUBMIT,
      "for p in 1 2 3 4; do /usr/bin/python3 - <<'PY' &",
      "import resource, socket, time",
      "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)",
      "resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))",
      "held = []",
      "until = time.time() + 20",
      "while len(held) < 15000 and time.time() < until:",
      "    try:",
      `        s = socket.socket(socket.AF_UNIX); s.settimeout(2); s.connect('/run/mlebench/${socket}'); held.append(s)`,
      "    except OSError:",
      "        time.sleep(0.001)  # the backlog is full: try again",
      "open('/home/workspace/held', 'a').write('%d\\n' % len(held))",
      "time.sleep(30)",
      "PY",
      "done",
      "wait",
    ].join("\n");
    // The innocent run validates once the flood has had a few seconds to build up.
    const r = await watchedRun(["--agent", "external", "--agent-cmd", pair(attack, 5), "--seeds", "2", "--workers", "2", "--time-limit", "45s", ...extra]);
    expect(r.status, r.stderr).toBe(0);
    const innocent = r.records[0].seed === 1 ? 0 : 1;
    const answers = workspaceLines(r.runDirs[innocent], "answers");
    expect(answers).toHaveLength(16);
    for (const a of answers) expect(a).toMatch(/ \{"result":"Submission is valid\."\}$/);
  }, 180_000);
});
