import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { CLASSES } from "../../src/competitions/digits/grade.js";
import { competition as entry } from "../../src/competitions/digits/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { parseDigits, PIXEL_COLUMNS } from "../../src/competitions/digits/prepare.js";
import { type Column, makeTable, type Table } from "../../src/core/table.js";
import { gradeSubmission, loadLeaderboard } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { resolveSource } from "../../src/sources/packages.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const { dataDir, paths: p, grade } = preparedOffline(competition);
const SOURCE = resolveSource(competition.offline!.sources.digits);

const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);

/** The sample submission with its data rows (split into cells) rewritten. */
function editSample(edit: (header: string[], rows: string[][]) => string[][]): string {
  const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
  const out = edit(header.split(","), rows.map((r) => r.split(",")));
  return out.map((r) => r.join(",")).join("\n") + "\n";
}

/** The source's images as "label:pixels" keys, to compare the prepared files with as multisets. */
function sourceKeys(): string[] {
  const { pixels, labels } = parseDigits(zlib.gunzipSync(fs.readFileSync(SOURCE)).toString("utf8"), SOURCE);
  return Array.from(labels, (label, i) => `${label}:${pixels.subarray(i * 64, (i + 1) * 64).join(",")}`);
}

describe("digits preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("splits all 1,797 images 70/30 with every digit's count preserved, ids 1..1797 sorted", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(train.columns).toEqual(["id", "label", ...PIXEL_COLUMNS]);
    expect(test.columns).toEqual(["id", ...PIXEL_COLUMNS]);
    expect(answers.columns).toEqual(["id", ...CLASSES]);
    expect(train.rowCount + test.rowCount).toBe(1797);
    expect(test.rowCount).toBe(539);
    expect(numbers(answers, "id")).toEqual(numbers(test, "id"));

    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 1797 }, (_, i) => i + 1));
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }

    const source = sourceKeys().map((k) => Number(k.split(":")[0]));
    const trainLabels = numbers(train, "label");
    CLASSES.forEach((name, label) => {
      const total = source.filter((l) => l === label).length;
      const inTrain = trainLabels.filter((l) => l === label).length;
      const inTest = numbers(answers, name).reduce((s, v) => s + v, 0);
      expect(inTrain + inTest, `digit ${label}`).toBe(total);
      expect(Math.abs(inTest - 0.3 * total), `digit ${label}`).toBeLessThanOrEqual(1);
    });
  });

  it("copies every image's pixels and label from the source unchanged", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    const answers = readCsv(path.join(p.private, "test.csv"));
    const pixelCols = new Map([train, test].map((t) => [t, PIXEL_COLUMNS.map((c) => numbers(t, c))]));
    const key = (t: Table, i: number, label: number) => `${label}:${pixelCols.get(t)!.map((col) => col[i]).join(",")}`;
    const trainLabels = numbers(train, "label");
    const answerCols = CLASSES.map((c) => numbers(answers, c));
    const testLabel = (i: number) => answerCols.findIndex((col) => col[i] === 1);
    const prepared = [
      ...trainLabels.map((label, i) => key(train, i, label)),
      ...Array.from({ length: test.rowCount }, (_, i) => key(test, i, testLabel(i))),
    ];
    const source = sourceKeys();
    expect(prepared.sort()).toEqual([...source].sort());
    // Spot check: the source's first image (a 0) in full.
    expect(source[0]).toBe("0:0,0,5,13,9,1,0,0,0,0,13,15,10,15,5,0,0,3,15,2,0,11,8,0,0,4,12,0,0,8,8,0,0,5,8,0,0,9,8,0,0,4,11,0,1,12,7,0,0,2,14,5,10,12,0,0,0,0,6,13,10,0,0,0");
    expect(prepared).toContain(source[0]);
  });

  it("writes one-hot answers with exactly one digit per test image", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    const cols = CLASSES.map((c) => numbers(answers, c));
    for (let i = 0; i < answers.rowCount; i++) {
      expect(cols.every((col) => col[i] === 0 || col[i] === 1)).toBe(true);
      expect(cols.reduce((s, col) => s + col[i], 0)).toBe(1);
    }
  });

  it("rejects malformed source lines with errors naming the line", () => {
    const row = (pixels: string[], label: string) => [...pixels, label].join(",");
    const ok = Array(64).fill("0");
    expect(parseDigits(`${row(ok, "3")}\n${row(ok, "9")}\n`, "d.csv").labels).toEqual(Uint8Array.from([3, 9]));
    expect(() => parseDigits(`${row(ok, "3")}\n${row(ok.slice(1), "3")}\n`, "d.csv")).toThrow(
      /d\.csv: line 2 has 64 fields, expected 65/,
    );
    const bright = [...ok];
    bright[5] = "17";
    expect(() => parseDigits(row(bright, "1"), "d.csv")).toThrow(/d\.csv: line 1: pixel 5 is "17", not an integer in 0\.\.16/);
    expect(() => parseDigits(row(ok, "10"), "d.csv")).toThrow(/line 1: label is "10", not a digit 0\.\.9/);
    expect(() => parseDigits(row(ok, "x"), "d.csv")).toThrow(/line 1: label is "x"/);
    expect(() => parseDigits(`${row(ok, "1")}\n\n${row(ok, "2")}\n`, "d.csv")).toThrow(/line 2 has 1 fields/);
  });
});

describe("digits grader", () => {
  it("grades the sample submission as valid, with the log loss of uniform probabilities (ln 10)", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(2.30259);
    expect(report.is_lower_better).toBe(true);
    expect(report.any_medal).toBe(false);
    const board = loadLeaderboard(p.leaderboard);
    expect(board.length).toBeGreaterThanOrEqual(500);
    expect(board[0]).toBeLessThan(report.score!);
  });

  it("scores the answers themselves 0, and ignores row order and extra columns", () => {
    const answers = fs.readFileSync(path.join(p.private, "test.csv"), "utf8").trimEnd().split("\n");
    const perfect = grade("perfect", answers.join("\n") + "\n");
    expect(perfect.invalid_reason).toBeNull();
    expect(perfect.score).toBe(0);
    expect(perfect.gold_medal).toBe(true);
    const [header, ...rows] = answers;
    const shuffled = [`${header},note`, ...rows.reverse().map((r) => `${r},x`)];
    const report = grade("reordered-extra", shuffled.join("\n") + "\n");
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0);
  });

  it("rejects a row whose probabilities do not sum to one", () => {
    const text = editSample((h, rows) => [h, ...rows.map((r, i) => (i === 0 ? [r[0], ...Array(10).fill("0.25")] : r))]);
    const report = grade("unnormalised", text);
    expect(report.valid_submission).toBe(false);
    expect(report.invalid_reason).toMatch(/must sum to one; data row 1 sums to 2\.5\./);
  });

  it("rejects a submission missing a class column", () => {
    const drop = (r: string[]) => r.filter((_, j) => j !== 8);
    const text = editSample((h, rows) => [drop(h), ...rows.map(drop)]);
    const report = grade("no-seven", text);
    expect(report.valid_submission).toBe(false);
    expect(report.invalid_reason).toMatch(/missing 1 required column\(s\): "7"/);
  });

  it("rejects a probability outside [0, 1] even when the row sums to one", () => {
    const row = ["-0.1", "0.2", ...Array(8).fill("0.1125")];
    const text = editSample((h, rows) => [h, ...rows.map((r, i) => (i === 2 ? [r[0], ...row] : r))]);
    const report = grade("negative", text);
    expect(report.valid_submission).toBe(false);
    expect(report.invalid_reason).toMatch(/"0" must hold probabilities between 0 and 1, but data row 3 holds -0\.1/);
  });

  it("rejects text probabilities, missing ids and unknown ids", () => {
    const text = grade("text", editSample((h, rows) => [h, ...rows.map((r, i) => (i === 1 ? [r[0], "seven", ...r.slice(2)] : r))]));
    expect(text.invalid_reason).toMatch(/Column "0" must hold numbers, but data row 2 holds "seven"/);
    const short = grade("short", editSample((h, rows) => [h, ...rows.slice(1)]));
    expect(short.invalid_reason).toMatch(/538 rows but the answers have 539/);
    const foreign = grade("foreign", editSample((h, rows) => [h, ...rows.map((r, i) => (i === 0 ? ["100000", ...r.slice(1)] : r))]));
    expect(foreign.invalid_reason).toMatch(/"id" values do not match the answers/);
  });

  it("refuses an answers table with other classes, blaming the answers rather than the submission", () => {
    const col = (values: number[]): Column => ({ kind: "int", values: Float64Array.from(values) });
    const answers = makeTable([["id", col([1])], ["a", col([1])], ["b", col([0])]]);
    const sub = makeTable([["id", col([1])], ...CLASSES.map((c): [string, Column] => [c, { kind: "float", values: Float64Array.of(0.1) }])]);
    expect(() => competition.grade(sub, answers)).toThrow(/answers file should have the columns id, 0, 1, .*but it has id, a, b/);
  });
});
