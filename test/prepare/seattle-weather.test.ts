import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/seattle-weather/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import type { Table } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const CLASSES = ["drizzle", "fog", "rain", "snow", "sun"];
const { dataDir, paths: p, grade } = preparedOffline(competition);

const strings = (t: Table, name: string) => t.data.get(name)!.values as (string | null)[];
const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);

/** The sample submission with its data rows (split into cells) rewritten. */
function editSample(edit: (header: string[], rows: string[][]) => string[][]): string {
  const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
  const cells = rows.map((r) => r.split(","));
  const out = edit(header.split(","), cells);
  return out.map((r) => r.join(",")).join("\n") + "\n";
}

describe("seattle-weather preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("splits all 1,461 days by time: every test day comes after every training day", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect(train.rowCount + test.rowCount).toBe(1461);
    expect(test.rowCount).toBe(438);
    expect(train.columns).toEqual(["id", "date", "precipitation", "temp_max", "temp_min", "wind", "weather"]);
    expect(test.columns).toEqual(["id", "date", "precipitation", "temp_max", "temp_min", "wind"]);
    const lastTrain = strings(train, "date").reduce((a, b) => (a! > b! ? a : b));
    const firstTest = strings(test, "date").reduce((a, b) => (a! < b! ? a : b));
    expect(lastTrain! < firstTest!).toBe(true);
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 1461 }, (_, i) => i + 1));
    // Sorted by id, so row order says nothing about the date either.
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }
  });

  it("writes one-hot answers with exactly one weather type per test day", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", ...CLASSES]);
    expect(answers.rowCount).toBe(438);
    const cols = CLASSES.map((c) => numbers(answers, c));
    for (let i = 0; i < answers.rowCount; i++) {
      expect(cols.every((col) => col[i] === 0 || col[i] === 1)).toBe(true);
      expect(cols.reduce((s, col) => s + col[i], 0)).toBe(1);
    }
  });
});

describe("seattle-weather grader", () => {
  it("grades the sample submission as valid, with the log loss of uniform probabilities (ln 5)", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(1.60944);
    expect(report.is_lower_better).toBe(true);
    expect(report.any_medal).toBe(false);
  });

  it("scores the answers themselves 0, and ignores row order and extra columns", () => {
    const answers = fs.readFileSync(path.join(p.private, "test.csv"), "utf8").trimEnd().split("\n");
    expect(grade("perfect", answers.join("\n") + "\n").score).toBe(0);
    const [header, ...rows] = answers;
    const shuffled = [`${header},note`, ...rows.reverse().map((r) => `${r},x`)];
    const report = grade("reordered-extra", shuffled.join("\n") + "\n");
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0);
  });

  it("rejects a row whose probabilities do not sum to one", () => {
    const text = editSample((h, rows) => [h, ...rows.map((r, i) => (i === 0 ? [r[0], "0.5", "0.5", "0.5", "0", "0"] : r))]);
    const report = grade("unnormalised", text);
    expect(report.valid_submission).toBe(false);
    expect(report.invalid_reason).toMatch(/must sum to one; data row 1 sums to 1\.5/);
  });

  it("rejects a submission missing a class column", () => {
    const drop = (r: string[]) => r.filter((_, j) => j !== 4);
    const text = editSample((h, rows) => [drop(h), ...rows.map((r) => [...drop(r).slice(0, 4), "0.4"])]);
    const report = grade("no-snow", text);
    expect(report.valid_submission).toBe(false);
    expect(report.invalid_reason).toMatch(/missing 1 required column\(s\): "snow"/);
  });

  it("rejects a negative probability even when the row sums to one", () => {
    const text = editSample((h, rows) => [h, ...rows.map((r, i) => (i === 2 ? [r[0], "-0.1", "0.3", "0.2", "0.2", "0.4"] : r))]);
    const report = grade("negative", text);
    expect(report.valid_submission).toBe(false);
    expect(report.invalid_reason).toMatch(/"drizzle" must hold probabilities between 0 and 1, but data row 3 holds -0\.1/);
  });
});
