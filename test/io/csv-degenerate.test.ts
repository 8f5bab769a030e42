import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CsvParseError } from "../../src/core/errors.js";
import type { Column, Table } from "../../src/core/table.js";
import { loadAnswers } from "../../src/grading/grade.js";
import { NO_CSV_LIMITS, csvReadInternals, parseCsv, readCsv, readCsvHeader, type CsvReadOptions } from "../../src/io/csv-read.js";
import { CLI, REPO, mlebench } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { titanicDataDir } from "../helpers/runs.js";

/**
 * Inputs whose shape, not their size, can make a CSV reader slow or memory-hungry: each is either
 * parsed or refused with a message that names the limit. The big ones are sized so that a reader
 * without these guards needs minutes or gigabytes for them, so the test timeout is what catches a
 * regression, never a timed assertion.
 */

const MiB = 1024 * 1024;
const FILE = "submission.csv";
const work = tempDir("mlebench-csv-degenerate-");

function refusal(input: string | Uint8Array, options: CsvReadOptions = {}): string {
  try {
    parseCsv(input, { file: FILE, ...options });
  } catch (e) {
    expect(e).toBeInstanceOf(CsvParseError);
    return (e as Error).message;
  }
  throw new Error("expected the input to be refused");
}

function write(name: string, data: string | Uint8Array): string {
  const p = path.join(work, name);
  fs.writeFileSync(p, data);
  return p;
}

function strings(t: Table, name: string): (string | null)[] {
  const c = t.data.get(name) as Column;
  expect(c.kind).toBe("string");
  return c.values as (string | null)[];
}

const names = (n: number, prefix = "c") => Array.from({ length: n }, (_, j) => `${prefix}${j}`);

describe("degenerate CSV shapes", { timeout: 60_000 }, () => {
  it("refuses one 15 MB line of commas by its column count", () => {
    const commas = ",".repeat(15 * MiB);
    expect(refusal(commas)).toBe(`${FILE}: too large to grade: 15728641 columns in the header (the limit is 100000)`);
    // The same through a file, through the header reader, and for a line twice as long (more
    // names than a JavaScript Map can hold).
    const f = write("commas.csv", commas);
    expect(() => readCsv(f, { file: FILE })).toThrow(`${FILE}: too large to grade: 15728641 columns in the header (the limit is 100000)`);
    expect(() => readCsvHeader(f, { file: FILE })).toThrow("15728641 columns in the header (the limit is 100000)");
    expect(refusal(",".repeat(30 * MiB))).toBe(`${FILE}: too large to grade: 31457281 columns in the header (the limit is 100000)`);
  });

  it("refuses a header of duplicate names by its width, and mangles 100,000 of them like pandas", () => {
    expect(refusal("a,".repeat(7.5 * MiB) + "a\n1\n")).toBe(
      `${FILE}: too large to grade: 7864321 columns in the header (the limit is 100000)`,
    );
    const row = Array(100_000).fill("7").join(",") + "\n";
    const t = parseCsv(Array(100_000).fill("a").join(",") + "\n" + row.repeat(3));
    expect(t.columns.length).toBe(100_000);
    expect(t.columns.slice(0, 3)).toEqual(["a", "a.1", "a.2"]);
    expect(t.columns[99_999]).toBe("a.99999");
    expect(t.rowCount).toBe(3);
    // Names that collide with the mangled ones: pandas skips suffixes already taken.
    const mixed = parseCsv([...Array(50_000).fill("a"), ...names(50_000, "a.")].join(",") + "\n");
    expect(mixed.columns.slice(0, 3)).toEqual(["a", "a.50000", "a.50001"]);
    expect(new Set(mixed.columns).size).toBe(100_000);
    // Empty names become "Unnamed: i".
    const unnamed = parseCsv(",".repeat(99_999) + "\n" + row);
    expect(unnamed.columns[0]).toBe("Unnamed: 0");
    expect(unnamed.columns[99_999]).toBe("Unnamed: 99999");
  });

  it("reads 15 MB of quote characters as one quoted header name, or refuses an odd count as unclosed", () => {
    const even = '"'.repeat(15 * MiB);
    const t = parseCsv(even);
    expect(t.columns).toEqual(['"'.repeat((15 * MiB - 2) / 2)]);
    expect(t.rowCount).toBe(0);
    expect(refusal(even + '"')).toBe(
      `${FILE}: EOF inside string starting at row 0 (a quoted field opened on line 1 is never closed)`,
    );
  });

  it("reads a single 15 MB quoted field, with line breaks, commas or doubled quotes inside", () => {
    const body = "y,\n".repeat(5 * MiB);
    const t = parseCsv(`id,text\n1,"${body}"\n2,z\n`);
    expect(t.rowCount).toBe(2);
    expect(strings(t, "text")[0]).toBe(body);
    expect(strings(t, "text")[1]).toBe("z");
    const quoted = parseCsv(`id,text\n1,"${'""'.repeat(7.5 * MiB)}"\n`);
    expect(strings(quoted, "text")).toEqual(['"'.repeat(7.5 * MiB)]);
    const only = parseCsv(`"${"x".repeat(15 * MiB)}"`);
    expect(only.columns).toEqual(["x".repeat(15 * MiB)]);
  });

  it("reads 7 million empty lines, or 15 MB of carriage returns, as no columns", () => {
    const none = `No columns to parse from file ${FILE}: it is empty or holds only blank lines`;
    expect(refusal("\n".repeat(7_000_000))).toBe(none);
    expect(refusal("\r".repeat(15 * MiB))).toBe(none);
    expect(refusal("\r\n".repeat(7_000_000))).toBe(none);
    expect(refusal(" \t".repeat(7 * MiB))).toBe(none);
    const t = parseCsv("id,x\n" + "\n".repeat(7_000_000) + "1,2\n" + "\r".repeat(MiB));
    expect(t.columns).toEqual(["id", "x"]);
    expect(t.rowCount).toBe(1);
  });

  it("refuses a file of NUL bytes at the first one", () => {
    expect(refusal(new Uint8Array(15 * MiB))).toBe(`${FILE}: line 1 contains a NUL byte; a CSV file must be UTF-8 text`);
  });

  it("reads a header of 100,000 columns and rows of 100,000 fields; one more column is refused", () => {
    const header = names(100_000).join(",") + "\n";
    const rows = Array.from({ length: 60 }, (_, r) => Array.from({ length: 100_000 }, (_, j) => (r + j) % 10).join(",") + "\n");
    const t = parseCsv(header + rows.join(""));
    expect(t.columns.length).toBe(100_000);
    expect(t.columns[99_999]).toBe("c99999");
    expect(t.rowCount).toBe(60);
    const last = t.data.get("c99999")!;
    expect(last.kind).toBe("int");
    expect(Array.from(last.values as Float64Array)).toEqual(Array.from({ length: 60 }, (_, r) => (r + 99_999) % 10));
    expect(refusal(names(100_001).join(",") + "\n" + rows[0])).toBe(
      `${FILE}: too large to grade: 100001 columns in the header (the limit is 100000)`,
    );
  });

  it("reads 300,000 columns that all turn to text in the second row (the text re-read is linear in the columns)", () => {
    const n = 300_000;
    const input = names(n).join(",") + "\n" + Array(n).fill("1").join(",") + "\n" + Array(n).fill("x").join(",") + "\n";
    const t = parseCsv(input, { maxColumns: n });
    expect(t.columns.length).toBe(n);
    expect(strings(t, "c0")).toEqual(["1", "x"]);
    expect(strings(t, `c${n - 1}`)).toEqual(["1", "x"]);
  });

  it("refuses short rows under a wide header once their padding outgrows the input", () => {
    const header = names(100_000).join(",") + "\n";
    const input = header + "1\n".repeat(7_000_000);
    const size = Buffer.byteLength(input);
    // Each row pads 99,999 missing fields; the default bound is the input's size in bytes.
    const rows = Math.floor(size / 99_999) + 1;
    expect(refusal(input)).toBe(
      `${FILE}: too large to grade: ${rows * 99_999} missing fields added to short rows by line ${rows + 1} (the limit is ${size})`,
    );
    expect(rows + 1).toBe(148);
    // A small file may pad up to 4 Mi fields in all; a larger one as many as it has bytes.
    const small = names(2000).join(",") + "\n" + "1\n".repeat(2200);
    const cut = Math.floor(4 * MiB / 1999) + 1;
    expect(cut).toBe(2099);
    expect(refusal(small)).toBe(
      `${FILE}: too large to grade: ${cut * 1999} missing fields added to short rows by line ${cut + 1} (the limit is 4194304)`,
    );
    const grown = small + `"${"t".repeat(5 * MiB)}"\n`;
    const t = parseCsv(grown);
    expect(t.rowCount).toBe(2201);
    expect(t.data.get("c1999")!.kind).toBe("float");
  });

  it("refuses a first data row far wider than the header, before padding later rows to its width", () => {
    const input = "PassengerId,Survived\n" + ",".repeat(15 * MiB) + "\n" + "1\n".repeat(1_000_000);
    expect(refusal(input)).toBe(`${FILE}: too large to grade: 15728641 fields in line 2 (the limit is 100000)`);
    // Up to the limit, pandas' implicit index applies as before.
    const t = parseCsv("a,b\n" + "x,".repeat(99_998) + "1,2\n");
    expect(t.columns).toEqual(["a", "b"]);
    expect(t.rowCount).toBe(1);
  });

  it("reports a later row of 15 MB of commas with pandas' message and its full width", () => {
    expect(refusal("PassengerId,Survived\n1,0\n" + ",".repeat(15 * MiB) + "\n")).toBe(
      `${FILE}: Expected 2 fields in line 3, saw 15728641`,
    );
  });

  it("does not let a sparse first batch reserve memory for rows the rest of the file lacks", () => {
    // 600 short rows, then 15 MB of blank lines: extrapolated from the first batch alone, the row
    // count would reserve a million rows for each of the 1,000 columns.
    const t = parseCsv(names(1000).join(",") + "\n" + "1\n".repeat(600) + "\n".repeat(15 * MiB));
    expect(t.rowCount).toBe(600);
    expect(t.data.get("c0")!.kind).toBe("int");
    expect(t.data.get("c999")!.kind).toBe("float");
  });
});

describe("the limits as options", () => {
  const withPaths = (input: string, options: CsvReadOptions): string[] => {
    const seen: string[] = [];
    for (const fast of [true, false]) {
      csvReadInternals.fastPath = fast;
      try {
        for (const chunkBytes of [1, 2, 3, 7, 64, 1 << 20]) seen.push(refusal(input, { ...options, chunkBytes }));
      } finally {
        csvReadInternals.fastPath = true;
      }
    }
    return [...new Set(seen)];
  };

  it("maxCells: refused at the row that crosses it, whichever path and chunk size read it", () => {
    const rows = Array.from({ length: 1000 }, (_, r) => `${r},${r * 2},${r % 7}\n`).join("");
    expect(withPaths("a,b,c\n" + rows, { maxCells: 1000 })).toEqual([
      `${FILE}: too large to grade: 1002 cells (334 rows of 3 fields) by line 335 (the limit is 1000)`,
    ]);
    // Blank lines and quoted line breaks count as lines.
    expect(withPaths('a,b,c\n\n"x\ny",1,2\n' + rows, { maxCells: 6 })).toEqual([
      `${FILE}: too large to grade: 9 cells (3 rows of 3 fields) by line 6 (the limit is 6)`,
    ]);
    expect(parseCsv("a,b,c\n" + rows, { maxCells: 3000 }).rowCount).toBe(1000);
  });

  it("maxFieldBytes: counts the field's bytes with its quotes, wherever the chunks end", () => {
    expect(withPaths("a,b\n1,12345678901\n", { maxFieldBytes: 10 })).toEqual([
      `${FILE}: too large to grade: a field in line 2 has more than 10 bytes (the limit is 10)`,
    ]);
    expect(withPaths('a,b\n1,"12""45\n78"\n', { maxFieldBytes: 10 })).toEqual([
      `${FILE}: too large to grade: a field in line 2 has more than 10 bytes (the limit is 10)`,
    ]);
    expect(withPaths('a,b\n1,"ab"cdefghijk\n', { maxFieldBytes: 10 })).toEqual([
      `${FILE}: too large to grade: a field in line 2 has more than 10 bytes (the limit is 10)`,
    ]);
    // An unclosed quote longer than the limit is refused for its length at any chunk size.
    expect(withPaths('a,b\n"x\n",1\n2,"' + "z".repeat(20), { maxFieldBytes: 10 })).toEqual([
      `${FILE}: too large to grade: a field in line 4 has more than 10 bytes (the limit is 10)`,
    ]);
    expect(strings(parseCsv('a,b\n1,"12""4567"\n', { maxFieldBytes: 10 }), "b")).toEqual(['12"4567']);
    expect(parseCsv("a,b\n1,1234567890\n", { maxFieldBytes: 10 }).rowCount).toBe(1);
  });

  it("maxColumns: the header and the first data row; later rows keep pandas' own message", () => {
    expect(withPaths("a,b,c\n1,2,3\n", { maxColumns: 2 })).toEqual([
      `${FILE}: too large to grade: 3 columns in the header (the limit is 2)`,
    ]);
    expect(withPaths('a,b\n1,"x",3\n', { maxColumns: 2 })).toEqual([`${FILE}: too large to grade: 3 fields in line 2 (the limit is 2)`]);
    expect(withPaths('a,b\n1,2\n1,"x",3,4\n', { maxColumns: 2 })).toEqual([`${FILE}: Expected 2 fields in line 3, saw 4`]);
  });

  it("maxPaddedFields: counts the missing fields of short rows", () => {
    expect(withPaths("a,b,c\n1\n2,3\n4\n", { maxPaddedFields: 4 })).toEqual([
      `${FILE}: too large to grade: 5 missing fields added to short rows by line 4 (the limit is 4)`,
    ]);
    expect(parseCsv("a,b,c\n1\n2,3\n4\n", { maxPaddedFields: 5 }).rowCount).toBe(3);
  });

  it("NO_CSV_LIMITS lifts them all, and answers files are read with it", () => {
    const wide = names(100_001).join(",") + "\n" + Array(100_001).fill("0").join(",") + "\n";
    expect(parseCsv(wide, NO_CSV_LIMITS).columns.length).toBe(100_001);
    const answers = loadAnswers(write("answers.csv", wide));
    expect("columns" in answers && answers.columns.length).toBe(100_001);
  });
});

/** Run the CLI with a small JavaScript heap and, where the shell allows it, a bound on all its memory. */
function boundedCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const { MLEBENCH_DATA_DIR: _ignored, ...env } = process.env;
  const node = [process.execPath, "--max-old-space-size=512", CLI, ...args];
  // 4 GiB of address space: far above what Node needs here, far below what an unguarded reader reserves.
  const limited = spawnSync("bash", ["-c", 'ulimit -v 4194304 && exec "$@"', "bash", process.execPath, "-e", "0"]);
  const cmd = limited.status === 0 ? ["bash", "-c", 'ulimit -v 4194304 && exec "$@"', "bash", ...node] : node;
  const r = spawnSync(cmd[0], cmd.slice(1), { cwd: REPO, env, encoding: "utf8", timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("grading degenerate submissions through the CLI", { timeout: 120_000 }, () => {
  let dataDir: string;
  let sample: string;
  let commas: string;
  beforeAll(async () => {
    dataDir = await titanicDataDir();
    sample = path.join(dataDir, "titanic", "prepared", "public", "sample_submission.csv");
    commas = write("commas15.csv", ",".repeat(15 * MiB));
  });

  const gradeSample = (file: string) => {
    const r = boundedCli(["grade-sample", file, "titanic", "--data-dir", dataDir, "--json"]);
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { valid_submission: boolean; invalid_reason: string | null; score: number | null };
  };

  it("grade-sample reports each shape as an invalid submission, within a small heap", () => {
    const shapes: [string, string | Uint8Array, string][] = [
      ["commas15.csv", ",".repeat(15 * MiB), "15728641 columns in the header (the limit is 100000)"],
      [
        "padded.csv",
        names(100_000).join(",") + "\n" + "1\n".repeat(7_000_000),
        "14699853 missing fields added to short rows by line 148 (the limit is 14688890)",
      ],
      [
        "wide-first-row.csv",
        "PassengerId,Survived\n" + ",".repeat(15 * MiB) + "\n" + "1\n".repeat(1_000_000),
        "15728641 fields in line 2 (the limit is 100000)",
      ],
    ];
    for (const [name, content, what] of shapes) {
      const file = write(name, content);
      const report = gradeSample(file);
      expect(report.valid_submission).toBe(false);
      expect(report.score).toBeNull();
      expect(report.invalid_reason).toBe(`Submission is not a readable CSV: ${file}: too large to grade: ${what}`);
    }
    const sparse = gradeSample(write("sparse.csv", names(1000).join(",") + "\n" + "1\n".repeat(600) + "\n".repeat(15 * MiB)));
    expect(sparse.invalid_reason).toBe("Submission has 600 rows but the answers have 393; submit one row per test id.");
    expect(gradeSample(sample).valid_submission).toBe(true);
  });

  it("grade reports all three lines of a JSONL whose middle submission is degenerate", () => {
    const jsonl = write(
      "submissions.jsonl",
      [sample, commas, sample].map((p) => JSON.stringify({ competition_id: "titanic", submission_path: p })).join("\n") + "\n",
    );
    const out = tempDir("mlebench-degenerate-reports-");
    const r = mlebench(["grade", "--submission", jsonl, "--output-dir", out, "--data-dir", dataDir, "--json"]);
    expect(r.status).toBe(0);
    const summary = JSON.parse(r.stdout) as { report_path: string; total_runs: number; total_valid_submissions: number; errors: unknown[] };
    expect(summary.errors).toEqual([]);
    expect(summary.total_runs).toBe(3);
    expect(summary.total_valid_submissions).toBe(2);
    const report = JSON.parse(fs.readFileSync(summary.report_path, "utf8")) as {
      competition_reports: { submission_path: string; valid_submission: boolean; invalid_reason: string | null }[];
    };
    expect(report.competition_reports.map((c) => [c.submission_path, c.valid_submission])).toEqual([
      [sample, true],
      [commas, false],
      [sample, true],
    ]);
    expect(report.competition_reports[1].invalid_reason).toBe(
      `Submission is not a readable CSV: ${commas}: too large to grade: 15728641 columns in the header (the limit is 100000)`,
    );
  });
});
