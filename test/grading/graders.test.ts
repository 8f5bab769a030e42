import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getCompetition } from "../../src/competitions/registry.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { FIXTURES, fixtureDataDir } from "../helpers/data-dir.js";

// Scores computed by scripts/golden/graders.py with pandas + scikit-learn (log loss by formula).
const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, "expected.json"), "utf8")) as Record<
  string,
  Record<string, number | null>
>;
const dataDir = fixtureDataDir(Object.keys(expected));

describe.each(Object.keys(expected))("%s grader", (id) => {
  const competition = getCompetition(id);
  it.each(Object.entries(expected[id]))("%s scores %s", (name, want) => {
    const report = gradeSubmission(competition, path.join(FIXTURES, id, `${name}.csv`), dataDir);
    if (want === null) {
      expect(report.valid_submission).toBe(false);
      expect(report.score).toBeNull();
      expect(report.invalid_reason).toMatch(/\w/);
    } else {
      expect(report.invalid_reason).toBeNull();
      expect(report.valid_submission).toBe(true);
      expect(report.score).toBe(want);
    }
    expect(report.submission_exists).toBe(true);
  });
});

describe("non-finite scores", () => {
  it("keeps a NaN score valid, with score null and score_text NaN (kappa of two constant raters)", async () => {
    const { tempDir } = await import("../helpers/data-dir.js");
    const dir = tempDir();
    const priv = path.join(dir, "aptos2019-blindness-detection", "prepared", "private");
    fs.mkdirSync(priv, { recursive: true });
    fs.writeFileSync(path.join(priv, "test.csv"), "id_code,diagnosis\na,2\nb,2\n");
    fs.writeFileSync(path.join(dir, "aptos2019-blindness-detection", "leaderboard.csv"), "score\n0.9\n0.5\n");
    const sub = path.join(dir, "sub.csv");
    fs.writeFileSync(sub, "id_code,diagnosis\nb,2\na,2\n");
    const report = gradeSubmission(getCompetition("aptos2019-blindness-detection"), sub, dir);
    expect(report).toMatchObject({
      valid_submission: true,
      score: null,
      score_text: "NaN",
      any_medal: false,
      above_median: false,
      invalid_reason: null,
    });
  });
});
