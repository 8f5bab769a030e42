import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gradingSummarySchema } from "../../src/grading/report-schema.js";
import { mlebench } from "../helpers/cli.js";
import { FIXTURES, fixtureDataDir, goldenScore, tempDir } from "../helpers/data-dir.js";

const SUMMARY_KEYS = [
  "total_runs", "total_runs_with_submissions", "total_valid_submissions", "total_medals", "total_gold_medals",
  "total_silver_medals", "total_bronze_medals", "total_above_median", "competition_reports",
];

describe("mlebench grade", () => {
  const ids = ["spaceship-titanic", "new-york-city-taxi-fare-prediction", "aptos2019-blindness-detection"];
  const dataDir = fixtureDataDir(ids);
  const sub = (id: string, name: string) => path.join(FIXTURES, id, `${name}.csv`);

  it("grades every line, keeps going past bad ones, and writes upstream's summary", () => {
    const work = tempDir();
    const jsonl = path.join(work, "subs.jsonl");
    const lines = [
      JSON.stringify({ competition_id: "spaceship-titanic", submission_path: sub("spaceship-titanic", "perfect") }),
      "# a comment",
      "// another comment",
      "",
      JSON.stringify({ competition_id: "new-york-city-taxi-fare-prediction", submission_path: sub("new-york-city-taxi-fare-prediction", "noisy") }),
      "{not json",
      JSON.stringify({ competition_id: "unknown-comp", submission_path: "x.csv" }),
      JSON.stringify({ competition_id: "aptos2019-blindness-detection", submission_path: sub("aptos2019-blindness-detection", "continuous") }),
      JSON.stringify({ competition_id: "aptos2019-blindness-detection", submission_path: path.join(work, "missing.csv") }),
      JSON.stringify({ competition_id: "spaceship-titanic" }),
    ];
    fs.writeFileSync(jsonl, lines.join("\n") + "\n");
    const out = path.join(work, "reports");
    const r = mlebench(["grade", "--submission", jsonl, "--output-dir", out, "--data-dir", dataDir, "--json"]);
    expect(r.status).toBe(1);
    const printed = JSON.parse(r.stdout);
    const files = fs.readdirSync(out);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-UTC_grading_report\.json$/);
    expect(printed.report_path).toBe(path.join(out, files[0]));
    const raw = JSON.parse(fs.readFileSync(path.join(out, files[0]), "utf8"));
    expect(Object.keys(raw).slice(0, 9)).toEqual(SUMMARY_KEYS);
    const summary = gradingSummarySchema.parse(raw);
    expect(summary).toMatchObject({
      total_runs: 4,
      total_runs_with_submissions: 3,
      total_valid_submissions: 2,
      // spaceship-titanic perfect (1.0) beats every fixture leaderboard score: gold; taxi noisy
      // lies between the fixture's silver (position 74) and gold (position 12) scores.
      total_gold_medals: 1,
      total_silver_medals: 1,
      total_bronze_medals: 0,
      total_medals: 2,
    });
    expect(summary.competition_reports.map((c) => [c.competition_id, c.score])).toEqual([
      ["spaceship-titanic", 1],
      ["new-york-city-taxi-fare-prediction", goldenScore("new-york-city-taxi-fare-prediction", "noisy")],
      ["aptos2019-blindness-detection", null],
      ["aptos2019-blindness-detection", null],
    ]);
    expect(raw.errors.map((e: { line: number }) => e.line)).toEqual([6, 7, 10]);
    expect(raw.errors[0].reason).toMatch(/line 6: not valid JSON/);
    expect(raw.errors[1].reason).toMatch(/Unknown competition "unknown-comp"/);
    expect(raw.errors[2].reason).toMatch(/"submission_path" must be a string/);
  });

  it("medal totals add up (taxi perfect submission: gold, lower is better)", () => {
    const work = tempDir();
    const jsonl = path.join(work, "subs.jsonl");
    fs.writeFileSync(jsonl, JSON.stringify({ competition_id: "new-york-city-taxi-fare-prediction", submission_path: sub("new-york-city-taxi-fare-prediction", "perfect") }) + "\n");
    const r = mlebench(["grade", "--submission", jsonl, "--output-dir", work, "--data-dir", dataDir]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^total_gold_medals +1$/m);
    expect(r.stdout).toMatch(/^total_medals +1$/m);
    expect(r.stdout).toMatch(/^Saved grading report to /m);
  });

  it("exits 2 when the submissions file is missing or a required flag is absent", () => {
    const work = tempDir();
    const r = mlebench(["grade", "--submission", path.join(work, "none.jsonl"), "--output-dir", work]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/Cannot read submissions file .*none\.jsonl: ENOENT/);
    expect(mlebench(["grade", "--output-dir", work]).status).toBe(2);
  });
});
