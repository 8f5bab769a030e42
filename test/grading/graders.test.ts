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
