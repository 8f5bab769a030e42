import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/ames-housing/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { FEATURES } from "../../src/competitions/ames-housing/prepare.js";
import type { Table } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const { dataDir, paths: p, grade } = preparedOffline(competition);

const strings = (t: Table, name: string) => t.data.get(name)!.values as (string | null)[];
const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);
const count = <T>(values: T[]) => {
  const out = new Map<T, number>();
  for (const v of values) out.set(v, (out.get(v) ?? 0) + 1);
  return Object.fromEntries([...out].sort(([a], [b]) => Number(a) - Number(b)));
};

describe("ames-housing preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("splits the 2,930 sales at random, 70/30, publishing every source column", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect([train.rowCount, test.rowCount]).toEqual([2051, 879]);
    expect(FEATURES).toHaveLength(73);
    expect(train.columns).toEqual(["id", ...FEATURES, "Sale_Price"]);
    expect(test.columns).toEqual(["id", ...FEATURES]);
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 2930 }, (_, i) => i + 1));
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }
    // A random split covers every year of sales on both sides (pandas value_counts of Year_Sold).
    expect(count(numbers(train, "Year_Sold"))).toEqual({ 2006: 433, 2007: 492, 2008: 447, 2009: 439, 2010: 240 });
    expect(count(numbers(test, "Year_Sold"))).toEqual({ 2006: 192, 2007: 202, 2008: 175, 2009: 209, 2010: 101 });
    // pandas: train.Sale_Price.median() == 161500.0, (train.Sale_Price > 300000).sum() == 174.
    const prices = numbers(train, "Sale_Price").sort((a, b) => a - b);
    expect(prices[1025]).toBe(161500);
    expect(prices.filter((v) => v > 300000)).toHaveLength(174);
  });

  it("renames the source's None levels and trims its padded sale type, so no column has a missing value", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    expect(count(strings(train, "Mas_Vnr_Type"))).toEqual({ BrkCmn: 20, BrkFace: 627, CBlock: 1, No_Veneer: 1231, Stone: 172 });
    expect(strings(train, "Misc_Feature").filter((v) => v === "No_Feature")).toHaveLength(1977);
    expect(strings(train, "Sale_Type").filter((v) => v === "WD")).toHaveLength(1778);
    for (const name of train.columns) {
      const col = train.data.get(name)!;
      if (col.kind === "string") expect(col.values.every((v) => v !== null && v === v.trim()), name).toBe(true);
      else expect(numbers(train, name).some(Number.isNaN), name).toBe(false);
    }
  });

  it("writes integer prices for exactly the test ids", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", "Sale_Price"]);
    expect(answers.data.get("Sale_Price")!.kind).toBe("int");
    expect(numbers(answers, "id")).toEqual(numbers(readCsv(path.join(p.public, "test.csv")), "id"));
    // pandas: answers.Sale_Price.sum() == 155493856.
    expect(numbers(answers, "Sale_Price").reduce((a, b) => a + b, 0)).toBe(155493856);
  });
});

describe("ames-housing grader", () => {
  it("grades the median sample submission as scikit-learn does, valid, no medal", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    // sqrt(sklearn.metrics.mean_squared_log_error(answers, 161500 everywhere)) = 0.3985207598772756.
    expect(report.score).toBe(0.39852);
    expect(report.is_lower_better).toBe(true);
    expect(report.any_medal).toBe(false);
  });

  it("scores a price from the living area as scikit-learn's root mean squared log error does, rows in any order", () => {
    const test = readCsv(path.join(p.public, "test.csv"));
    const area = numbers(test, "Gr_Liv_Area");
    const rows = numbers(test, "id").map((id, i) => `${id},${100 * area[i] + 20000}`).reverse();
    // sqrt(sklearn.metrics.mean_squared_log_error(answers, 100 * Gr_Liv_Area + 20000)) = 0.27107999780308234.
    const report = grade("area", ["id,Sale_Price", ...rows].join("\n") + "\n");
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0.27108);
    expect(grade("perfect", fs.readFileSync(path.join(p.private, "test.csv"), "utf8")).score).toBe(0);
  });

  it("rejects missing rows, text and negative prices with the row that holds them", () => {
    const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
    const short = grade("short", [header, ...rows.slice(1)].join("\n") + "\n");
    expect(short.valid_submission).toBe(false);
    expect(short.invalid_reason).toBe("Submission has 878 rows but the answers have 879; submit one row per test id.");
    const text = grade("text", [header, "3,cheap", ...rows.slice(1)].join("\n") + "\n");
    expect(text.valid_submission).toBe(false);
    const negative = grade("negative", [header, rows[0], "5,-10", ...rows.slice(2)].join("\n") + "\n");
    expect(negative.valid_submission).toBe(false);
    expect(negative.invalid_reason).toBe(
      'Column "Sale_Price" must hold prices of 0 or more (the score compares their logarithms), but data row 2 (id 5) holds -10.',
    );
    const nan = grade("nan", [header, rows[0], "5,", ...rows.slice(2)].join("\n") + "\n");
    expect(nan.valid_submission).toBe(false);
  });
});
