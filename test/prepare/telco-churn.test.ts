import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/telco-churn/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { FEATURES } from "../../src/competitions/telco-churn/prepare.js";
import { cellAt, type Table } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const { dataDir, paths: p, grade } = preparedOffline(competition);

const strings = (t: Table, name: string) => t.data.get(name)!.values as (string | null)[];
const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);
const featureKeys = (t: Table) =>
  Array.from({ length: t.rowCount }, (_, i) => JSON.stringify(FEATURES.map((name) => cellAt(t.data.get(name)!, i))));

describe("telco-churn preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("splits the 7,043 customers 70/30, stratified by churn, publishing every source column", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect([train.rowCount, test.rowCount]).toEqual([4928, 2115]);
    expect(train.columns).toEqual(["id", ...FEATURES, "churn"]);
    expect(test.columns).toEqual(["id", ...FEATURES]);
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 7043 }, (_, i) => i + 1));
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }
    // pandas: train.churn.value_counts() gives No 3621, Yes 1307; the source has 5174 and 1869.
    expect(strings(train, "churn").filter((v) => v === "Yes")).toHaveLength(1307);
    // total_charges is empty exactly for customers in their first month (pandas: 7 in train, 4 in test).
    for (const [t, gaps] of [[train, 7], [test, 4]] as const) {
      const tenure = numbers(t, "tenure");
      const missing = numbers(t, "total_charges").flatMap((v, i) => (Number.isNaN(v) ? [i] : []));
      expect(missing).toHaveLength(gaps);
      expect(missing.every((i) => tenure[i] === 0)).toBe(true);
    }
  });

  it("keeps customers identical in every column on one side of the split", () => {
    const trainKeys = new Set(featureKeys(readCsv(path.join(p.public, "train.csv"))));
    const testKeys = featureKeys(readCsv(path.join(p.public, "test.csv")));
    expect(testKeys.filter((k) => trainKeys.has(k))).toEqual([]);
    // pandas: len(source.drop_duplicates(features)) == 7003; the other 40 rows repeat one of them.
    expect(trainKeys.size + new Set(testKeys).size).toBe(7003);
  });

  it("writes Yes/No answers for exactly the test ids", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", "churn"]);
    expect(numbers(answers, "id")).toEqual(numbers(readCsv(path.join(p.public, "test.csv")), "id"));
    const churn = strings(answers, "churn");
    expect(churn.every((v) => v === "Yes" || v === "No")).toBe(true);
    expect(churn.filter((v) => v === "Yes")).toHaveLength(562);
  });
});

describe("telco-churn grader", () => {
  it("grades the constant sample submission as scikit-learn's log_loss does, valid, no medal", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    // sklearn.metrics.log_loss(answers == "Yes", 0.265 everywhere) = 0.5789576205983109.
    expect(report.score).toBe(0.57896);
    expect(report.is_lower_better).toBe(true);
    expect(report.any_medal).toBe(false);
  });

  it("scores churn rates by contract, and a confident miss clipped at eps, as scikit-learn does", () => {
    const test = readCsv(path.join(p.public, "test.csv"));
    const rate: Record<string, number> = { "Month-to-month": 0.43, "One year": 0.11, "Two year": 0.03 };
    const contract = strings(test, "contract");
    const ids = numbers(test, "id");
    const rows = ids.map((id, i) => `${id},${rate[contract[i]!]}`);
    // sklearn.metrics.log_loss(answers, that probability, labels=["No", "Yes"]) = 0.478681647580103.
    const report = grade("contract", ["id,churn", ...[...rows].reverse()].join("\n") + "\n");
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0.47868);
    // Customer 3 stayed; a probability of 1 costs -log(eps) on that row: 0.4954577868098731.
    expect(ids[0]).toBe(3);
    const confident = ["id,churn", "3,1", ...rows.slice(1)];
    expect(grade("confident", confident.join("\n") + "\n").score).toBe(0.49546);
  });

  it("rejects missing rows, probabilities outside [0, 1] and text", () => {
    const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
    const short = grade("short", [header, ...rows.slice(1)].join("\n") + "\n");
    expect(short.valid_submission).toBe(false);
    expect(short.invalid_reason).toMatch(/^Submission/);
    const outside = grade("outside", [header, "3,1.5", ...rows.slice(1)].join("\n") + "\n");
    expect(outside.valid_submission).toBe(false);
    expect(outside.invalid_reason).toBe('Column "churn" must hold probabilities between 0 and 1, but data row 1 holds 1.5.');
    const text = grade("text", [header, "3,Yes", ...rows.slice(1)].join("\n") + "\n");
    expect(text.valid_submission).toBe(false);
  });
});
