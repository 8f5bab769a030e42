import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competitionReportSchema } from "../../src/grading/report-schema.js";
import { mlebench, REPO } from "../helpers/cli.js";
import { FIXTURES, fixtureDataDir, goldenScore, tempDir } from "../helpers/data-dir.js";

const UPSTREAM_KEYS = [
  "competition_id", "score", "gold_threshold", "silver_threshold", "bronze_threshold", "median_threshold",
  "any_medal", "gold_medal", "silver_medal", "bronze_medal", "above_median", "submission_exists",
  "valid_submission", "is_lower_better", "created_at", "submission_path",
];

describe("mlebench grade-sample", () => {
  const dataDir = fixtureDataDir(["aerial-cactus-identification", "spaceship-titanic"]);
  const noisy = path.join(FIXTURES, "aerial-cactus-identification", "noisy.csv");

  it("prints a JSON report with upstream's keys, in order, plus invalid_reason", () => {
    const r = mlebench(["grade-sample", noisy, "aerial-cactus-identification", "--data-dir", dataDir, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const report = competitionReportSchema.parse(JSON.parse(r.stdout));
    expect(Object.keys(JSON.parse(r.stdout)).slice(0, 16)).toEqual(UPSTREAM_KEYS);
    // Leaderboard fixture: 120 scores; gold at position 10, silver 24, bronze 48.
    const lb = fs.readFileSync(path.join(FIXTURES, "aerial-cactus-identification", "leaderboard.csv"), "utf8")
      .trim().split("\n").slice(1).map((l) => Number(l.split(",")[1]));
    expect(report).toMatchObject({
      competition_id: "aerial-cactus-identification",
      score: goldenScore("aerial-cactus-identification", "noisy"),
      gold_threshold: lb[9],
      silver_threshold: lb[23],
      bronze_threshold: lb[47],
      valid_submission: true,
      submission_exists: true,
      is_lower_better: false,
      invalid_reason: null,
      submission_path: noisy,
    });
    expect(report.gold_medal).toBe(goldenScore("aerial-cactus-identification", "noisy") >= lb[9]);
    expect(report.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?$/);
  });

  it("reads the data dir from MLEBENCH_DATA_DIR and prints text by default", () => {
    const r = mlebench(["grade-sample", noisy, "aerial-cactus-identification"], { MLEBENCH_DATA_DIR: dataDir });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^score +${String(goldenScore("aerial-cactus-identification", "noisy")).replace(".", "\\.")} +\\(higher is better\\)$`, "m"));
    expect(r.stdout).toMatch(/^valid +yes$/m);
  });

  it("reports a missing submission as invalid and exits 0", () => {
    const missing = path.join(tempDir(), "nope.csv");
    const r = mlebench(["grade-sample", missing, "spaceship-titanic", "--data-dir", dataDir, "--json"]);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ submission_exists: false, valid_submission: false, score: null, any_medal: false });
    expect(report.invalid_reason).toBe(`Submission file ${missing} does not exist.`);
  });

  it("exits 2 with a fix-it message for an unknown competition", () => {
    const r = mlebench(["grade-sample", noisy, "no-such-competition", "--data-dir", dataDir]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/Unknown competition "no-such-competition".*mlebench list/);
  });

  it("exits 2 and says how to prepare when the answers are missing", () => {
    const empty = tempDir();
    const r = mlebench(["grade-sample", noisy, "aerial-cactus-identification", "--data-dir", empty]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Answers for \"aerial-cactus-identification\" not found at");
    expect(r.stderr).toContain("mlebench prepare -c aerial-cactus-identification");
  });

  it("exits 2 when the leaderboard is missing", () => {
    const dir = fixtureDataDir(["aerial-cactus-identification"]);
    fs.rmSync(path.join(dir, "aerial-cactus-identification", "leaderboard.csv"));
    const r = mlebench(["grade-sample", noisy, "aerial-cactus-identification", "--data-dir", dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/Leaderboard for "aerial-cactus-identification" not found/);
  });

  it("exits 2 on a bad flag or a missing argument", () => {
    expect(mlebench(["grade-sample", noisy, "spaceship-titanic", "--bogus"]).status).toBe(2);
    const r = mlebench(["grade-sample", noisy]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/missing required argument/);
  });

  it("grades the bundled example as the README says", () => {
    const r = mlebench(["grade-sample", "examples/submission.csv", "spaceship-titanic", "--data-dir", "examples/data", "--json"], {}, REPO);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid_submission: true, score: 0.79 });
  });

  it("explains every flag in --help", () => {
    const r = mlebench(["grade-sample", "--help"]);
    expect(r.status).toBe(0);
    for (const flag of ["--data-dir", "--json", "<submission>", "<competition-id>"]) expect(r.stdout).toContain(flag);
  });
});
