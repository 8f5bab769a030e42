// The same attacks with the harness run by an unprivileged user (MLEBENCH_TEST_USER, which .ci/run
// makes with useradd, else uid 65534), as a user without root runs `mlebench run`: bwrap then
// makes a user namespace per command, there is no volume or staging, and the promises that still
// hold must hold. An agent in upstream's format runs the same way.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunRecord } from "../../src/results/record.js";
import { upstreamAgentsDir } from "../helpers/upstream-agent.js";
import { mlebenchAsUser, TEST_USER, userUnavailable } from "../helpers/user.js";
import { tempDir } from "../helpers/data-dir.js";
import { titanicDataDir } from "../helpers/runs.js";

const USER = TEST_USER.uid;
const SUBMIT = "cp /home/data/sample_submission.csv /home/submission/submission.csv";
const WHY = userUnavailable();

let dataDir = "";
let home = "";
beforeAll(async () => {
  if (WHY) return;
  dataDir = await titanicDataDir();
  spawnSync("chown", ["-R", `${USER}:${TEST_USER.gid}`, dataDir]);
  home = tempDir("mlebench-user-home-");
  fs.chownSync(home, USER, TEST_USER.gid);
});

/** `mlebench run --json` on titanic as the unprivileged user; run.json records and agent logs back. */
function runAsUser(args: string[]): { status: number | null; stderr: string; records: RunRecord[]; runDirs: string[] } {
  const runsDir = tempDir("mlebench-user-runs-");
  fs.chownSync(runsDir, USER, TEST_USER.gid);
  const r = mlebenchAsUser(["run", "-c", "titanic", "--data-dir", dataDir, "--runs-dir", runsDir, "--json", ...args], home);
  if (r.status !== 0 && r.status !== 1) return { status: r.status, stderr: r.stderr, records: [], runDirs: [] };
  const out = JSON.parse(r.stdout) as { dir: string; runs: { run_id: string }[] };
  const runDirs = out.runs.map((x) => path.join(out.dir, x.run_id));
  return { status: r.status, stderr: r.stderr, runDirs, records: runDirs.map((d) => JSON.parse(fs.readFileSync(path.join(d, "run.json"), "utf8")) as RunRecord) };
}

const log = (runDir: string) => fs.readFileSync(path.join(runDir, "logs", "agent.log"), "utf8");

describe.skipIf(WHY !== null)(`attacks with an unprivileged harness, ${TEST_USER.name} (bwrap)${WHY ? `: skipped, ${WHY}` : ""}`, () => {
  it("no nested user namespace, no keyring, only stdin, stdout and stderr, and the harness's own record", () => {
    const cmd = [
      SUBMIT,
      "unshare -Ur id 2>&1 | sed 's/^/UNSHARE /'",
      `/usr/bin/python3 -c "import ctypes, os; l = ctypes.CDLL(None, use_errno=True); r = l.syscall(248, b'user', b'k', b'v', 1, ctypes.c_int(-4)); print('ADD', r, os.strerror(ctypes.get_errno()))"`,
      "ls -l /proc/self/fd | sed -n 's/.* \\([0-9][0-9]*\\) -> \\(.*\\)$/FD \\1 -> \\2/p'",
      "rm -f /home/logs/agent.log; echo forged > /home/logs/agent.log",
    ].join("\n");
    const r = runAsUser(["--agent", "external", "--agent-cmd", cmd, "--grade"]);
    expect(r.status, r.stderr).toBe(0);
    const text = log(r.runDirs[0]);
    expect(text).toContain("UNSHARE unshare: unshare failed: Operation not permitted");
    expect(text).toContain("ADD -1 Operation not permitted");
    const fds = [...text.matchAll(/^FD (\d+) -> (.*)$/gm)].filter((m) => !/^\/proc\/\d+\/fd$/.test(m[2])).map((m) => Number(m[1]));
    expect(fds.sort((a, b) => a - b)).toEqual([0, 1, 2]);
    expect(r.records[0].records_displaced).toEqual(["agent.log"]);
    expect(fs.readFileSync(path.join(r.runDirs[0], "logs", "agent.log.by-agent"), "utf8")).toBe("forged\n");
    expect(r.records[0].grading?.valid_submission).toBe(true);
    // Without root there is no volume for the disk cap; run.json says how it is checked instead.
    expect(r.records[0].sandbox.warnings.some((w) => w.startsWith("a disk image per run needs root"))).toBe(true);
  }, 120_000);

  it("a deleted file the agent keeps open still counts against the disk cap", () => {
    const cmd = `${SUBMIT}; /usr/bin/python3 - <<'PY'
import os, time
f = open("/home/workspace/hidden", "wb"); os.unlink("/home/workspace/hidden")
for i in range(40): f.write(b"x" * (1 << 20))
f.flush(); print("WROTE", flush=True)
time.sleep(20)
PY`;
    const r = runAsUser(["--agent", "external", "--agent-cmd", cmd, "--disk", "20M", "--poll-interval", "1s"]);
    expect(r.status, r.stderr).toBe(0);
    expect(log(r.runDirs[0])).toContain("WROTE");
    expect(r.records[0].exit_reason).toBe("disk_limit");
    expect(r.records[0].peaks?.diskBytes).toBeGreaterThan(40 * 1024 * 1024);
  }, 120_000);

  it("an agent in upstream's format runs unchanged: shims, its four folders, a writable agent folder, validation, grading", () => {
    const agents = upstreamAgentsDir("copier:\n  start: copier/start.sh\n  kwargs_type: argparse\n  kwargs:\n    steps: 3\n");
    spawnSync("chown", ["-R", `${USER}:${TEST_USER.gid}`, path.dirname(agents)]);
    const r = runAsUser(["--agent", "copier", "--agent-config", agents, "--grade"]);
    expect(r.status, r.stderr).toBe(0);
    const text = log(r.runDirs[0]);
    expect(text).toContain("args: --steps 3\n");
    expect(text).toContain("dirs: /home/agent /home/code /home/logs /home/submission titanic\n");
    expect(text).toContain('{"result":"Submission is valid."}');
    expect(text).not.toMatch(/command not found|Permission denied/);
    for (const f of ["agent/agent_was_here.txt", "code/code.py", "logs/run.log"]) {
      const file = path.join(r.runDirs[0], f);
      expect(fs.statSync(file).uid, f).toBe(USER);
    }
    expect(r.records[0].grading?.valid_submission).toBe(true);
  }, 120_000);
});
