import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/austen-novels/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { CLASSES } from "../../src/competitions/austen-novels/classes.js";
import { novelPassages, prepare } from "../../src/competitions/austen-novels/prepare.js";
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

/**
 * The test chapters of each novel (positions from 1), from an independent cut of the exported
 * novels in pandas (chapter headings matched by regex, six-line passages per chapter), joined
 * with the prepared test.csv on the passage text.
 */
const TEST_CHAPTERS: Record<string, number[]> = {
  emma: [1, 3, 8, 9, 13, 15, 16, 20, 22, 27, 32, 34, 41, 43, 49, 51, 53],
  mansfieldpark: [5, 6, 7, 9, 13, 15, 18, 20, 23, 25, 32, 33, 37, 43],
  northangerabbey: [1, 3, 5, 8, 10, 15, 17, 23, 24],
  persuasion: [2, 5, 8, 9, 18, 20, 21],
  prideprejudice: [1, 2, 3, 4, 6, 7, 13, 14, 16, 18, 25, 28, 32, 33, 41, 44, 51, 53],
  sensesensibility: [4, 5, 9, 11, 15, 16, 25, 26, 29, 31, 35, 41, 43, 47, 48],
};
/** Chapters per novel in the same pandas cut. */
const CHAPTERS: Record<string, number> = { emma: 55, mansfieldpark: 48, northangerabbey: 31, persuasion: 24, prideprejudice: 61, sensesensibility: 50 };

describe("austen-novels preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("cuts the six novels into 10,215 six-line passages and splits them by chapter", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect([train.rowCount, test.rowCount]).toEqual([7089, 3126]);
    expect(train.columns).toEqual(["id", "text", "chapter", "novel"]);
    expect(test.columns).toEqual(["id", "text"]);
    // pandas: passages per novel in the independent cut, train side (value_counts of train.novel).
    const novels = strings(train, "novel");
    const perNovel = Object.fromEntries(CLASSES.map((c) => [c, novels.filter((n) => n === c).length]));
    expect(perNovel).toEqual({ emma: 1518, mansfieldpark: 1508, northangerabbey: 789, persuasion: 816, prideprejudice: 1235, sensesensibility: 1223 });
    // Every chapter is on exactly one side: the training chapters are the complement of the test ones.
    const chapters = numbers(train, "chapter");
    for (const c of CLASSES) {
      const seen = new Set(chapters.filter((_, i) => novels[i] === c));
      const expected = Array.from({ length: CHAPTERS[c] }, (_, k) => k + 1).filter((k) => !TEST_CHAPTERS[c].includes(k));
      expect([...seen].sort((a, b) => a - b), c).toEqual(expected);
    }
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 10215 }, (_, i) => i + 1));
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }
    const texts = [...strings(train, "text"), ...strings(test, "text")];
    expect(new Set(texts).size).toBe(10215);
    expect(texts.some((t) => /CHAPTER|Chapter \d|THE END|FINIS|By Jane Austen/.test(t!))).toBe(false);
  });

  it("writes one-hot answers for exactly the test ids", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", ...CLASSES]);
    expect(numbers(answers, "id")).toEqual(numbers(readCsv(path.join(p.public, "test.csv")), "id"));
    const totals = CLASSES.map((c) => numbers(answers, c).reduce((a, b) => a + b, 0));
    expect(totals).toEqual([731, 698, 296, 370, 519, 512]);
    for (let i = 0; i < answers.rowCount; i++) expect(CLASSES.reduce((s, c) => s + numbers(answers, c)[i], 0)).toBe(1);
  });

  it("cuts a novel chapter by chapter, skipping front matter, headings, short tails and what follows the end", () => {
    const lines = ["TITLE", "", "Preface line", "CHAPTER I", "", ...Array.from({ length: 13 }, (_, i) => `a${i}`), "VOLUME II", "Chapter 2",
      ...Array.from({ length: 6 }, (_, i) => `b${i}`), ...Array.from({ length: 8 }, (_, k) => [`CHAPTER ${k + 3}`, "c", "c", "c", "c", "c", "c"]).flat(),
      "THE END", "A NOTE", "x", "x", "x", "x", "x", "x"];
    const passages = novelPassages(lines, 2, "novel.csv");
    expect(passages.slice(0, 3)).toEqual([
      { novel: 2, chapter: 0, text: "a0 a1 a2 a3 a4 a5" },
      { novel: 2, chapter: 0, text: "a6 a7 a8 a9 a10 a11" },
      { novel: 2, chapter: 1, text: "b0 b1 b2 b3 b4 b5" },
    ]);
    expect(passages).toHaveLength(11);
    expect(() => novelPassages(["CHAPTER I", "text"], 0, "short.csv")).toThrow('short.csv: found 1 chapter headings ("CHAPTER I", "Chapter 1"), expected at least 10');
  });

  it("names the file of a source that is not one column of lines", () => {
    const dir = tempDir();
    const bad = path.join(dir, "emma.csv");
    fs.writeFileSync(bad, '"a","b"\n"x","y"\n');
    const sources = Object.fromEntries(CLASSES.map((c) => [c, bad]));
    expect(() => prepare({ sources, public: dir, private: dir })).toThrow(`${bad}: expected one column of text lines, found 2 (a, b)`);
  });
});

describe("austen-novels grader", () => {
  it("grades the uniform sample submission ln 6, valid, no medal", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(1.79176);
    expect(report.is_lower_better).toBe(true);
    expect(report.any_medal).toBe(false);
  });

  it("scores a name-count submission as the log-loss formula does", () => {
    const test = readCsv(path.join(p.public, "test.csv"));
    const texts = strings(test, "text");
    const heroine = ["Emma", "Fanny", "Catherine", "Anne", "Elizabeth", "Elinor"];
    const rows = numbers(test, "id").map((id, i) => {
      const hits = heroine.map((h) => (texts[i]!.includes(h) ? 1 : 0) as number);
      const w = hits.map((h) => 1 + 4 * h);
      const total = w.reduce((a, b) => a + b, 0);
      return [id, ...w.map((x) => x / total)].join(",");
    });
    const text = ["id," + CLASSES.join(","), ...rows].join("\n") + "\n";
    // numpy: p = (1 + 4 * test.text.str.contains(heroine)) per class, rows normalised; board.log_loss(answers, p) = 1.4310790081762161.
    expect(competition.grade(parseCsv(text), readCsv(path.join(p.private, "test.csv")))).toBeCloseTo(1.4310790081762161, 10);
    const report = grade("heroines", text);
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(1.43108);
  });

  it("rejects rows that do not sum to one, a missing novel column and missing ids", () => {
    const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
    const id = rows[0].split(",")[0];
    const unnormalised = grade("sum", [header, `${id},0.5,0.5,0.5,0,0,0`, ...rows.slice(1)].join("\n") + "\n");
    expect(unnormalised.invalid_reason).toBe("Each row's probabilities must sum to one; data row 1 sums to 1.5.");
    const noColumn = grade("no-column", [header.replace(",sensesensibility", ""), ...rows.map((r) => r.split(",").slice(0, 6).join(","))].join("\n") + "\n");
    expect(noColumn.valid_submission).toBe(false);
    expect(noColumn.invalid_reason).toContain('"sensesensibility"');
    const short = grade("short", [header, ...rows.slice(1)].join("\n") + "\n");
    expect(short.valid_submission).toBe(false);
  });
});
