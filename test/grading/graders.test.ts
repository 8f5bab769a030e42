import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOG, catalogEntry } from "../../src/competitions/catalog.js";
import { COMPETITIONS, getCompetition } from "../../src/competitions/registry.js";
import type { Competition } from "../../src/core/competition.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { FIXTURES, fixtureDataDir } from "../helpers/data-dir.js";

// Scores computed by scripts/golden/graders.py (one module per competition in
// scripts/golden/grader_cases/) with pandas + scikit-learn, or the metric written out in numpy.
const IDS = fs.readdirSync(FIXTURES).filter((d) => fs.existsSync(path.join(FIXTURES, d, "expected.json")));
const SRC = decodeURIComponent(new URL("../../src/competitions/", import.meta.url).pathname);

/** The competition from its folder, so a grader is tested even before the registry lists it. */
async function competitionOf(id: string): Promise<Competition> {
  return ((await import(path.join(SRC, id, "index.ts"))) as { competition: Competition }).competition;
}

describe.each(IDS)("%s grader", async (id) => {
  const competition = await competitionOf(id);
  const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, id, "expected.json"), "utf8")) as Record<string, number | null>;
  const dataDir = fixtureDataDir([competition]);
  it.each(Object.entries(expected))("%s scores %s", (name, want) => {
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

describe("grader registry", () => {
  it("lists every upstream competition whose folder has a grader, each with golden fixtures", () => {
    const withGrader = fs
      .readdirSync(SRC)
      .filter((d) => catalogEntry(d) !== undefined && fs.existsSync(path.join(SRC, d, "grade.ts")))
      .sort();
    expect([...COMPETITIONS.keys()].filter((id) => catalogEntry(id) !== undefined).sort()).toEqual(withGrader);
    expect(IDS.sort()).toEqual(withGrader);
  });

  it("has a grader for every upstream competition", () => {
    expect(CATALOG.filter((e) => !COMPETITIONS.has(e.id)).map((e) => e.id)).toEqual([]);
    expect(CATALOG).toHaveLength(82);
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
