import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/caravan-insurance/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import type { Table } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const { dataDir, paths: p, grade } = preparedOffline(competition);

const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);
const strings = (t: Table, name: string) => t.data.get(name)!.values as (string | null)[];
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("caravan-insurance preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("keeps the challenge's split: its 5,822 training customers, then its 4,000 evaluation customers", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect([train.rowCount, test.rowCount]).toEqual([5822, 4000]);
    expect(train.columns).toHaveLength(87);
    expect(train.columns.slice(0, 3)).toEqual(["id", "STYPE", "MAANTHUI"]);
    expect(train.columns.at(-1)).toBe("CARAVAN");
    expect(test.columns).toEqual(train.columns.slice(0, -1));
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 9822 }, (_, i) => i + 1));
    for (const t of [train, test]) expect(numbers(t, "id")).toEqual([...numbers(t, "id")].sort((a, b) => a - b));
    // Debian's R, kernlab's ticdata: rows 1-5822 and 5823-9822 give sum(MAANTHUI) 6466 and 4424,
    // sum(APERSAUT) of the latter 2200, 83 "Affluent young families" among them, and 2319
    // training customers with PPERSAUT "f 1000-4999".
    expect([sum(numbers(train, "MAANTHUI")), sum(numbers(test, "MAANTHUI")), sum(numbers(test, "APERSAUT"))]).toEqual([6466, 4424, 2200]);
    expect(strings(test, "STYPE").filter((v) => v === "Affluent young families")).toHaveLength(83);
    expect(strings(train, "PPERSAUT").filter((v) => v === "f 1000-4999")).toHaveLength(2319);
    expect(sum(numbers(train, "CARAVAN"))).toBe(348);
  });

  it("writes 0/1 answers for exactly the test ids", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", "CARAVAN"]);
    expect(numbers(answers, "id")).toEqual(numbers(readCsv(path.join(p.public, "test.csv")), "id"));
    const owners = numbers(answers, "CARAVAN");
    expect(owners.every((v) => v === 0 || v === 1)).toBe(true);
    expect(sum(owners)).toBe(238);
  });
});

describe("caravan-insurance grader", () => {
  it("scores the constant sample submission exactly 0.2 (ties share the 800 places), valid, no medal", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0.2);
    expect(report.is_lower_better).toBe(false);
    expect(report.any_medal).toBe(false);
  });

  it("scores rankings by car policies as pandas and numpy count them, ties included, in any row order", () => {
    const test = readCsv(path.join(p.public, "test.csv"));
    const ids = numbers(test, "id");
    const cars = numbers(test, "APERSAUT");
    // pandas/numpy on the answers: 152 customers above the 800th score (1 car policy) and 1,868 tied
    // with it; (owners above + 648 * tied owners / 1868) / 238 = 0.2973476328432872.
    const byCount = ids.map((id, i) => `${id},${cars[i]}`);
    expect(grade("cars", ["id,CARAVAN", ...byCount].join("\n") + "\n").score).toBe(0.29735);
    expect(grade("cars-reversed", ["id,CARAVAN", ...[...byCount].reverse()].join("\n") + "\n").score).toBe(0.29735);
    // The lower end of the contribution band to car policies ("f 1000-4999" -> 1000): 0.33136497842380197.
    const band = strings(test, "PPERSAUT").map((v) => Number(/^f (\d+)/.exec(v!)![1]));
    const byBand = ids.map((id, i) => `${id},${band[i]}`);
    expect(grade("band", ["id,CARAVAN", ...byBand].join("\n") + "\n").score).toBe(0.33136);
  });

  it("rejects missing rows, empty and non-numeric scores, naming the row", () => {
    const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
    const short = grade("short", [header, ...rows.slice(1)].join("\n") + "\n");
    expect(short.valid_submission).toBe(false);
    expect(short.invalid_reason).toBe("Submission has 3999 rows but the answers have 4000; submit one row per test id.");
    const empty = grade("empty", [header, "4,", ...rows.slice(1)].join("\n") + "\n");
    expect(empty.valid_submission).toBe(false);
    expect(empty.invalid_reason).toBe('Column "CARAVAN" must hold a finite score on every row, but data row 1 (id 4) is empty (NaN).');
    const text = grade("text", [header, "4,yes", ...rows.slice(1)].join("\n") + "\n");
    expect(text.valid_submission).toBe(false);
    expect(text.invalid_reason).toMatch(/CARAVAN/);
  });
});
