// Escape attempts against the real sandboxes (bubblewrap, and Docker where an engine is here): each
// runs an agent through `mlebench run` and checks that the harness survives, names the right exit
// reason, and still grades what was submitted.
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getCompetition, loadCompetition } from "../../src/competitions/registry.js";
import { competitionPaths } from "../../src/core/paths.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { hiddenSources } from "../../src/sources/packages.js";
import { REAL_BACKENDS, suiteTitle } from "../helpers/backends.js";
import { agentLog, cgroupsWritable, runCli, titanicAnswers, titanicDataDir } from "../helpers/runs.js";

let dataDir = "";
let sampleScore = 0;
const SUBMIT = "cp /home/data/sample_submission.csv /home/submission/submission.csv";

beforeAll(async () => {
  dataDir = await titanicDataDir();
  const sample = path.join(competitionPaths(dataDir, "titanic").public, "sample_submission.csv");
  sampleScore = gradeSubmission(await loadCompetition("titanic"), sample, dataDir).score as number;
});

function processesMatching(marker: string): string[] {
  const out = execSync("ps -eo args", { encoding: "utf8" });
  return out.split("\n").filter((l) => l.includes(marker) && !l.includes("ps -eo"));
}

for (const backend of REAL_BACKENDS) describe.skipIf(backend.skip !== null)(suiteTitle("sandbox escapes", backend), () => {
  const external = (cmd: string, extra: string[] = [], env: Record<string, string> = {}) => {
    const r = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--grade", ...extra], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.records).toHaveLength(1);
    expect(r.records[0].sandbox.backend).toBe(backend.name);
    return { ...r, record: r.records[0], runDir: r.runDirs[0], log: agentLog(r.runDirs[0]) };
  };

  it("the private answers are unreachable by any path the agent can name", () => {
    const answers = titanicAnswers(dataDir);
    const secretRow = fs.readFileSync(answers, "utf8").split("\n")[1];
    const cmd = [
      SUBMIT,
      `for p in '${answers}' '/proc/1/root${answers}' '/proc/self/root${answers}' /home/data/../private /private/data; do`,
      '  if cat "$p" >/dev/null 2>&1; then echo "READ $p"; else echo "denied $p"; fi; done',
      "find / -xdev \\( -path /proc -o -path /sys \\) -prune -o \\( -name 'answers*' -o -name private \\) ! -path '*/ssl/private' -print 2>/dev/null | sed 's/^/FOUND /'",
      "grep -rl 'Survived' / --include='*.csv' 2>/dev/null | grep -v '^/home/data\\|^/home/submission' | sed 's/^/CSV /'",
      "echo done",
    ].join("\n");
    const { record, log } = external(cmd);
    expect(log).toContain("denied /private/data");
    expect(log).not.toMatch(/^(READ|FOUND|CSV) /m);
    expect(log).not.toContain(secretRow);
    expect(log).toMatch(/done\n$/);
    expect(record.exit_reason).toBe("finished");
    expect(record.grading?.score).toBe(sampleScore);
  });

  it("the packaged dataset the offline competition is cut from (labels included) reads as empty", () => {
    const source = hiddenSources(getCompetition("titanic"))[0];
    expect(source).toMatch(/^\/usr\//);
    expect(fs.statSync(source).size).toBeGreaterThan(0);
    const { log, record } = external(`${SUBMIT}; echo "SIZE $(wc -c < '${source}')"; zcat '${source}' 2>&1 | head -c 200; echo; echo done`);
    expect(log).toContain("SIZE 0");
    expect(log).not.toContain("@relation");
    expect(record.exit_reason).toBe("finished");
  });

  it("host $HOME, /root and the harness's environment secrets are not visible", () => {
    const cmd = `${SUBMIT}; env; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'; ls -a /root "$HOME" 2>&1; cat /proc/1/cmdline | tr '\\0' ' '`;
    const { log, record } = external(cmd, [], { OPENAI_API_KEY: "sk-harness-secret-123", KAGGLE_KEY: "kaggle-secret-456" });
    expect(log).not.toContain("sk-harness-secret-123");
    expect(log).not.toContain("kaggle-secret-456");
    expect(log).toContain("HOME=/home/workspace");
    // No /root at all under bwrap; the image's own, closed to the agent, under docker.
    expect(log).toMatch(/ls: cannot (access|open directory) '\/root'/);
    expect(log).not.toContain(dataDir); // pid 1's command line names no host path
    expect(record.exit_reason).toBe("finished");
  });

  it("cannot open a TCP connection out of the sandbox", async () => {
    let hits = 0;
    const server = http.createServer((_q, s) => {
      hits++;
      s.end("reached");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    try {
      const cmd = [
        SUBMIT,
        `curl -sS --max-time 5 http://127.0.0.1:${port}/ 2>&1 || echo "curl failed"`,
        `/usr/bin/python3 -c "import socket; socket.create_connection(('1.1.1.1', 443), timeout=5)" 2>&1 | tail -1`,
        "cat /proc/net/dev | grep -c ':' | sed 's/^/interfaces /'",
      ].join("\n");
      const r = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--grade"]);
      // The harness awaits the run while the test server keeps listening in this process.
      const log = agentLog(r.runDirs[0]);
      expect(log).toContain("curl failed");
      expect(log).not.toContain("reached");
      expect(log).toMatch(/Network is unreachable|OSError/);
      expect(log).toContain("interfaces 1"); // loopback only
      expect(hits).toBe(0);
      expect(r.records[0].grading?.valid_submission).toBe(true);
    } finally {
      server.close();
    }
  });

  it("cannot write outside the writable dirs", () => {
    const cmd = [
      "for p in /home/data/x /usr/x /etc/x /x /run/mlebench/x /home/instructions.txt; do",
      '  if (echo hi > "$p") 2>/dev/null; then echo "WROTE $p"; else echo "refused $p"; fi; done',
      "echo hi > /home/workspace/ok && echo wrote-workspace",
      "echo hi > /tmp/ok && echo wrote-tmp",
      SUBMIT,
    ].join("\n");
    const { log, runDir, record } = external(cmd);
    expect(log).not.toContain("WROTE");
    expect(log.match(/^refused /gm)).toHaveLength(6);
    expect(log).toContain("wrote-workspace");
    expect(fs.readFileSync(path.join(runDir, "workspace", "ok"), "utf8")).toBe("hi\n");
    expect(fs.readdirSync(competitionPaths(dataDir, "titanic").public)).not.toContain("x");
    expect(record.grading?.valid_submission).toBe(true);
  });

  it("a submission.csv symlinked to the private answers is set aside, not graded", () => {
    const answers = titanicAnswers(dataDir);
    const { record, runDir } = external(`ln -s '${answers}' /home/submission/submission.csv`);
    expect(record.submission_rejected).toBe(
      `submission.csv was a symbolic link (to ${answers}); only a regular file is graded (kept as submission.csv.rejected)`,
    );
    expect(record.grading).toMatchObject({ score: null, valid_submission: false, any_medal: false });
    const report = JSON.parse(fs.readFileSync(path.join(runDir, "grading_report.json"), "utf8"));
    expect(report.invalid_reason).toBe(record.submission_rejected);
    expect(fs.lstatSync(path.join(runDir, "submission", "submission.csv.rejected")).isSymbolicLink()).toBe(true);
  });

  it("a fork bomb hits the pid limit; the run ends at its time limit and is still graded", () => {
    const cmd = `${SUBMIT}; bomb() { bomb | bomb & }; bomb; sleep 100`;
    const { record } = external(cmd, ["--pids", "64", "--time-limit", "8s"]);
    expect(record.exit_reason).toBe("time_limit");
    expect(record.status).toBe("completed");
    expect(record.grading?.score).toBe(sampleScore);
  });

  // Docker's engine sets the cgroups itself.
  it.skipIf(backend.name === "bwrap" && !cgroupsWritable())("a memory hog is killed by the OOM killer and reported as oom", () => {
    const cmd = `${SUBMIT}; /usr/bin/python3 -c "x = bytearray(1 << 30); print('allocated')"`;
    const { record, log } = external(cmd, ["--memory", "256M"]);
    expect(record.exit_reason).toBe("oom");
    expect(log).not.toContain("allocated");
    expect(record.peaks?.oomKills).toBeGreaterThan(0);
    expect(record.peaks?.memoryBytes).toBeLessThanOrEqual(256 * 1024 * 1024);
    expect(record.grading?.score).toBe(sampleScore);
  });

  it("a child that ignores SIGTERM and outlives its parent is killed at the time limit", () => {
    const cmd = `${SUBMIT}; (trap '' TERM; setsid sh -c "trap '' TERM; exec sleep 30117" &); trap '' TERM; sleep 30127`;
    const started = Date.now();
    const { record } = external(cmd, ["--time-limit", "3s"]);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(record.exit_reason).toBe("time_limit");
    expect(processesMatching("sleep 301")).toEqual([]); // markers unlikely to match anything else on the host
    expect(record.grading?.score).toBe(sampleScore);
  });

  it("at the time limit the agent gets SIGTERM and a grace period to save its submission", () => {
    const cmd = `trap '${SUBMIT}; echo saved; exit 0' TERM; sleep 100 & wait`;
    const { record, log } = external(cmd, ["--time-limit", "2s"]);
    expect(log).toBe("saved\n");
    expect(record.exit_reason).toBe("time_limit");
    expect(record.grading?.score).toBe(sampleScore);
  });

  it("a daemon left behind by an agent that exits is killed with the sandbox", () => {
    const cmd = `${SUBMIT}; setsid nohup sleep 30337 >/dev/null 2>&1 & echo started`;
    const { record } = external(cmd);
    expect(record.exit_reason).toBe("finished");
    expect(processesMatching("sleep 30337")).toEqual([]);
  });

  // bwrap pins runs to CPUs (a cpuset each); Docker's --cpus is a quota and pins nothing.
  it.skipIf(backend.name !== "bwrap" || !cgroupsWritable() || os.cpus().length < 2)("concurrent runs given --cpus 1 get different CPUs", () => {
    const cmd = `${SUBMIT}; sleep 2; sed -n 's/^Cpus_allowed_list:\\s*/CPUS /p' /proc/self/status`;
    const r = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--seeds", "2", "--workers", "2", "--cpus", "1"]);
    expect(r.status, r.stderr).toBe(0);
    const cpus = r.runDirs.map((d) => /^CPUS (\S+)$/m.exec(agentLog(d))?.[1]);
    expect(cpus.every((c) => c !== undefined && /^\d+$/.test(c))).toBe(true);
    expect(new Set(cpus).size).toBe(2);
  });

  it.skipIf(backend.name === "bwrap" && !cgroupsWritable())("--cpus 1 holds three spinning processes to one CPU", () => {
    // Each child spins for 3 s of wall time; unlimited on 2 cores they would use up to 6 CPU seconds.
    const spin = `/usr/bin/python3 - <<'PY'
import os, resource, time
pids = []
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        end = time.time() + 3
        while time.time() < end:
            pass
        os._exit(0)
    pids.append(pid)
for p in pids:
    os.waitpid(p, 0)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print("CPU %.2f" % (u.ru_utime + u.ru_stime))
PY`;
    const { record, log } = external(`${SUBMIT}; ${spin}`, ["--cpus", "1"]);
    const cpu = Number(/^CPU ([\d.]+)$/m.exec(log)?.[1]);
    expect(cpu).toBeGreaterThan(1);
    expect(cpu).toBeLessThan(3.5);
    expect(record.peaks?.cpuSeconds).toBeGreaterThanOrEqual(cpu - 0.1);
    expect(record.peaks?.cpuSeconds).toBeLessThan(4.5);
  });
});
