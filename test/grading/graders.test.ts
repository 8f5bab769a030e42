import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOG, catalogEntry } from "../../src/competitions/catalog.js";
import { COMPETITIONS, loadCompetition, loadGrader } from "../../src/competitions/registry.js";
import type { Competition, GradableCompetition } from "../../src/core/competition.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { UPSTREAM_COMMIT } from "../../src/sources/upstream/fetch.js";
import { FIXTURES, fixtureDataDir } from "../helpers/data-dir.js";

// expected.json: the scores upstream's own grade.py gives each submission (scripts/golden/upstream/
// oracle.py; oracle.json says with which libraries). independent.json: the same scores from
// upstream's steps redone independently (scripts/golden/grader_cases/), which must agree.
const IDS = fs.readdirSync(FIXTURES).filter((d) => fs.existsSync(path.join(FIXTURES, d, "expected.json")));
const SRC = decodeURIComponent(new URL("../../src/competitions/", import.meta.url).pathname);

type Score = number | null | "NaN";
interface OracleRecord {
  upstream_commit: string;
  independent_differs: Record<string, { why: string | null }>;
}

function readScores(id: string, file: string): Record<string, Score> {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, id, file), "utf8")) as Record<string, Score>;
}

/** The competition from its folder, so a grader is tested even before the registry lists it. */
async function competitionOf(id: string): Promise<GradableCompetition> {
  return loadGrader(((await import(path.join(SRC, id, "index.ts"))) as { competition: Competition }).competition);
}

describe.each(IDS)("%s grader", async (id) => {
  const competition = await competitionOf(id);
  const expected = readScores(id, "expected.json");
  const dataDir = fixtureDataDir([competition]);
  it.each(Object.entries(expected))("%s scores %s", (name, want) => {
    const report = gradeSubmission(competition, path.join(FIXTURES, id, `${name}.csv`), dataDir);
    if (want === "NaN") {
      expect(report).toMatchObject({ valid_submission: true, score: null, score_text: "NaN", invalid_reason: null });
    } else if (want === null) {
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

describe("grader oracles", () => {
  it.each(IDS)("%s: the independent scores equal upstream's but where oracle.json says why not", (id) => {
    const oracle = JSON.parse(fs.readFileSync(path.join(FIXTURES, id, "oracle.json"), "utf8")) as OracleRecord;
    expect(oracle.upstream_commit).toBe(UPSTREAM_COMMIT);
    const expected = readScores(id, "expected.json");
    const independent = readScores(id, "independent.json");
    expect(Object.keys(independent).sort()).toEqual(Object.keys(expected).sort());
    const differs = Object.keys(expected).filter((k) => independent[k] !== expected[k]);
    expect(differs.sort()).toEqual(Object.keys(oracle.independent_differs).sort());
    for (const k of differs) expect(oracle.independent_differs[k].why, `${id}/${k}`).toMatch(/\w{3}/);
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
    const report = gradeSubmission(await loadCompetition("aptos2019-blindness-detection"), sub, dir);
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
