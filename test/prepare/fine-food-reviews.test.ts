import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/fine-food-reviews/index.js";
import { prepare } from "../../src/competitions/fine-food-reviews/prepare.js";
import { loadGrader } from "../../src/competitions/registry.js";
import type { Table } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { parseCsv, readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { tempDir } from "../helpers/data-dir.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const { dataDir, paths: p, grade } = preparedOffline(competition);

const strings = (t: Table, name: string) => t.data.get(name)!.values as (string | null)[];
const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);
const count = (s: string, word: string) => s.split(word).length - 1;

describe("fine-food-reviews preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("pools the package's 5,000 reviews, keeps each text once and splits them 70/30 within each class", () => {
    // Oracle: pandas.concat of the two exported data frames, .drop_duplicates("review") -> 4,973 rows, 3,239 "great".
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect([train.rowCount, test.rowCount]).toEqual([3481, 1492]);
    expect(train.columns).toEqual(["id", "product", "review", "great"]);
    expect(test.columns).toEqual(["id", "product", "review"]);
    expect(numbers(train, "great").filter((v) => v === 1)).toHaveLength(2267);
    const texts = [...strings(train, "review"), ...strings(test, "review")];
    expect(new Set(texts).size).toBe(4973);
    const products = [...strings(train, "product"), ...strings(test, "product")];
    expect(new Set(products).size).toBe(4973);
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 4973 }, (_, i) => i + 1));
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }
  });

  it("writes 0/1 answers for exactly the test ids", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", "great"]);
    expect(numbers(answers, "id")).toEqual(numbers(readCsv(path.join(p.public, "test.csv")), "id"));
    const great = numbers(answers, "great");
    expect(great.every((v) => v === 0 || v === 1)).toBe(true);
    expect(great.filter((v) => v === 1)).toHaveLength(972);
  });

  it("names the file and row of a score outside the two classes", () => {
    const dir = tempDir();
    const good = path.join(dir, "good.csv");
    const bad = path.join(dir, "bad.csv");
    fs.writeFileSync(good, '"product","review","score"\n"B001","Lovely tea, will buy again.","great"\n');
    fs.writeFileSync(bad, '"product","review","score"\n"B002","Fine.","other"\n"B003","Stale and bland.","4"\n');
    const ctx = { sources: { train: good, test: bad }, public: dir, private: dir };
    expect(() => prepare(ctx)).toThrow(`${bad}: data row 2 has score "4", expected "great" or "other"`);
  });
});

describe("fine-food-reviews grader", () => {
  it("grades the constant sample submission 0.5, valid, no medal", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0.5);
    expect(report.is_lower_better).toBe(false);
    expect(report.any_medal).toBe(false);
  });

  it("scores a ranking by praise words as scikit-learn's roc_auc_score does", () => {
    const test = readCsv(path.join(p.public, "test.csv"));
    const reviews = strings(test, "review");
    const rows = numbers(test, "id").map((id, i) => {
      const text = reviews[i]!.toLowerCase();
      return `${id},${(count(text, "love") + count(text, "great")) / 100}`;
    });
    const text = ["id,great", ...rows].join("\n") + "\n";
    // sklearn.metrics.roc_auc_score(answers.great, test.review.str.lower().str.count("love") + ...str.count("great")): 0.6240542893320672.
    expect(competition.grade(parseCsv(text), readCsv(path.join(p.private, "test.csv")))).toBeCloseTo(0.6240542893320672, 12);
    const report = grade("praise", text);
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0.62405);
    const answers = fs.readFileSync(path.join(p.private, "test.csv"), "utf8");
    expect(grade("perfect", answers).score).toBe(1);
  });

  it("rejects a submission missing test ids, holding text or an empty score", () => {
    const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
    const short = grade("short", [header, ...rows.slice(1)].join("\n") + "\n");
    expect(short.valid_submission).toBe(false);
    expect(short.invalid_reason).toBe("Submission has 1491 rows but the answers have 1492; submit one row per test id.");
    const text = grade("text", [header, `${rows[0].split(",")[0]},high`, ...rows.slice(1)].join("\n") + "\n");
    expect(text.valid_submission).toBe(false);
    const empty = grade("empty", [header, `${rows[0].split(",")[0]},`, ...rows.slice(1)].join("\n") + "\n");
    expect(empty.valid_submission).toBe(false);
    expect(empty.invalid_reason).toBe('Column "great" must hold a probability on every row, but data row 1 (id 14) is empty (NaN).');
    const wrongColumn = grade("wrong-column", ["id,score", ...rows].join("\n") + "\n");
    expect(wrongColumn.valid_submission).toBe(false);
  });
});
