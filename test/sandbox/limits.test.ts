import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { snapshotName } from "../../src/runner/run.js";
import { Snapshots } from "../../src/runner/snapshots.js";
import { quarantineSubmission } from "../../src/runner/submission.js";
import { countCpus, firstCpus, pickCpus } from "../../src/sandbox/cgroup.js";
import { formatDuration, limitsFromFlags, parseBytes, parseDuration, parseGpus, parsePositiveInt, snapshotInterval } from "../../src/sandbox/limits.js";
import { tempDir } from "../helpers/data-dir.js";

describe("parseDuration", () => {
  it.each([
    ["24h", 86_400_000],
    ["90m", 5_400_000],
    ["1h30m", 5_400_000],
    ["45s", 45_000],
    ["500ms", 500],
    ["1.5h", 5_400_000],
    ["2d", 172_800_000],
    ["30", 30_000],
  ])("%s → %d ms", (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(["", "h", "soon", "10x", "1h junk", "-5m", "0s"])("rejects %j", (text) => {
    expect(() => parseDuration(text, "--time-limit")).toThrow(UserError);
    expect(() => parseDuration(text, "--time-limit")).toThrow(/^--time-limit: ".*" is not a duration/);
  });
});

describe("parseBytes", () => {
  it.each([
    ["8G", 8 * 1024 ** 3],
    ["512M", 512 * 1024 ** 2],
    ["512MiB", 512 * 1024 ** 2],
    ["100MB", 100_000_000],
    ["1K", 1024],
    ["4096", 4096],
    ["1.5G", 1.5 * 1024 ** 3],
  ])("%s → %d", (text, n) => expect(parseBytes(text)).toBe(n));

  it.each(["", "lots", "5X", "-1G", "0"])("rejects %j", (text) => {
    expect(() => parseBytes(text, "--memory")).toThrow(/^--memory: ".*" is not a size/);
  });
});

describe("small parsers", () => {
  it("parseGpus", () => {
    expect(parseGpus("none")).toEqual([]);
    expect(parseGpus("0,1")).toEqual([0, 1]);
    expect(() => parseGpus("0,0")).toThrow(/lists a GPU twice/);
    expect(() => parseGpus("a")).toThrow(/not a list of GPU indices/);
  });

  it("parsePositiveInt", () => {
    expect(parsePositiveInt("12", "--workers")).toBe(12);
    expect(() => parsePositiveInt("1.5", "--workers")).toThrow('--workers: "1.5" is not a positive whole number');
  });

  it("formatDuration and snapshotName", () => {
    expect(formatDuration(3_723_000)).toBe("1h02m03s");
    expect(formatDuration(65_000)).toBe("1m05s");
    expect(snapshotName(3723)).toBe("01h02m03s");
    expect(snapshotName(0)).toBe("00h00m00s");
    expect(snapshotName(100 * 3600)).toBe("100h00m00s");
  });

  it("firstCpus and countCpus read cpuset lists", () => {
    expect(firstCpus("0-3,8-9", 5)).toBe("0,1,2,3,8");
    expect(firstCpus("2", 4)).toBe("2");
    expect(countCpus("0-3,8-9")).toBe(6);
  });

  it("pickCpus gives a new run the CPUs the runs already there hold least", () => {
    expect(pickCpus("0-3", 2, [])).toBe("0,1");
    expect(pickCpus("0-3", 2, ["0,1"])).toBe("2,3");
    expect(pickCpus("0-3", 1, ["0,1", "2", "0-3"])).toBe("3");
    expect(pickCpus("0-3", 3, ["0"])).toBe("1,2,3");
    expect(pickCpus("0-1", 1, ["0", "1", "0"])).toBe("1");
    // CPUs outside the parent's set do not count; more CPUs than there are gives them all.
    expect(pickCpus("2-3", 1, ["2", "7"])).toBe("3");
    expect(pickCpus("0-1", 4, [])).toBe("0,1");
  });
});

describe("limit flags", () => {
  it("fill in the documented defaults and leave the optional ones unlimited", () => {
    expect(limitsFromFlags({ timeLimit: "2h" })).toEqual({
      wallMs: 7_200_000,
      memoryBytes: null,
      pids: 4096,
      cpus: null,
      diskBytes: null,
      tmpBytes: 2 * 1024 ** 3,
      outputBytes: 100 * 1024 ** 2,
    });
    expect(limitsFromFlags({ timeLimit: "1m", memory: "1G", cpus: "2", disk: "5G", pids: "10" })).toMatchObject({
      memoryBytes: 1024 ** 3,
      cpus: 2,
      diskBytes: 5 * 1024 ** 3,
      pids: 10,
    });
    expect(() => limitsFromFlags({ timeLimit: "1m", pids: "0" })).toThrow('--pids: "0" is not a positive whole number');
  });

  it("snapshots every 1/24 of the time limit unless told otherwise", () => {
    expect(snapshotInterval(undefined, 86_400_000)).toBe(3_600_000);
    expect(snapshotInterval(undefined, 240_000)).toBe(10_000);
    expect(snapshotInterval(undefined, 6_000)).toBe(1000);
    expect(snapshotInterval(undefined, null)).toBe(3_600_000);
    expect(snapshotInterval("never", 86_400_000)).toBeNull();
    expect(snapshotInterval("5m", 86_400_000)).toBe(300_000);
  });
});

describe("submission checks", () => {
  it("sets aside a symlinked submission, keeps a regular one", () => {
    const dir = tempDir();
    const target = path.join(dir, "secret.csv");
    fs.writeFileSync(target, "id,y\n1,2\n");
    const sub = path.join(dir, "submission.csv");
    fs.symlinkSync(target, sub);
    expect(quarantineSubmission(sub)).toBe(
      `submission.csv was a symbolic link (to ${target}); only a regular file is graded (kept as submission.csv.rejected)`,
    );
    expect(fs.existsSync(sub)).toBe(false);
    fs.writeFileSync(sub, "id,y\n");
    expect(quarantineSubmission(sub)).toBeNull();
    expect(quarantineSubmission(path.join(dir, "absent.csv"))).toBeNull();
    fs.rmSync(sub);
    fs.mkdirSync(sub);
    expect(quarantineSubmission(sub)).toBe(
      "submission.csv was a directory; only a regular file is graded (kept as submission.csv.rejected-2)",
    );
  });

  it("snapshots refuse to follow a symlink or open a FIFO", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "a.csv"), "x\n");
    fs.symlinkSync(path.join(dir, "a.csv"), path.join(dir, "link.csv"));
    execSync(`mkfifo '${path.join(dir, "fifo.csv")}'`);
    const snaps = new Snapshots();
    expect(snaps.take(path.join(dir, "link.csv"), path.join(dir, "out1"))).toBe(false);
    expect(snaps.take(path.join(dir, "fifo.csv"), path.join(dir, "out1"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "out1"))).toBe(false);
    expect(snaps.take(path.join(dir, "a.csv"), path.join(dir, "out2"))).toBe(true);
    expect(fs.readFileSync(path.join(dir, "out2"), "utf8")).toBe("x\n");
  });

  it("snapshots are sparse, an unchanged submission is linked to the last copy, and the disk they take is counted", () => {
    const dir = tempDir();
    const sub = path.join(dir, "submission.csv");
    // 64 MiB with 8 KiB of data at each end: holes in between.
    const fd = fs.openSync(sub, "w");
    fs.writeSync(fd, Buffer.alloc(8192, 0x41), 0, 8192, 0);
    fs.writeSync(fd, Buffer.alloc(8192, 0x42), 0, 8192, 64 * 1024 * 1024 - 8192);
    fs.closeSync(fd);
    const snaps = new Snapshots();
    expect(snaps.take(sub, path.join(dir, "s1"))).toBe(true);
    expect(snaps.take(sub, path.join(dir, "s2"))).toBe(true);
    expect(snaps.take(sub, path.join(dir, "s3"))).toBe(true);
    expect(fs.readFileSync(path.join(dir, "s1")).equals(fs.readFileSync(sub))).toBe(true);
    const s1 = fs.statSync(path.join(dir, "s1"));
    expect(s1.blocks * 512).toBeLessThanOrEqual(64 * 1024);
    expect(fs.statSync(path.join(dir, "s3")).ino).toBe(s1.ino);
    expect(snaps.bytes).toBe(s1.blocks * 512);
    // A rewritten submission is copied again.
    fs.appendFileSync(sub, "more\n");
    expect(snaps.take(sub, path.join(dir, "s4"))).toBe(true);
    expect(fs.statSync(path.join(dir, "s4")).ino).not.toBe(s1.ino);
    expect(snaps.bytes).toBeGreaterThan(s1.blocks * 512);
  });
});
