import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/cmudict-g2p/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { PHONEMES, readDictionary } from "../../src/competitions/cmudict-g2p/prepare.js";
import type { Table } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { resolveSource } from "../../src/sources/packages.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const { dataDir, paths: p, grade } = preparedOffline(competition);

const strings = (t: Table, name: string) => t.data.get(name)!.values as string[];
const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);
const read = (dir: string, file: string) => readCsv(path.join(dir, file));

/** One hand-picked sound per letter, the same table the oracle used. */
const SOUND: Record<string, string> = {
  a: "AE", b: "B", c: "K", d: "D", e: "EH", f: "F", g: "G", h: "HH", i: "IH", j: "JH", k: "K", l: "L", m: "M",
  n: "N", o: "AA", p: "P", q: "K", r: "R", s: "S", t: "T", u: "AH", v: "V", w: "W", x: "K S", y: "Y", z: "Z",
};

describe("cmudict-g2p preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("draws 30,000 train and 3,000 test words, disjoint, ids 1..33000 sorted in each file", () => {
    const train = read(p.public, "train.csv");
    const test = read(p.public, "test.csv");
    expect([train.rowCount, test.rowCount]).toEqual([30000, 3000]);
    expect(train.columns).toEqual(["id", "word", "phonemes"]);
    expect(test.columns).toEqual(["id", "word"]);
    const trainWords = new Set(strings(train, "word"));
    expect(trainWords.size).toBe(30000);
    expect(strings(test, "word").filter((w) => trainWords.has(w))).toEqual([]);
    for (const w of [...trainWords, ...strings(test, "word")]) expect(w).toMatch(/^[a-z]+$/);
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 33000 }, (_, i) => i + 1));
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }
    // pandas: train.head(3).values.tolist(), train.phonemes.str.split().str.len().sum().
    expect([0, 1, 2].map((i) => [numbers(train, "id")[i], strings(train, "word")[i], strings(train, "phonemes")[i]])).toEqual([
      [2, "pertschuk", "P ER CH AH K"],
      [3, "poof", "P UW F"],
      [4, "bixel", "B IH K S AH L"],
    ]);
    const tokens = strings(train, "phonemes").flatMap((s) => s.split(" "));
    expect(tokens).toHaveLength(189802);
    expect(new Set(tokens)).toEqual(new Set(PHONEMES));
  });

  it("keeps each word's first listed pronunciation without stress, as the oracle re-read from the dictionary", () => {
    // Python over dict.txt: letters-only heads, "(n)" variants skipped, first kept, digits stripped; 116,506 less "nan" and "null".
    const entries = readDictionary(resolveSource(competition.offline!.sources.dictionary));
    expect(entries).toHaveLength(116504);
    const byWord = new Map(entries.map((e) => [e.word, e.phonemes]));
    expect(byWord.get("aaronson")).toBe("EH R AH N S AH N");
    expect(byWord.get("abdomen")).toBe("AE B D OW M AH N");
    expect(byWord.has("nan") || byWord.has("null")).toBe(false);
    const train = read(p.public, "train.csv");
    strings(train, "word").forEach((w, i) => expect(strings(train, "phonemes")[i]).toBe(byWord.get(w)));
    const test = read(p.public, "test.csv");
    const answers = read(p.private, "test.csv");
    strings(test, "word").forEach((w, i) => expect(strings(answers, "phonemes")[i]).toBe(byWord.get(w)));
  });

  it("writes answers for exactly the test ids, and a sample submission of AH", () => {
    const answers = read(p.private, "test.csv");
    const test = read(p.public, "test.csv");
    const sample = read(p.public, "sample_submission.csv");
    expect(answers.columns).toEqual(["id", "phonemes"]);
    expect(sample.columns).toEqual(["id", "phonemes"]);
    expect(numbers(answers, "id")).toEqual(numbers(test, "id"));
    expect(numbers(sample, "id")).toEqual(numbers(test, "id"));
    expect(new Set(strings(sample, "phonemes"))).toEqual(new Set(["AH"]));
    expect(strings(answers, "phonemes").reduce((n, s) => n + s.split(" ").length, 0)).toBe(18939);
  });
});

describe("cmudict-g2p grader", () => {
  const answersText = () => fs.readFileSync(path.join(p.private, "test.csv"), "utf8");

  it("grades the sample submission as the oracle does, valid, no medal", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    // Python DP over phoneme tokens: per(refs, [["AH"]] * 3000) = 0.9298273404086805.
    expect(report.score).toBe(0.92983);
    expect(report.is_lower_better).toBe(true);
    expect(report.any_medal).toBe(false);
    expect(grade("perfect", answersText()).score).toBe(0);
  });

  it("scores letter-by-letter spelling and truncated answers as the oracle does, in any row order", () => {
    const test = read(p.public, "test.csv");
    const rows = numbers(test, "id").map((id, i) => `${id},${[...strings(test, "word")[i]].map((c) => SOUND[c]).join(" ")}`);
    // Python: per(refs, letter sounds) = 0.5205660277733777.
    expect(grade("letters", ["id,phonemes", ...rows.reverse()].join("\n") + "\n").score).toBe(0.52057);
    const [header, ...lines] = answersText().trimEnd().split("\n");
    // The last phoneme of every answer dropped (a one-phoneme word becomes an empty cell).
    const truncated = lines.map((l) => {
      const [id, phonemes] = l.split(",");
      return `${id},${phonemes.split(" ").slice(0, -1).join(" ")}`;
    });
    // Python: per(refs, [r[:-1] for r in refs]) = 0.1584032947885316 (one deletion per word, 3000 / 18939).
    expect(grade("truncated", [header, ...truncated].join("\n") + "\n").score).toBe(0.1584);
    const spaced = lines.map((l) => l.replace(",", ",  ").replace(/ /g, "  "));
    expect(grade("spaced", [header, ...spaced].join("\n") + "\n").score).toBe(0);
  });

  it("rejects missing ids, a missing column or numbers, and reads empty cells as no phonemes", () => {
    const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
    const short = grade("short", [header, ...rows.slice(1)].join("\n") + "\n");
    expect(short.valid_submission).toBe(false);
    expect(short.invalid_reason).toBe("Submission has 2999 rows but the answers have 3000; submit one row per test id.");
    const ids = rows.map((r) => r.split(",")[0]);
    const renamed = grade("renamed", ["id,pron", ...rows].join("\n") + "\n");
    expect(renamed.invalid_reason).toBe('Submission must have a "phonemes" column; found "id", "pron".');
    const numeric = grade("numeric", [header, ...ids.map((id) => `${id},1`)].join("\n") + "\n");
    expect(numeric.invalid_reason).toBe('Column "phonemes" must hold space-separated phonemes such as "K AE T", but data row 1 holds 1.');
    const empty = grade("empty", [header, ...ids.map((id) => `${id},`)].join("\n") + "\n");
    expect(empty.invalid_reason).toBeNull();
    expect(empty.score).toBe(1);
  });
});
