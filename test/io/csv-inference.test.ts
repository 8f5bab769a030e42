// The dtype inference of src/io/csv/inference.ts is one implementation behind two readers: the
// in-memory reader (ColumnBuilder, parseCsv) and the streaming splitter (scanCsv, flags only).
// The same cells must get the same dtype through every door, shortcuts or not.
import { TextArena } from "../../src/core/text-bytes.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Column } from "../../src/core/table.js";
import { parseCsv } from "../../src/io/csv-read.js";
import { ColumnBuilder, isBackfill } from "../../src/io/csv/builder.js";
import { ColumnInference, type InferredDtype } from "../../src/io/csv/inference.js";
import { scanCsv } from "../../src/prepare/stream-split.js";
import { Mulberry32 } from "../../src/rng/mulberry32.js";

const dir = mkdtempSync(join(tmpdir(), "mlebench-csv-inference-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let serial = 0;

const bytes = (cells: string[]): Buffer[] => cells.map((c) => Buffer.from(c, "utf8"));

/** The streaming splitter's way: flags only, with the shortcuts for plain integers and decimals. */
function observed(cells: string[]): InferredDtype {
  const col = new ColumnInference();
  for (const b of bytes(cells)) col.observe(b, 0, b.length);
  return col.dtype(cells.length);
}

/** Every cell through the general path, no shortcut. */
function general(cells: string[]): InferredDtype {
  const col = new ColumnInference();
  for (const b of bytes(cells)) col.cell(b, 0, b.length);
  return col.dtype(cells.length);
}

/** The in-memory reader's column, built cell by cell; a column left for the second pass is text. */
function built(cells: string[]): Column["kind"] {
  const col = new ColumnBuilder(cells.length, new TextArena());
  bytes(cells).forEach((b, row) => col.add(row, b, 0, b.length));
  const r = col.finish(cells.length);
  return isBackfill(r) ? "string" : r.kind;
}

/** A two-column file whose second column holds the cells (the first keeps empty cells from making blank lines). */
function csvText(cells: string[]): string {
  const quote = (c: string) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
  return "i,x\n" + cells.map((c, i) => `${i},${quote(c)}\n`).join("");
}

function parsed(cells: string[]): Column["kind"] {
  return parseCsv(csvText(cells)).data.get("x")!.kind;
}

function scanned(cells: string[]): string {
  const file = join(dir, `in-${serial++}.csv`);
  writeFileSync(file, csvText(cells));
  return scanCsv(file, { chunkBytes: 7 }).kinds[1];
}

/** The Table kind of each dtype; int64 beyond ±2^53 needs bigints. */
function tableKind(dtype: InferredDtype, cells: string[]): Column["kind"] {
  const big = cells.some((c) => /^\s*[-+]?\d{16,}\s*$/.test(c) && (BigInt(c.trim()) > 2n ** 53n || BigInt(c.trim()) < -(2n ** 53n)));
  const kinds: Record<InferredDtype, Column["kind"]> = {
    int: big ? "bigint" : "int",
    uint: "bigint",
    intFloat: "float",
    float: "float",
    bool: "bool",
    boolObject: "object",
    string: "string",
    rawString: "string",
  };
  return kinds[dtype];
}

/** Each path's answer for one column of cells. */
function answers(cells: string[]): { observed: InferredDtype; general: InferredDtype; built: string; parsed: string; scanned: string } {
  return { observed: observed(cells), general: general(cells), built: built(cells), parsed: parsed(cells), scanned: scanned(cells) };
}

/** What every path must say for a column whose pandas dtype is `dtype`. */
function expected(dtype: InferredDtype, cells: string[]) {
  const kind = tableKind(dtype, cells);
  return { observed: dtype, general: dtype, built: kind, parsed: kind, scanned: dtype === "uint" ? "int" : dtype };
}

// pandas 2.2's read_csv on each column (parsers.pyx `_convert_tokens`), corners included.
const CASES: [string, string[], InferredDtype][] = [
  ["integers", ["1", "22", "-3"], "int"],
  ["integers with a gap are float64", ["1", "", "3"], "intFloat"],
  ["only missing values are float64", ["NA", "nan", ""], "intFloat"],
  ["-0 is an integer", ["-0", "1"], "int"],
  ["spaces and '+' around integers", [" 12 ", "+3", "\t4"], "int"],
  ["integers beyond 2^53 stay exact", ["9007199254740993", "1"], "int"],
  ["int64 overflow retries uint64", ["9223372036854775808", "1"], "uint"],
  ["uint64 with a negative: object without NA filtering", ["9223372036854775808", "-1"], "rawString"],
  ["uint64 with a gap: object without NA filtering", ["9223372036854775808", "NA"], "rawString"],
  ["only negatives beyond int64: an object column", ["-9223372036854775809", "1"], "string"],
  ["beyond uint64 is text", ["18446744073709551616"], "string"],
  ["floats", ["1.5", "2", "-0.25e3"], "float"],
  ["floats with gaps", ["1.5", "", "NaN"], "float"],
  ["long decimals", ["0.1000000000000000055511151231257827", "3.14159265358979323846"], "float"],
  ["inf spellings", ["inf", "-Infinity", "+INF", "1"], "float"],
  ["-1e400 is -inf, a float", ["-1e400", "2"], "float"],
  ["1e400 overflows, so text", ["1e400", "2"], "string"],
  ["booleans in any casing", ["True", "false", "TRUE", "fAlSe"], "bool"],
  ["booleans with a gap", ["True", "", "False"], "boolObject"],
  ["booleans and an integer: text", ["True", "1"], "string"],
  ["an integer then text", ["1", "abc"], "string"],
  ["hex is text", ["0x10"], "string"],
  ["a lone minus is text", ["-"], "string"],
  ["digits with a trailing dot are floats", ["1.", "2"], "float"],
];

describe("one dtype inference for the in-memory reader and the streaming splitter", () => {
  for (const [name, cells, dtype] of CASES) {
    it(name, () => expect(answers(cells)).toEqual(expected(dtype, cells)));
  }

  it("agrees on random columns of awkward cells", () => {
    const pool = [
      "0", "7", "-0", "-12", "+5", " 3", "123456789012345", "1234567890123456", "9007199254740993",
      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
      "18446744073709551615", "18446744073709551616", "1.5", "-0.0", ".5", "5.", "1e5", "1E-5", "1e400",
      "-1e400", "inf", "-inf", "Infinity", "nan", "NA", "", "None", "True", "false", "TRUE", "abc", "1,5", "x\"y",
    ];
    const rnd = new Mulberry32(7);
    for (let k = 0; k < 300; k++) {
      const cells = Array.from({ length: 1 + rnd.below(5) }, () => pool[rnd.below(pool.length)]);
      const got = answers(cells);
      expect(got, JSON.stringify(cells)).toEqual(expected(got.general, cells));
    }
  });
});
