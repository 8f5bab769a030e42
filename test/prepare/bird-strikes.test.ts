import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/bird-strikes/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import type { Table } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const { dataDir, paths: p, grade } = preparedOffline(competition);

const strings = (t: Table, name: string) => t.data.get(name)!.values as (string | null)[];
const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);

describe("bird-strikes preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("splits the 9,985 strikes with a known damage class by time, whole days only", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect([train.rowCount, test.rowCount]).toEqual([6989, 2996]);
    const features = ["airport", "aircraft", "operator", "state", "flight_date", "time_of_day", "phase", "speed_knots", "wildlife_size", "species"];
    expect(train.columns).toEqual(["id", ...features, "damaged"]);
    expect(test.columns).toEqual(["id", ...features]);
    const lastTrain = strings(train, "flight_date").reduce((a, b) => (a! > b! ? a : b));
    const firstTest = strings(test, "flight_date").reduce((a, b) => (a! < b! ? a : b));
    expect([lastTrain, firstTest]).toEqual(["1999-10-15", "1999-10-16"]);
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 9985 }, (_, i) => i + 1));
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }
    expect(numbers(train, "damaged").filter((v) => v === 1)).toHaveLength(736);
    // Costs are recorded only for damaging strikes, so they must not be published.
    for (const t of [train, test]) expect(t.columns.some((c) => /cost/i.test(c))).toBe(false);
  });

  it("writes 0/1 answers for exactly the test ids", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", "damaged"]);
    expect(numbers(answers, "id")).toEqual(numbers(readCsv(path.join(p.public, "test.csv")), "id"));
    const damaged = numbers(answers, "damaged");
    expect(damaged.every((v) => v === 0 || v === 1)).toBe(true);
    expect(damaged.filter((v) => v === 1)).toHaveLength(310);
  });
});

describe("bird-strikes grader", () => {
  it("grades the constant sample submission 0.5, valid, no medal", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0.5);
    expect(report.is_lower_better).toBe(false);
    expect(report.any_medal).toBe(false);
  });

  it("scores a ranking by speed and size as scikit-learn's roc_auc_score does", () => {
    const test = readCsv(path.join(p.public, "test.csv"));
    const speed = numbers(test, "speed_knots");
    const size = strings(test, "wildlife_size");
    const rows = numbers(test, "id").map((id, i) => `${id},${(Number.isNaN(speed[i]) ? 0 : speed[i]) / 800 + (size[i] === "Large" ? 0.5 : 0)}`);
    // sklearn.metrics.roc_auc_score on the same scores: 0.6373645905891961.
    const report = grade("speed-size", ["id,damaged", ...rows].join("\n") + "\n");
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0.63736);
    const answers = fs.readFileSync(path.join(p.private, "test.csv"), "utf8");
    expect(grade("perfect", answers).score).toBe(1);
  });

  it("rejects a submission missing test ids or holding a non-number", () => {
    const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
    const short = grade("short", [header, ...rows.slice(1)].join("\n") + "\n");
    expect(short.valid_submission).toBe(false);
    expect(short.invalid_reason).toBe("Submission has 2995 rows but the answers have 2996; submit one row per test id.");
    const text = grade("text", [header, `${rows[0].split(",")[0]},high`, ...rows.slice(1)].join("\n") + "\n");
    expect(text.valid_submission).toBe(false);
  });
});
