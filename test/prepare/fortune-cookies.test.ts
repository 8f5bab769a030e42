import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/fortune-cookies/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { CLASSES } from "../../src/competitions/fortune-cookies/grade.js";
import { cleanFortune, collectFortunes, resolveOverstrike } from "../../src/competitions/fortune-cookies/prepare.js";
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

// pandas (scripts/golden/offline_fortune_cookies.py): train.collection.value_counts() and the
// answers' column sums, in CLASSES order.
const TRAIN_COUNTS = [324, 717, 738, 140, 138, 136, 104, 142, 234, 181, 104, 405, 451, 867, 344, 484, 433, 101, 157, 293, 438, 381];
const TEST_COUNTS = [139, 307, 317, 60, 59, 58, 45, 61, 100, 77, 45, 174, 193, 371, 148, 207, 185, 44, 68, 126, 188, 164];

/** A submission text: the header, then one row per test id with the probabilities `row` gives. */
function submission(row: (text: string) => number[]): string {
  const test = readCsv(path.join(p.public, "test.csv"));
  const texts = strings(test, "text");
  const lines = numbers(test, "id").map((id, i) => [id, ...row(texts[i]!)].join(","));
  return ["id," + CLASSES.join(","), ...lines].join("\n") + "\n";
}

describe("fortune-cookies preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("splits 10,448 fortunes of 22 collections 70/30 within each collection", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect([train.rowCount, test.rowCount]).toEqual([7312, 3136]);
    expect(train.columns).toEqual(["id", "text", "collection"]);
    expect(test.columns).toEqual(["id", "text"]);
    const labels = strings(train, "collection");
    expect(CLASSES.map((c) => labels.filter((l) => l === c).length)).toEqual(TRAIN_COUNTS);
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 10448 }, (_, i) => i + 1));
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }
    const texts = [...strings(train, "text"), ...strings(test, "text")] as string[];
    expect(new Set(texts).size).toBe(10448);
    // One line each, no control characters, no attribution line left at the end.
    expect(texts.filter((t) => /[\u0000-\u001f]|^\s|\s$|\s\s/.test(t))).toEqual([]);
    expect(texts.filter((t) => /stardate [\d.]+$/.test(t))).toEqual([]);
  });

  it("writes one-hot answers for exactly the test ids and a uniform sample", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", ...CLASSES]);
    expect(numbers(answers, "id")).toEqual(numbers(readCsv(path.join(p.public, "test.csv")), "id"));
    const columns = CLASSES.map((c) => numbers(answers, c));
    expect(columns.map((col) => col.reduce((a, b) => a + b, 0))).toEqual(TEST_COUNTS);
    const rowSums = Array.from({ length: answers.rowCount }, (_, i) => columns.reduce((s, col) => s + col[i], 0));
    expect(new Set(rowSums)).toEqual(new Set([1]));
    const sample = readCsv(path.join(p.public, "sample_submission.csv"));
    expect(sample.columns).toEqual(["id", ...CLASSES]);
    expect(new Set(CLASSES.flatMap((c) => numbers(sample, c)))).toEqual(new Set([1 / 22]));
  });

  it("resolves overstriking, drops control characters and the attribution, and collapses white space", () => {
    expect(resolveOverstrike("_\bI and *___\b\b\band* b\bbold")).toBe("I and *and* bold");
    expect(cleanFortune(["A saying,\twith a tab.\u0007", "  second line", "\t\t-- Some Author, \"A Work\",", "\t\t   stardate 1.0", ""])).toBe(
      "A saying, with a tab. second line",
    );
    expect(cleanFortune(["Short one.", "-- Author"])).toBe("Short one.");
    // A dash line that is not at the end, or is followed by unindented text, is part of the saying.
    expect(cleanFortune(["first", "-- a reply", "last"])).toBe("first -- a reply last");
    expect(cleanFortune(["Quoted, he said -- Someone"])).toBe("Quoted, he said -- Someone");
    expect(cleanFortune(["\t\t-- only an attribution"])).toBe("");
  });

  it("names the folder or file of bad source data", () => {
    const dir = tempDir();
    expect(() => collectFortunes(path.join(dir, "none"))).toThrow(`${path.join(dir, "none")}: not a directory; expected the fortune package's data folder`);
    expect(() => collectFortunes(dir)).toThrow(`${path.join(dir, "art")}: no such collection file in the fortune package's folder`);
    for (const c of CLASSES) fs.writeFileSync(path.join(dir, c), Array.from({ length: 150 }, (_, i) => `${c} saying ${i}`).join("\n%\n") + "\n");
    expect(collectFortunes(dir)).toHaveLength(150 * 22);
    fs.writeFileSync(path.join(dir, "law"), "one\n%\ntwo\n");
    expect(() => collectFortunes(dir)).toThrow(`${path.join(dir, "law")}: found 2 fortunes, expected at least 100`);
    fs.writeFileSync(path.join(dir, "law"), Buffer.from([0x6f, 0x6b, 0x0a, 0xff, 0x0a]));
    expect(() => collectFortunes(dir)).toThrow(`${path.join(dir, "law")}: line 2 is not valid UTF-8`);
  });
});

describe("fortune-cookies grader", () => {
  it("grades the uniform sample submission ln 22, valid, no medal", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(3.09104);
    expect(report.is_lower_better).toBe(true);
    expect(report.any_medal).toBe(false);
  });

  it("scores the training prior and a keyword rule as scikit-learn's log_loss does", () => {
    const total = TRAIN_COUNTS.reduce((a, b) => a + b, 0);
    // sklearn.metrics.log_loss(truth, tile(train shares)) = 2.891003177913535.
    const prior = grade("prior", submission(() => TRAIN_COUNTS.map((n) => n / total)));
    expect(prior.invalid_reason).toBeNull();
    expect(prior.score).toBe(2.891);
    const keywords: Record<string, string> = { computers: "computer", linux: "linux", law: "law", love: "love", food: "eat" };
    const rule = (text: string) => {
      const w = CLASSES.map((c) => 1 + (c in keywords && text.toLowerCase().includes(keywords[c]) ? 9 : 0));
      const sum = w.reduce((a, b) => a + b, 0);
      return w.map((x) => x / sum);
    };
    // Weight 1 per collection plus 9 where the lower-cased text holds its keyword, rows normalised;
    // sklearn.metrics.log_loss = 3.0346973226128164.
    const table = readCsv(path.join(p.private, "test.csv"));
    expect(competition.grade(parseCsv(submission(rule)), table)).toBeCloseTo(3.0346973226128164, 10);
    expect(grade("keywords", submission(rule)).score).toBe(3.0347);
  });

  it("rejects a missing column, missing or extra ids, NaN, out-of-range and non-numeric values, and unnormalised rows", () => {
    const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
    const first = rows[0].split(",");
    const withFirst = (cells: string[]) => [header, cells.join(","), ...rows.slice(1)].join("\n") + "\n";
    const zeros = Array(20).fill("0") as string[];
    const dropColumn = [header.replace(",zippy", ""), ...rows.map((r) => r.split(",").slice(0, 22).join(","))].join("\n") + "\n";
    expect(grade("no-column", dropColumn).invalid_reason).toBe(
      'Submission is missing 1 required column(s): "zippy"; found "id", "art", "computers", "cookie", "education", "food", "humorists", "kids", "law", "linux", "literature", "love", … (22 in all).',
    );
    expect(grade("short", [header, ...rows.slice(1)].join("\n") + "\n").invalid_reason).toBe(
      'Submission has 3135 rows but the answers have 3136; there must be exactly one row per "id".',
    );
    expect(grade("extra", [header, ...rows, ["99999", ...first.slice(1)].join(",")].join("\n") + "\n").invalid_reason).toBe(
      'Submission has 3137 rows but the answers have 3136; there must be exactly one row per "id".',
    );
    expect(grade("swapped", withFirst(["99999", ...first.slice(1)])).invalid_reason).toBe(
      `Submission "id" values do not match the answers (1 of 3136 answer ids have no matching row): 1 answer id(s) are missing (e.g. ${first[0]}); ` +
        "1 id(s) are not in the answers (e.g. 99999). Submit exactly one row for every id in the sample submission.",
    );
    expect(grade("nan", withFirst([first[0], "", "1", ...zeros])).invalid_reason).toBe(
      'Column "art" must hold probabilities between 0 and 1, but data row 1 holds nan.',
    );
    expect(grade("nan-word", withFirst([first[0], "NaN", "1", ...zeros])).invalid_reason).toBe(
      'Column "art" must hold probabilities between 0 and 1, but data row 1 holds nan.',
    );
    expect(grade("range", withFirst([first[0], "1.25", "-0.25", ...zeros])).invalid_reason).toBe(
      'Column "art" must hold probabilities between 0 and 1, but data row 1 holds 1.25.',
    );
    expect(grade("text", withFirst([first[0], "high", ...first.slice(2)])).invalid_reason).toBe('Column "art" must hold numbers, but data row 1 holds "high".');
    expect(grade("sum", withFirst([first[0], "0.5", ...first.slice(2)])).invalid_reason).toBe(
      "Each row's probabilities must sum to one; data row 1 sums to 1.4545454545454537.",
    );
    // A valid row that is not uniform: probability one on one collection, zero elsewhere.
    expect(grade("one-hot", withFirst([first[0], "1", "0", ...zeros])).invalid_reason).toBeNull();
  });
});
