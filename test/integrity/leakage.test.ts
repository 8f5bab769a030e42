import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Competition } from "../../src/core/competition.js";
import { UserError } from "../../src/core/errors.js";
import { competitionPaths } from "../../src/core/paths.js";
import { getCompetition } from "../../src/competitions/registry.js";
import { averageRanks, pearson, separation } from "../../src/integrity/leakage/columns.js";
import { auditCompetition, auditMany, formatLeakageReport, type LeakageFinding, type LeakageReport } from "../../src/integrity/leakage/index.js";
import { prepareCompetition } from "../../src/prepare/prepare.js";
import { Mulberry32 } from "../../src/rng/mulberry32.js";
import { tempDir } from "../helpers/data-dir.js";

/** A competition object for a crafted data folder; only the file names matter to the audit. */
function crafted(id: string, answers = "answers.csv"): Competition {
  return { id, name: id, type: "simple", metric: "accuracy", answers, sampleSubmission: "sample_submission.csv", grader: async () => ({ grade: () => 0 }) };
}

function write(file: string, header: string[], rows: (string | number)[][]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, [header.join(","), ...rows.map((r) => r.join(","))].join("\n") + "\n");
}

const CLASSES = ["A", "B", "C"];
const CODES: Record<string, number> = { A: 7, B: 3, C: 9 };

/**
 * A small classification competition: 100 train rows (ids 1..100), 60 test rows (ids
 * 1001..1060), features f1 (unique floats), f2 (0..49), cat (x/y/z). With `leaky` it plants:
 * hint = the label under another name; code = a one-to-one recoding (A→7, B→3, C→9); group =
 * two values per class, with rows 6 and 41 given another class's value; test rows 1..3 copying
 * the features of train ids 10, 20, 30; train rows for ids 1001..1004 with their true labels; a
 * byte copy of the answers in public/extra/; and notes.txt of equal size on both sides.
 */
function craftClassification(dataDir: string, id: string, leaky: boolean): void {
  const p = competitionPaths(dataDir, id);
  const rng = new Mulberry32(7);
  const feature = () => [(rng.next() * 1000).toFixed(3), rng.below(50), "xyz"[rng.below(3)]] as const;
  const train: (string | number)[][] = [];
  for (let i = 1; i <= 100; i++) train.push([i, ...feature(), CLASSES[rng.below(3)]]);
  const test = Array.from({ length: 60 }, (_, k) => ({ id: 1001 + k, label: CLASSES[rng.below(3)], f: [...feature()] as (string | number)[] }));
  write(path.join(p.private, "answers.csv"), ["id", "label"], test.map((t) => [t.id, t.label]));
  write(path.join(p.public, "sample_submission.csv"), ["id", "label"], test.map((t) => [t.id, "A"]));
  if (!leaky) {
    write(path.join(p.public, "train.csv"), ["id", "f1", "f2", "cat", "label"], train);
    write(path.join(p.public, "test.csv"), ["id", "f1", "f2", "cat"], test.map((t) => [t.id, ...t.f]));
    return;
  }
  [10, 20, 30].forEach((trainId, k) => (test[k].f = train[trainId - 1].slice(1, 4)));
  for (const t of test.slice(0, 4)) train.push([t.id, ...feature(), t.label]);
  write(path.join(p.public, "train.csv"), ["id", "f1", "f2", "cat", "label"], train);
  const group = (k: number, label: string) => {
    const c = CLASSES.indexOf(label);
    return k === 5 || k === 40 ? `g${2 * ((c + 1) % 3)}` : `g${2 * c + (k % 2)}`;
  };
  write(
    path.join(p.public, "test.csv"),
    ["id", "f1", "f2", "cat", "hint", "code", "group"],
    test.map((t, k) => [t.id, ...t.f, t.label, CODES[t.label], group(k, t.label)]),
  );
  fs.mkdirSync(path.join(p.public, "extra"));
  fs.copyFileSync(path.join(p.private, "answers.csv"), path.join(p.public, "extra", "labels_backup.csv"));
  fs.writeFileSync(path.join(p.private, "notes.txt"), "secret-1");
  fs.writeFileSync(path.join(p.public, "notes.txt"), "public-1");
}

/**
 * A regression competition of 50 rows whose test file holds y_affine = 2y + 1, y_exp = exp(y/100)
 * (monotone, not linear), y_noisy = y plus small noise, and x, unrelated noise.
 */
function craftRegression(dataDir: string, id: string): void {
  const p = competitionPaths(dataDir, id);
  const rng = new Mulberry32(11);
  const rows = Array.from({ length: 50 }, (_, k) => ({ id: k + 1, y: Math.round(rng.next() * 100000) / 1000 }));
  write(path.join(p.private, "answers.csv"), ["id", "y"], rows.map((r) => [r.id, r.y]));
  write(path.join(p.public, "sample_submission.csv"), ["id", "y"], rows.map((r) => [r.id, 0]));
  write(path.join(p.public, "train.csv"), ["id", "x", "y"], [[100, 1.5, 3]]);
  write(
    path.join(p.public, "test.csv"),
    ["id", "x", "y_affine", "y_exp", "y_noisy"],
    rows.map((r) => [r.id, (rng.next() * 10).toFixed(4), 2 * r.y + 1, Math.exp(r.y / 100).toFixed(12), (r.y + (rng.next() - 0.5) * 8).toFixed(4)]),
  );
}

const byKind = (r: LeakageReport, kind: LeakageFinding["kind"]) => r.findings.filter((f) => f.kind === kind);

describe("leakage audit of a crafted competition with planted leaks", () => {
  const dataDir = tempDir("mlebench-leak-");
  let report: LeakageReport;
  beforeAll(() => {
    craftClassification(dataDir, "leaky", true);
    report = auditCompetition(crafted("leaky"), dataDir);
  });

  it("finds every planted leak and nothing else", () => {
    expect(report.leaks).toBe(true);
    expect(report.findings.map((f) => [f.kind, f.severity, f.file, f.column ?? null])).toEqual([
      ["file-copy", "leak", "extra/labels_backup.csv", null],
      ["column-copy", "leak", "test.csv", "hint"],
      ["one-to-one", "leak", "test.csv", "code"],
      ["determines", "leak", "test.csv", "group"],
      ["column-copy", "leak", "extra/labels_backup.csv", "label"],
      ["id-overlap", "leak", "train.csv", "id"],
      ["same-name-file", "warning", "notes.txt", null],
      ["duplicate-rows", "warning", "train.csv", null],
    ]);
  });

  it("reports the copied answers file with its md5", () => {
    const [copy] = byKind(report, "file-copy");
    const answers = path.join(competitionPaths(dataDir, "leaky").private, "answers.csv");
    const md5 = createHash("md5").update(fs.readFileSync(answers)).digest("hex");
    expect(copy.message).toBe(`private/answers.csv (${fs.statSync(answers).size} bytes) is byte-identical to public/extra/labels_backup.csv`);
    expect(copy.examples).toEqual([`public/extra/labels_backup.csv md5 ${md5}`]);
    expect(copy.count).toBe(1);
  });

  it("reports the renamed target column on all 60 rows", () => {
    const hint = byKind(report, "column-copy").find((f) => f.column === "hint")!;
    expect(hint.target).toBe("label");
    expect(hint.share).toBe(1);
    expect(hint.count).toBe(60);
    expect(hint.message).toBe("column hint of test.csv equals target label on 60 of 60 answer rows");
    expect(hint.examples).toHaveLength(5);
    expect(hint.examples[0]).toMatch(/^id 1001: hint=([ABC]), label=\1$/);
  });

  it("reports the recoding with its mapping", () => {
    const [code] = byKind(report, "one-to-one");
    expect(code.share).toBe(1);
    expect(code.message).toBe("column code of test.csv maps one-to-one onto target label (3 values) on all 60 answer rows");
    expect([...code.examples].sort()).toEqual(["3 -> B", "7 -> A", "9 -> C"]);
  });

  it("reports the near-deterministic column: 58 of 60 rows, the two moved rows wrong", () => {
    const [group] = byKind(report, "determines");
    expect(group.count).toBe(58);
    expect(group.share).toBeCloseTo(58 / 60, 12);
    expect(group.examples).toHaveLength(5);
    for (const e of group.examples) expect(e).toMatch(/^g[0-5] -> [ABC] \(\d+ of \d+ rows\)$/);
  });

  it("reports the four answer ids in train.csv, with their true labels", () => {
    const [overlap] = byKind(report, "id-overlap");
    expect(overlap.count).toBe(4);
    expect(overlap.share).toBeCloseTo(4 / 60, 12);
    expect(overlap.message).toBe("4 of 60 answer ids (4 rows) appear in train.csv; its label equals the answers on 4 of them");
    expect(overlap.examples[0]).toMatch(/^id 1001 at row 101, label=([ABC]) \(answer \1\)$/);
  });

  it("reports the three duplicated feature rows with the ids on both sides", () => {
    const [dup] = byKind(report, "duplicate-rows");
    expect(dup.count).toBe(3);
    expect(dup.share).toBeCloseTo(3 / 60, 12);
    expect(dup.message).toBe("3 of 60 rows of test.csv repeat a row of train.csv (3 train rows) on the 3 shared feature columns f1, f2, cat");
    expect([...dup.examples].sort()).toEqual(["test.csv id 1001 = train.csv id 10", "test.csv id 1002 = train.csv id 20", "test.csv id 1003 = train.csv id 30"]);
  });

  it("says what it looked at", () => {
    expect(report.checked).toMatchObject({
      publicFiles: 5,
      privateFiles: 2,
      answers: "answers.csv",
      answerRows: 60,
      idColumn: "id",
      targets: [{ name: "label", kind: "classes", distinct: 3 }],
      trainFiles: ["train.csv"],
      testFiles: ["test.csv"],
      skipped: [],
    });
    expect(report.checked.csvFiles).toEqual([
      { file: "test.csv", rows: 60, matchedRows: 60, columnsCompared: 6 },
      { file: "extra/labels_backup.csv", rows: 60, matchedRows: 60, columnsCompared: 1 },
      { file: "sample_submission.csv", rows: 60, matchedRows: 60, columnsCompared: 1 },
      { file: "train.csv", rows: 104, matchedRows: 4, columnsCompared: 0 },
    ]);
    // The report is written as JSON by the CLI: it must survive a round trip unchanged.
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it("renders as text: a summary, then each finding with its examples", () => {
    const lines = formatLeakageReport(report).split("\n");
    expect(lines[0]).toBe("leaky: LEAKS (6 leak, 2 warning, 0 info); 5 public and 2 private files, 4 public CSVs read, id id, targets label");
    expect(lines[1]).toMatch(/^  \[leak\] file-copy: private\/answers\.csv \(\d+ bytes\) is byte-identical to public\/extra\/labels_backup\.csv$/);
    expect(lines[2]).toMatch(/^      public\/extra\/labels_backup\.csv md5 [0-9a-f]{32}$/);
    expect(lines.filter((l) => l.startsWith("  [")).length).toBe(8);
  });

  it("skips CSVs over the size limit, saying so", () => {
    const small = auditCompetition(crafted("leaky"), dataDir, { maxCsvBytes: 1000 });
    const size = (f: string) => fs.statSync(path.join(competitionPaths(dataDir, "leaky").public, f)).size;
    expect(small.checked.skipped).toEqual([
      { file: "test.csv", reason: `${size("test.csv")} bytes, more than the limit of 1000` },
      { file: "train.csv", reason: `${size("train.csv")} bytes, more than the limit of 1000` },
    ]);
    // Whole-file checks still run, and the small copy of the answers is still read.
    expect(small.findings.map((f) => [f.kind, f.file])).toEqual([
      ["file-copy", "extra/labels_backup.csv"],
      ["column-copy", "extra/labels_backup.csv"],
      ["same-name-file", "notes.txt"],
    ]);
  });
});

describe("leakage audit of a crafted regression competition", () => {
  const dataDir = tempDir("mlebench-leak-reg-");
  let report: LeakageReport;
  beforeAll(() => {
    craftRegression(dataDir, "leaky-regression");
    report = auditCompetition(crafted("leaky-regression"), dataDir);
  });

  it("flags exact monotone transforms as leaks and a near-perfect feature as a warning", () => {
    const found = byKind(report, "single-feature").map((f) => [f.column, f.severity, f.statistic!.name]);
    expect(found).toEqual([
      ["y_affine", "leak", "pearson"],
      ["y_exp", "leak", "spearman"],
      ["y_noisy", "warning", "pearson"],
    ]);
    expect(report.findings).toHaveLength(3);
    expect(report.checked.targets).toEqual([{ name: "y", kind: "numeric", distinct: 50 }]);
  });

  it("computes the correlations numpy computes", () => {
    const stat = (c: string) => report.findings.find((f) => f.column === c)!.statistic!.value;
    expect(stat("y_affine")).toBeCloseTo(1, 12);
    expect(stat("y_exp")).toBe(1);
    // numpy.corrcoef(test.y_noisy, answers.y) on the files this generator writes: 0.9959961358965851
    // (its Spearman, 0.99097, is lower, so Pearson is the one reported).
    expect(stat("y_noisy")).toBeCloseTo(0.9959961358965851, 12);
  });
});

describe("leakage audit guards against chance", () => {
  const dataDir = tempDir("mlebench-leak-chance-");

  it("calls colliding ids on an imbalanced target a warning: 97% agreement is what guessing 0 gets", () => {
    const p = competitionPaths(dataDir, "collide");
    const flag = (id: number) => ([10, 50, 90].includes(id) ? 1 : 0);
    write(path.join(p.private, "answers.csv"), ["id", "flag"], Array.from({ length: 100 }, (_, id) => [id, flag(id)]));
    write(path.join(p.public, "train.csv"), ["id", "v", "flag"], Array.from({ length: 200 }, (_, id) => [id, id * 3, 0]));
    write(path.join(p.public, "test.csv"), ["id", "v"], Array.from({ length: 100 }, (_, id) => [id, id * 3 + 1]));
    const report = auditCompetition(crafted("collide"), dataDir);
    expect(report.leaks).toBe(false);
    expect(report.findings.map((f) => [f.kind, f.severity, f.share])).toEqual([["id-overlap", "warning", 1]]);
    expect(report.findings[0].message).toBe("100 of 100 answer ids (100 rows) appear in train.csv; its flag equals the answers on 97 of them");
  });

  it("calls a column equal to a text target on 38 of 40 rows a warning, not a copy", () => {
    const p = competitionPaths(dataDir, "nearcopy");
    write(path.join(p.private, "answers.csv"), ["id", "after"], Array.from({ length: 40 }, (_, k) => [k + 1, `w${k}`]));
    write(path.join(p.public, "test.csv"), ["id", "before"], Array.from({ length: 40 }, (_, k) => [k + 1, k === 6 || k === 22 ? `other${k}` : `w${k}`]));
    const report = auditCompetition(crafted("nearcopy"), dataDir);
    expect(report.checked.targets).toEqual([{ name: "after", kind: "text", distinct: 40 }]);
    expect(report.findings.map((f) => [f.kind, f.severity, f.column, f.count, f.share])).toEqual([["column-copy", "warning", "before", 38, 0.95]]);
  });
});

describe("leakage audit of a clean crafted competition", () => {
  it("finds nothing", () => {
    const dataDir = tempDir("mlebench-leak-clean-");
    craftClassification(dataDir, "clean", false);
    const report = auditCompetition(crafted("clean"), dataDir);
    expect(report.leaks).toBe(false);
    expect(report.findings).toEqual([]);
    expect(report.checked.csvFiles.map((f) => [f.file, f.matchedRows, f.columnsCompared])).toEqual([
      ["test.csv", 60, 3],
      ["sample_submission.csv", 60, 1],
      ["train.csv", 0, 0],
    ]);
  });
});

describe("leakage audit inputs", () => {
  const dataDir = tempDir("mlebench-leak-inputs-");
  beforeAll(() => craftClassification(dataDir, "clean", false));

  it("refuses a competition that is not prepared, naming the missing folder", () => {
    expect(() => auditCompetition(crafted("absent"), dataDir)).toThrow(UserError);
    expect(() => auditCompetition(crafted("absent"), dataDir)).toThrow(/absent is not prepared in .*absent\/prepared\/public is missing/);
  });

  it("refuses an id or target column the answers lack, listing the columns", () => {
    expect(() => auditCompetition(crafted("clean"), dataDir, { idColumn: "key" })).toThrow(/answers\.csv has no id column "key"; its columns are id, label/);
    expect(() => auditCompetition(crafted("clean"), dataDir, { targets: ["y"] })).toThrow(/has no target column "y"/);
    expect(() => auditCompetition(crafted("clean"), dataDir, { trainFiles: ["nope.csv"] })).toThrow(/train file nope\.csv is not a CSV under/);
  });

  it("compares only whole files when the answers are not a CSV", () => {
    const p = competitionPaths(dataDir, "jsonl");
    fs.mkdirSync(p.public, { recursive: true });
    fs.mkdirSync(p.private, { recursive: true });
    fs.writeFileSync(path.join(p.private, "answers.jsonl"), '{"id": 1}\n');
    fs.writeFileSync(path.join(p.public, "copy.jsonl"), '{"id": 1}\n');
    const report = auditCompetition(crafted("jsonl", "answers.jsonl"), dataDir);
    expect(report.findings.map((f) => [f.kind, f.severity])).toEqual([
      ["file-copy", "leak"],
      ["not-checked", "info"],
    ]);
    expect(report.findings[1].message).toBe("the answers (answers.jsonl) are not a CSV file: only whole files were compared");
  });

  it("audits many competitions by id, listing the unprepared ones as failures", async () => {
    await prepareCompetition(getCompetition("titanic"), dataDir);
    const result = auditMany(["titanic", "spaceship-titanic"], dataDir);
    expect(result.reports.map((r) => r.competition)).toEqual(["titanic"]);
    expect(result.failures).toEqual([{ competition: "spaceship-titanic", error: expect.stringMatching(/^spaceship-titanic is not prepared in /) }]);
    expect(() => auditMany(["no-such-competition"], dataDir)).toThrow(/Unknown competition "no-such-competition"/);
  });
});

describe("leakage audit of real offline competitions", () => {
  const dataDir = tempDir("mlebench-leak-real-");

  it("titanic: nothing leaks and no rows repeat", async () => {
    const c = getCompetition("titanic");
    await prepareCompetition(c, dataDir);
    const report = auditCompetition(c, dataDir);
    // Checked with pandas on the prepared files: every feature row includes the passenger's name,
    // so no test row repeats a train row (without Name, 11 would: families travelling together);
    // the public and private test.csv share a name but not a size; Sex's majority map is right on
    // 311 of 393 answer rows (79%), far below the 95% a leak needs; the best numeric column, Fare,
    // has an AUC of 0.652.
    expect(report.findings).toEqual([]);
    expect(report.checked).toMatchObject({
      answerRows: 393,
      idColumn: "PassengerId",
      targets: [{ name: "Survived", kind: "classes", distinct: 2 }],
      trainFiles: ["train.csv"],
      testFiles: ["test.csv"],
    });
    expect(report.checked.csvFiles).toEqual([
      { file: "test.csv", rows: 393, matchedRows: 393, columnsCompared: 10 },
      { file: "sample_submission.csv", rows: 393, matchedRows: 393, columnsCompared: 1 },
      { file: "train.csv", rows: 916, matchedRows: 0, columnsCompared: 0 },
    ]);
  });

  it("seattle-weather: two genuine near-perfect features, reported as warnings, not leaks", async () => {
    const c = getCompetition("seattle-weather");
    await prepareCompetition(c, dataDir);
    const report = auditCompetition(c, dataDir);
    // The one-hot weather labels follow the measurements: rain is nearly "precipitation > 0" (186
    // rainy days of 438) and the one snowy test day is among the coldest. Neither AUC is 1, and
    // one positive row proves nothing, so both stay warnings. The AUCs are sklearn's
    // roc_auc_score on the same columns.
    expect(report.leaks).toBe(false);
    expect(report.findings.map((f) => [f.kind, f.severity, f.column, f.target])).toEqual([
      ["single-feature", "warning", "precipitation", "rain"],
      ["single-feature", "warning", "temp_min", "snow"],
    ]);
    expect(report.findings[0].statistic).toEqual({ name: "auc", value: expect.closeTo(0.9981972179552825, 12) });
    expect(report.findings[1].statistic).toEqual({ name: "auc", value: expect.closeTo(0.9977116704805492, 12) });
  });
});

describe("statistics", () => {
  it("ranks ties by their average rank, as scipy.stats.rankdata does", () => {
    expect(Array.from(averageRanks([3, 1, 3, 2, 3]))).toEqual([4, 1, 4, 2, 4]);
  });

  it("computes Pearson's r and AUC on small hand-worked cases", () => {
    expect(pearson([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 15);
    expect(pearson([1, 2, 3], [3, 1, 2])).toBeCloseTo(-0.5, 15);
    expect(pearson([1, 1, 1], [1, 2, 3])).toBe(0);
    // Positives at scores 2 and 4, negatives at 1 and 3: 3 of the 4 pairs are ordered right.
    expect(separation([1, 2, 3, 4], [0, 1, 0, 1])).toBe(0.75);
    expect(separation([4, 3, 2, 1], [0, 1, 0, 1])).toBe(0.75);
  });
});
