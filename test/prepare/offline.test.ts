import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { competitionPaths } from "../../src/core/paths.js";
import { competitionsInSplit, loadGrader } from "../../src/competitions/registry.js";
import { gradeSubmission, loadLeaderboard } from "../../src/grading/grade.js";
import { readCsv, readCsvHeader } from "../../src/io/csv-read.js";
import { checksumTree, prepareCompetition, recordedChecksums } from "../../src/prepare/prepare.js";
import { resolveSource } from "../../src/sources/packages.js";
import { tempDir } from "../helpers/data-dir.js";

const offline = competitionsInSplit("offline");
const dataDir = tempDir("mlebench-offline-");

describe("offline split", () => {
  it("has competitions, each with a description, a leaderboard and recorded checksums", () => {
    expect(offline.length).toBeGreaterThan(0);
    for (const c of offline) {
      expect(c.offline, c.id).toBeDefined();
      for (const f of ["description.md", "leaderboard.csv", "checksums.json"]) {
        expect(fs.existsSync(path.join(c.offline!.assets, f)), `${c.id}/${f}`).toBe(true);
      }
    }
  });

  it("has reference populations of at least 500 entries, each row naming the pipeline that produced it", () => {
    for (const c of offline) {
      const board = readCsv(path.join(c.offline!.assets, "leaderboard.csv"));
      expect(board.rowCount, `${c.id}/leaderboard.csv`).toBeGreaterThanOrEqual(500);
      expect(board.columns, `${c.id}/leaderboard.csv`).toEqual(expect.arrayContaining(["teamName", "score", "pipeline"]));
      const pipelines = board.data.get("pipeline")!.values as (string | null)[];
      expect(pipelines.every((v) => typeof v === "string" && v.length > 0), `${c.id}: every row names its pipeline`).toBe(true);
    }
  });
});

describe.each(offline.map((c) => [c.id, c] as const))("%s", (_id, c) => {
  const spec = c.offline!;
  const p = competitionPaths(dataDir, c.id);

  it("prepares from the package-shipped source, matching the recorded checksums", async () => {
    const first = await prepareCompetition(c, dataDir);
    expect(first.status).toBe("prepared");
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(c));
    expect(fs.readFileSync(path.join(p.public, "description.md"), "utf8")).toMatch(/^# /);
  });

  it("is idempotent: a second prepare only verifies", async () => {
    expect((await prepareCompetition(c, dataDir)).status).toBe("verified");
  });

  it("is deterministic: preparing again from scratch gives the same bytes", async () => {
    const other = tempDir("mlebench-offline-again-");
    await prepareCompetition(c, other);
    expect(checksumTree(path.dirname(competitionPaths(other, c.id).public))).toEqual(recordedChecksums(c));
  });

  it("leaks no answers: test ids are disjoint from train ids, and public test files lack the target", () => {
    const answers = readCsv(path.join(p.private, c.answers));
    const targets = answers.columns.filter((col) => col !== spec.layout.id);
    const testHeader = readCsvHeader(path.join(p.public, spec.layout.test));
    for (const t of targets) expect(testHeader).not.toContain(t);
    const ids = (file: string) => new Set(readCsv(path.join(p.public, file)).data.get(spec.layout.id)!.values as ArrayLike<unknown> as unknown[]);
    const train = ids(spec.layout.train);
    const test = ids(spec.layout.test);
    expect([...test].filter((x) => train.has(x))).toEqual([]);
    const answerIds = new Set(Array.from(answers.data.get(spec.layout.id)!.values as ArrayLike<unknown>));
    expect(answerIds).toEqual(test);
  });

  it("grades its own sample submission as valid, and the reference leaderboard's best entry beats it", async () => {
    const report = gradeSubmission(await loadGrader(c), path.join(p.public, c.sampleSubmission), dataDir);
    expect(report.invalid_reason).toBeNull();
    const board = loadLeaderboard(p.leaderboard);
    expect(board.length).toBeGreaterThanOrEqual(100);
    const best = board[0];
    expect(report.is_lower_better ? best < report.score! : best > report.score!).toBe(true);
    expect(report.any_medal).toBe(false);
  });
});

describe("package sources", () => {
  it("names the Debian package to install when a source file is missing", () => {
    expect(() => resolveSource({ kind: "debian", package: "dataset-nothing", path: "/nonexistent/x.csv" })).toThrow(
      /ships in the Debian package dataset-nothing.*apt-get install dataset-nothing/,
    );
    expect(() => resolveSource({ kind: "debian", package: "dataset-nothing", path: "/nonexistent/x.csv" })).toThrow(UserError);
  });

  it("names the npm package to install when it is absent", () => {
    expect(() => resolveSource({ kind: "npm", package: "@mlebench/not-a-package", file: "data.csv" })).toThrow(
      /npm install @mlebench\/not-a-package/,
    );
  });
});
