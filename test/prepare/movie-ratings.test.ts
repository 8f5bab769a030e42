import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/movie-ratings/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { competitionPaths } from "../../src/core/paths.js";
import { type Column, type Table, cellAt } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, prepareCompetition, recordedChecksums } from "../../src/prepare/prepare.js";
import { resolveSource } from "../../src/sources/packages.js";
import { tempDir } from "../helpers/data-dir.js";

const competition = await loadGrader(entry);

type Movie = Record<string, string | number | null>;

const dataDir = tempDir("mlebench-movie-ratings-");
const p = competitionPaths(dataDir, competition.id);
let train: Table;
let test: Table;
let answers: Table;
let movies: Movie[];

beforeAll(async () => {
  await prepareCompetition(competition, dataDir);
  train = readCsv(path.join(p.public, "train.csv"));
  test = readCsv(path.join(p.public, "test.csv"));
  answers = readCsv(path.join(p.private, "test.csv"));
  movies = JSON.parse(fs.readFileSync(resolveSource(competition.offline!.sources.movies), "utf8")) as Movie[];
});

const column = (t: Table, name: string): Column => {
  const col = t.data.get(name);
  if (!col) throw new Error(`no column ${name}`);
  return col;
};
const cells = (t: Table, name: string) => Array.from({ length: t.rowCount }, (_, i) => cellAt(column(t, name), i));

/** Write a submission file from CSV text into the data dir and grade it. */
function grade(name: string, text: string) {
  const file = path.join(dataDir, `${name}.csv`);
  fs.writeFileSync(file, text);
  return gradeSubmission(competition, file, dataDir);
}

/** The answers as submission rows, optionally edited, as CSV text. */
function answersCsv(edit: (rows: [string, string][]) => [string, string][] = (r) => r): string {
  const rows = cells(answers, "id").map((id, i): [string, string] => [String(id), String(cellAt(column(answers, "imdb_rating"), i))]);
  return ["id,imdb_rating", ...edit(rows).map((r) => r.join(","))].join("\n") + "\n";
}

describe("movie-ratings preparation", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
    expect(Object.keys(recordedChecksums(competition)).sort()).toEqual([
      "private/test.csv",
      "public/description.md",
      "public/sample_submission.csv",
      "public/test.csv",
      "public/train.csv",
    ]);
  });

  it("keeps every rated film whose title is unique, split about 70/30", () => {
    const titles = new Map<string, number>();
    for (const m of movies) if (m.Title !== null) titles.set(String(m.Title), (titles.get(String(m.Title)) ?? 0) + 1);
    const rated = movies.filter((m) => m["IMDB Rating"] !== null);
    const kept = rated.filter((m) => m.Title === null || titles.get(String(m.Title)) === 1);
    expect(rated.length).toBe(2988);
    expect(kept.length).toBeLessThan(rated.length);
    expect(train.rowCount + test.rowCount).toBe(kept.length);
    expect(answers.rowCount).toBe(test.rowCount);
    expect(test.rowCount).toBe(Math.round(kept.length * 0.3));
  });

  it("withholds the target and the title from the test set", () => {
    expect(train.columns).toContain("imdb_rating");
    expect(test.columns).not.toContain("imdb_rating");
    expect(test.columns).toEqual(train.columns.filter((c) => c !== "imdb_rating"));
    expect(train.columns.some((c) => /title/i.test(c))).toBe(false);
    expect(answers.columns).toEqual(["id", "imdb_rating"]);
  });

  it("gives disjoint, sorted ids, and answers exactly for the test ids", () => {
    const trainIds = cells(train, "id") as number[];
    const testIds = cells(test, "id") as number[];
    expect(new Set([...trainIds, ...testIds]).size).toBe(trainIds.length + testIds.length);
    expect([...trainIds].sort((a, b) => a - b)).toEqual(trainIds);
    expect([...testIds].sort((a, b) => a - b)).toEqual(testIds);
    expect(cells(answers, "id")).toEqual(testIds);
    expect(Math.min(...trainIds, ...testIds)).toBe(1);
    expect(Math.max(...trainIds, ...testIds)).toBe(trainIds.length + testIds.length);
  });

  it("carries a film's values over from the source, with its two-digit year repaired", () => {
    const source = movies.find((m) => m.Title === "Gone with the Wind")!;
    expect(source["Release Date"]).toBe("Dec 15 2039");
    const expected = {
      us_gross: source["US Gross"],
      worldwide_gross: source["Worldwide Gross"],
      us_dvd_sales: source["US DVD Sales"],
      production_budget: source["Production Budget"],
      release_date: "1939-12-15",
      mpaa_rating: source["MPAA Rating"],
      running_time_min: source["Running Time min"],
      distributor: source.Distributor,
      source: source.Source,
      major_genre: source["Major Genre"],
      creative_type: source["Creative Type"],
      director: source.Director,
      rotten_tomatoes_rating: source["Rotten Tomatoes Rating"],
      imdb_votes: source["IMDB Votes"],
    };
    const find = (t: Table) =>
      cells(t, "id")
        .map((_, i) => i)
        .filter((i) => cellAt(column(t, "release_date"), i) === "1939-12-15" && cellAt(column(t, "director"), i) === "George Cukor");
    const inTrain = find(train);
    const inTest = find(test);
    expect(inTrain.length + inTest.length).toBe(1);
    const [table, row] = inTrain.length === 1 ? [train, inTrain[0]] : [test, inTest[0]];
    const actual = Object.fromEntries(Object.keys(expected).map((k) => [k, cellAt(column(table, k), row)]));
    expect(actual).toEqual(expected);
    const id = cellAt(column(table, "id"), row);
    const rating =
      table === train
        ? cellAt(column(train, "imdb_rating"), row)
        : cellAt(column(answers, "imdb_rating"), cells(answers, "id").indexOf(id));
    expect(rating).toBe(source["IMDB Rating"]);
  });
});

describe("movie-ratings grading", () => {
  it("grades the sample submission as valid, at the RMSE of its constant prediction", () => {
    const report = grade("sample", fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8"));
    expect(report.invalid_reason).toBeNull();
    expect(report.is_lower_better).toBe(true);
    const sample = readCsv(path.join(p.public, "sample_submission.csv"));
    const predicted = new Map(cells(sample, "id").map((id, i) => [id, cellAt(column(sample, "imdb_rating"), i) as number]));
    let squares = 0;
    cells(answers, "id").forEach((id, i) => {
      squares += ((cellAt(column(answers, "imdb_rating"), i) as number) - predicted.get(id)!) ** 2;
    });
    expect(report.score).toBeCloseTo(Math.sqrt(squares / answers.rowCount), 5);
    expect(report.score).toBeGreaterThan(1);
  });

  it("scores the answers themselves 0 in any row order", () => {
    expect(grade("perfect", answersCsv()).score).toBe(0);
    expect(grade("perfect-reversed", answersCsv((r) => [...r].reverse())).score).toBe(0);
  });

  // Cases build their text lazily: the answers are read in beforeAll, after the cases are collected.
  const cases: [string, () => string, RegExp][] = [
    ["missing id", () => answersCsv((r) => r.slice(1)), /rows but the answers have/],
    ["NaN prediction", () => answersCsv((r) => r.map(([id, v], i) => [id, i === 2 ? "" : v])), /finite numbers, but data row 3 holds a missing value/],
    ["infinite prediction", () => answersCsv((r) => r.map(([id, v], i) => [id, i === 4 ? "inf" : v])), /finite numbers, but data row 5 holds inf/],
    ["text prediction", () => answersCsv((r) => r.map(([id, v], i) => [id, i === 0 ? "great" : v])), /must hold numbers, but data row 1 holds "great"/],
    ["duplicate id", () => answersCsv((r) => r.map(([id, v], i) => [i === 1 ? r[0][0] : id, v])), /repeat an id/],
    ["missing column", () => answersCsv().replace("imdb_rating", "rating"), /must have a "imdb_rating" column/],
  ];
  it.each(cases)("rejects a submission with a %s, saying why", (name, text, reason) => {
    const report = grade(name.replace(/ /g, "-"), text());
    expect(report.valid_submission).toBe(false);
    expect(report.score).toBeNull();
    expect(report.invalid_reason).toMatch(reason);
  });
});
