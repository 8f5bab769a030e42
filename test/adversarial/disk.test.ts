// Attacks on the disk cap from inside the default (bubblewrap) sandbox, and Docker where an engine
// is here, through `mlebench run`:
// disk held in a deleted file that stays open, at a path too long to walk, and in snapshots of a
// sparse or changing submission; and a run with no --disk at all.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { measureDisk } from "../../src/sandbox/disk.js";
import { volumeUnavailable } from "../../src/sandbox/volume.js";
import { tempDir } from "../helpers/data-dir.js";
import { REAL_BACKENDS, suiteTitle } from "../helpers/backends.js";
import { agentLog, runCli, titanicDataDir } from "../helpers/runs.js";

let dataDir = "";
beforeAll(async () => {
  dataDir = await titanicDataDir();
});

const SUBMIT = "cp /home/data/sample_submission.csv /home/submission/submission.csv";
const MiB = 1024 * 1024;
// The run's writable dirs get a filesystem of their own where loop devices can be had (root).
const VOLUMES = volumeUnavailable() === null;

/** Real disk (allocated blocks) under a host folder. */
function allocated(dir: string): number {
  return Number(execSync(`du -s -B1 '${dir}'`, { encoding: "utf8" }).split("\t")[0]);
}

/** Python that writes `mb` MiB to a file it deletes at once and keeps open, then waits. */
const UNLINKED = (mb: number) => `/usr/bin/python3 - <<'PY'
import os, time
f = open("/home/workspace/hidden", "wb"); os.unlink("/home/workspace/hidden")
try:
    for i in range(${mb}): f.write(b"x" * (1 << 20))
    f.flush(); os.fsync(f.fileno()); print("WROTE ${mb}", flush=True)
except OSError as e:
    print("REFUSED", e.strerror, flush=True)
time.sleep(20)
PY`;

/** Python that makes a directory chain whose path is over 5,000 bytes, writes `mb` MiB at its end, then waits. */
const LONG_PATH = (mb: number) => `/usr/bin/python3 - <<'PY'
import os, time
os.chdir("/home/workspace")
depth = len("/home/workspace")
for i in range(21):
    os.mkdir("d" * 240); os.chdir("d" * 240); depth += 241
print("DEPTH", depth, flush=True)
try:
    with open("f", "wb") as f:
        for i in range(${mb}): f.write(b"x" * (1 << 20))
    print("WROTE ${mb}", flush=True)
except OSError as e:
    print("REFUSED", e.strerror, flush=True)
time.sleep(20)
PY`;

for (const backend of REAL_BACKENDS) describe.skipIf(!VOLUMES || backend.skip !== null)(suiteTitle("the disk cap holds against hidden usage, a volume per run", backend), () => {
  it("a deleted file kept open cannot hold more than the cap: writes past it are refused", () => {
    const r = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", `${SUBMIT}; ${UNLINKED(300)}`, "-c", "titanic", "--disk", "100M", "--poll-interval", "1s", "--grade"]);
    expect(r.status, r.stderr).toBe(0);
    const log = agentLog(r.runDirs[0]);
    expect(log).toContain("REFUSED No space left on device");
    expect(log).not.toContain("WROTE 300");
    // The volume is gone with the run; the run dir holds what the agent left, not the 300 MB.
    expect(allocated(r.runDirs[0])).toBeLessThan(20 * MiB);
    expect(fs.readdirSync("/run/mlebench/volumes").filter((n) => n.startsWith(`${process.pid}-`))).toEqual([]);
    expect(r.records[0].grading?.valid_submission).toBe(true);
  }, 120_000);

  it("disk held past the cap at a path too long to walk ends the run at the next poll", () => {
    const r = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", `${SUBMIT}; ${LONG_PATH(120)}`, "-c", "titanic", "--disk", "100M", "--poll-interval", "1s", "--grade"]);
    expect(r.status, r.stderr).toBe(0);
    const log = agentLog(r.runDirs[0]);
    expect(Number(/^DEPTH (\d+)$/m.exec(log)?.[1])).toBeGreaterThan(5000);
    expect(log).toContain("WROTE 120");
    expect(r.records[0].exit_reason).toBe("disk_limit");
    expect(r.records[0].peaks?.diskBytes).toBeGreaterThan(100 * MiB);
    expect(r.records[0].grading?.valid_submission).toBe(true);
  }, 120_000);

  it("snapshots count against the cap: a submission rewritten each interval fills it, an unchanged one is stored once", () => {
    const write60 = "head -c 62914560 /dev/zero | tr '\\0' 7 > /home/workspace/s.csv && mv /home/workspace/s.csv /home/submission/submission.csv";
    const unchanged = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", `${write60}; sleep 7`, "-c", "titanic", "--disk", "150M", "--snapshot-every", "1s", "--poll-interval", "1s"]);
    expect(unchanged.status, unchanged.stderr).toBe(0);
    expect(unchanged.records[0].exit_reason).toBe("finished");
    expect(unchanged.records[0].snapshots.length).toBeGreaterThanOrEqual(4);
    // One copy on disk, the others hard links to it.
    expect(allocated(path.join(unchanged.runDirs[0], "snapshots"))).toBeLessThan(62 * MiB);
    const changing = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", `for i in 1 2 3 4 5 6 7 8; do ${write60}; echo $i >> /home/submission/submission.csv; sleep 1; done`, "-c", "titanic", "--disk", "150M", "--snapshot-every", "1s", "--poll-interval", "1s"]);
    expect(changing.status, changing.stderr).toBe(0);
    expect(changing.records[0].exit_reason).toBe("disk_limit");
  }, 120_000);
});

describe("snapshots of a sparse submission and the default cap (bwrap)", () => {
  it("a sparse 200 MB submission is snapshotted sparsely", () => {
    const cmd = `${SUBMIT}; truncate -s 200M /home/submission/submission.csv; sleep 2; echo x >> /home/submission/submission.csv; sleep 2; echo y >> /home/submission/submission.csv; sleep 2`;
    const r = runCli(dataDir, ["--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--snapshot-every", "1s", "--disk", "1G"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.records[0].snapshots.length).toBeGreaterThanOrEqual(4);
    expect(allocated(path.join(r.runDirs[0], "snapshots"))).toBeLessThan(2 * MiB);
    expect(allocated(path.join(r.runDirs[0], "submission"))).toBeLessThan(2 * MiB);
  }, 120_000);

  it("without --disk a run is capped at its share of the free space", () => {
    const r = runCli(dataDir, ["--agent", "external", "--agent-cmd", SUBMIT, "-c", "titanic", "--seeds", "2", "--workers", "2"]);
    expect(r.status, r.stderr).toBe(0);
    const free = fs.statfsSync(r.groupDir);
    const share = (free.bavail * free.bsize * 0.8) / 2;
    for (const rec of r.records) {
      expect(rec.sandbox.limits.diskBytes).toBeGreaterThan(share * 0.9);
      expect(rec.sandbox.limits.diskBytes).toBeLessThan(share * 1.1);
    }
    const none = runCli(dataDir, ["--agent", "external", "--agent-cmd", SUBMIT, "-c", "titanic", "--disk", "none"]);
    expect(none.records[0].sandbox.limits.diskBytes).toBeNull();
  }, 120_000);
});

describe("measuring disk without a volume of its own", () => {
  it("counts allocated blocks at any depth, and deleted files a process keeps open", async () => {
    const dir = tempDir("mlebench-measure-");
    execSync(`cd '${dir}' && for i in $(seq 1 21); do d=$(printf 'd%.0s' $(seq 1 240)); mkdir "$d" && cd "$d"; done && head -c 3145728 /dev/urandom > f`, { shell: "/bin/bash" });
    fs.writeFileSync(path.join(dir, "sparse"), "");
    fs.truncateSync(path.join(dir, "sparse"), 500 * MiB);
    const before = await measureDisk([dir], []);
    expect(before).toBeGreaterThan(3 * MiB);
    expect(before).toBeLessThan(4 * MiB);
    // A child that writes 8 MiB to a file it has deleted, then waits.
    const { spawn } = await import("node:child_process");
    const child = spawn("/usr/bin/python3", ["-c", `import os, sys, time\nf = open(${JSON.stringify(path.join(dir, "gone"))}, "wb")\nos.unlink(f.name)\nf.write(os.urandom(8 << 20)); f.flush(); os.fsync(f.fileno())\nprint("ready", flush=True)\ntime.sleep(30)`]);
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    try {
      const withHidden = await measureDisk([dir], [child.pid!]);
      expect(withHidden - before).toBeGreaterThanOrEqual(8 * MiB);
      expect(withHidden - before).toBeLessThan(9 * MiB);
      expect(await measureDisk([dir], [])).toBe(before);
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);
});
