import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/letter-recognition/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import type { Table } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { parseCsv, readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const { dataDir, paths: p, grade } = preparedOffline(competition);

const strings = (t: Table, name: string) => t.data.get(name)!.values as (string | null)[];
const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);
const FEATURES = ["x_box", "y_box", "width", "height", "onpix", "x_bar", "y_bar", "x2_bar", "y2_bar", "xy_bar", "x2y_bar", "xy2_bar", "x_edge", "x_edge_y", "y_edge", "y_edge_x"];
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");

/** Records per letter, A to Z, after dropping exact copies: pandas `read_csv(export).drop_duplicates().lettr.value_counts().sort_index()`. */
const DISTINCT = [756, 730, 710, 760, 725, 752, 743, 704, 524, 715, 718, 673, 732, 688, 718, 782, 760, 737, 729, 748, 768, 706, 726, 678, 746, 640];
/** Test records per letter, A to Z: pandas `read_csv("private/test.csv").char.value_counts().sort_index()`. */
const TEST = [227, 219, 213, 228, 218, 226, 223, 211, 157, 215, 215, 202, 220, 206, 215, 235, 228, 221, 219, 224, 230, 212, 218, 203, 224, 192];

function countByLetter(values: (string | null)[]): number[] {
  return LETTERS.map((l) => values.filter((v) => v === l).length);
}

describe("letter-recognition preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("keeps each of the 18,668 distinct records once and holds out 30% of each letter", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect([train.rowCount, test.rowCount]).toEqual([13067, 5601]);
    expect(train.columns).toEqual(["id", ...FEATURES, "char"]);
    expect(test.columns).toEqual(["id", ...FEATURES]);
    const trainCounts = countByLetter(strings(train, "char"));
    expect(trainCounts.map((n, k) => n + TEST[k])).toEqual(DISTINCT);
    // Math.round(0.3 n), written as numpy.floor(0.3 * n + 0.5) in the oracle.
    expect(TEST).toEqual(DISTINCT.map((n) => Math.round(n * 0.3)));
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 18668 }, (_, i) => i + 1));
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }
    // No record repeats, within or across the files: pandas merge of test and train features is empty.
    const key = (t: Table, i: number) => FEATURES.map((f) => (t.data.get(f)!.values as Float64Array)[i]).join(",");
    const seen = new Set<string>();
    for (const t of [train, test]) for (let i = 0; i < t.rowCount; i++) seen.add(key(t, i));
    expect(seen.size).toBe(18668);
    for (const t of [train, test]) for (const f of FEATURES) expect(numbers(t, f).every((v) => Number.isInteger(v) && v >= 0 && v <= 15)).toBe(true);
  });

  it("writes the letters of exactly the test ids as answers", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", "char"]);
    expect(numbers(answers, "id")).toEqual(numbers(readCsv(path.join(p.public, "test.csv")), "id"));
    expect(countByLetter(strings(answers, "char"))).toEqual(TEST);
  });
});

describe("letter-recognition grader", () => {
  const answersText = () => fs.readFileSync(path.join(p.private, "test.csv"), "utf8");

  it("grades the all-A sample submission by the share of A among test records, valid, no medal", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    // pandas: (answers.char == "A").mean() = 0.04052847705766827.
    expect(report.score).toBe(0.04053);
    expect(report.is_lower_better).toBe(false);
    expect(report.any_medal).toBe(false);
  });

  it("scores a partly wrong submission as scikit-learn's accuracy_score does, in any row order", () => {
    const [header, ...rows] = answersText().trimEnd().split("\n");
    const altered = rows.map((r) => {
      const [id] = r.split(",");
      return Number(id) % 3 === 0 ? `${id},Z` : r;
    });
    // sklearn.metrics.accuracy_score(answers.char, answers.char.where(answers.id % 3 != 0, "Z")) = 0.6838064631315837.
    const text = [header, ...altered.reverse()].join("\n") + "\n";
    expect(competition.grade(parseCsv(text), readCsv(path.join(p.private, "test.csv")))).toBe(0.6838064631315837);
    expect(grade("altered", text).score).toBe(0.68381);
    const perfect = grade("perfect", answersText());
    expect(perfect.score).toBe(1);
    expect(perfect.gold_medal).toBe(true);
  });

  it("rejects missing ids, lower-case letters, class numbers and empty cells", () => {
    const [header, ...rows] = answersText().trimEnd().split("\n");
    const short = grade("short", [header, ...rows.slice(1)].join("\n") + "\n");
    expect(short.invalid_reason).toBe("Submission has 5600 rows but the answers have 5601; submit one row per test id.");
    const lower = grade("lower", [header, ...rows.map((r) => r.toLowerCase())].join("\n") + "\n");
    expect(lower.invalid_reason).toBe('Column "char" must hold one capital letter A-Z on every row, but the row for id 3 holds "m".');
    const coded = grade("coded", [header, ...rows.map((r) => `${r.split(",")[0]},${LETTERS.indexOf(r.split(",")[1])}`)].join("\n") + "\n");
    expect(coded.invalid_reason).toBe('Column "char" must hold one capital letter A-Z on every row, but the row for id 3 holds 12.');
    const empty = grade("empty", [header, `${rows[0].split(",")[0]},`, ...rows.slice(1)].join("\n") + "\n");
    expect(empty.invalid_reason).toBe('Column "char" must hold one capital letter A-Z on every row, but the row for id 3 holds an empty cell.');
    const renamed = grade("renamed", ["id,letter", ...rows].join("\n") + "\n");
    expect(renamed.invalid_reason).toBe('Submission must have a "char" column; found "id", "letter".');
  });
});
