import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyTree } from "../../prepare/copy-tree.js";
import { comparePyStrings } from "../../prepare/groupby.js";
import { scanCsv, writeCsvRows, type CsvScan, type StreamKind } from "../../prepare/stream-split.js";
import { toCsvRecords } from "./csv-records.js";

const TRANSACTIONS = "transactions_train.csv";
const COPIED = ["sample_submission.csv", "articles.csv", "customers.csv"];
/** The held-out window: purchases on the last day and the seven before it. */
const WINDOW_DAYS = 7;
/** Marks a row whose t_dat is empty (NaT in pandas: never in the window). */
const NO_DATE = -0x80000000;
const MS_PER_DAY = 86_400_000;

/**
 * Upstream's split of Kaggle's transactions_train.csv: purchases from the last eight days (the
 * latest date minus seven days, inclusive) become the answers, one row per customer listing the
 * articles bought in file order; the rest is the public transactions file. The other raw files
 * and images/ are copied as they are. The transactions file is 31M rows (3.5 GB), so it is
 * streamed: one pass learns dtypes and record offsets, then only the columns needed are re-read.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, TRANSACTIONS);
  // Checked first: a missing file should not cost a pass over 3.5 GB.
  for (const name of COPIED) requireFile(path.join(ctx.raw, name), false);
  requireFile(path.join(ctx.raw, "images"), true);
  const scan = scanCsv(file, { file });
  for (const c of ["t_dat", "customer_id", "article_id"]) {
    if (!scan.names.includes(c)) throw new UserError(`${file}: no column "${c}" (columns: ${scan.names.join(", ")})`);
  }
  const tmp = fs.mkdtempSync(path.join(ctx.raw, ".split-"));
  try {
    const { train, test } = splitByRecency(readDays(scan, path.join(tmp, "t_dat.csv")));
    writeCsvRows(scan, train, path.join(ctx.public, TRANSACTIONS));
    writeAnswers(scan, test, path.join(tmp, "test.csv"), path.join(ctx.private, "answers.csv"));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  for (const name of COPIED) fs.copyFileSync(path.join(ctx.raw, name), path.join(ctx.public, name));
  copyTree(path.join(ctx.raw, "images"), path.join(ctx.public, "images"));
}

function requireFile(p: string, dir: boolean): void {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st || st.isDirectory() !== dir) throw new UserError(`${p} is missing: upstream copies it into public/`);
}

/** Each row's t_dat as a day number, read back from a one-column copy of the file. */
function readDays(scan: CsvScan, tmpFile: string): Int32Array {
  const all = new Int32Array(scan.rows);
  for (let i = 0; i < all.length; i++) all[i] = i;
  writeCsvRows(scan, all, tmpFile, { columns: ["t_dat"] });
  const days = all; // reused: row numbers are no longer needed
  let row = -1;
  let lastText = "";
  let lastDay = NO_DATE;
  for (const [text] of toCsvRecords(tmpFile, scan.file)) {
    if (row >= 0) {
      if (text !== lastText) {
        lastDay = text === "" ? NO_DATE : dayNumber(text, scan.file, row);
        lastText = text;
      }
      days[row] = lastDay;
    }
    row++;
  }
  if (row !== scan.rows) throw new UserError(`${scan.file}: read back ${row} rows of t_dat, expected ${scan.rows}`);
  return days;
}

/** Days since 1970-01-01 of a "YYYY-MM-DD" date, within the range pandas timestamps cover. */
function dayNumber(text: string, file: string, row: number): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const bad = (): UserError => new UserError(`${file}: row ${row + 1}: t_dat "${text}" is not a date like 2020-09-22`);
  if (!m) throw bad();
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(2000, mo - 1, d));
  date.setUTCFullYear(y);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) throw bad();
  if (y < 1678 || y > 2261) throw new UserError(`${file}: row ${row + 1}: t_dat "${text}" is outside the dates pandas can hold`);
  return Math.round(date.getTime() / MS_PER_DAY);
}

/** Rows in the last window (test) and the others (train), each in file order. */
function splitByRecency(days: Int32Array): { train: Int32Array; test: Int32Array } {
  let max = NO_DATE;
  for (const d of days) if (d > max) max = d;
  const from = max === NO_DATE ? Infinity : max - WINDOW_DAYS;
  let nTest = 0;
  for (const d of days) if (d !== NO_DATE && d >= from) nTest++;
  const train = new Int32Array(days.length - nTest);
  const test = new Int32Array(nTest);
  let a = 0;
  let b = 0;
  for (let i = 0; i < days.length; i++) {
    const d = days[i];
    if (d !== NO_DATE && d >= from) test[b++] = i;
    else train[a++] = i;
  }
  return { train, test };
}

/** Whether a field as to_csv printed it stands for a missing value of a column of this kind. */
function isMissing(text: string, kind: StreamKind): boolean {
  return text === "" && kind !== "rawString";
}

/** Python's `str()` of a cell printed by to_csv: the same text, but "nan" for a missing value. */
function pyStr(text: string, kind: StreamKind): string {
  return isMissing(text, kind) ? "nan" : text;
}

/** How groupby orders keys of a column of this kind, given their printed text. */
function keyOrder(kind: StreamKind): (a: string, b: string) => number {
  switch (kind) {
    case "int":
      return (a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);
    case "intFloat":
    case "float":
      return (a, b) => Number(a) - Number(b);
    default:
      // Strings by code point; booleans print as False/True, which sort the same way.
      return comparePyStrings;
  }
}

/**
 * The answers: test purchases grouped by customer (keys ascending, missing keys dropped), each
 * customer's article ids joined by spaces in file order, as `str()` prints them.
 */
function writeAnswers(scan: CsvScan, test: Int32Array, tmpFile: string, out: string): void {
  writeCsvRows(scan, test, tmpFile, { columns: ["customer_id", "article_id"] });
  const keyKind = scan.kinds[scan.names.indexOf("customer_id")];
  const articleKind = scan.kinds[scan.names.indexOf("article_id")];
  const groups = new Map<string, string[]>();
  let header = true;
  for (const [key, article] of toCsvRecords(tmpFile, scan.file)) {
    if (header) {
      header = false;
      continue;
    }
    if (isMissing(key, keyKind)) continue;
    const list = groups.get(key);
    if (list) list.push(pyStr(article, articleKind));
    else groups.set(key, [pyStr(article, articleKind)]);
  }
  const keys = [...groups.keys()].sort(keyOrder(keyKind));
  const predictions = keys.map((k) => groups.get(k)!.join(" "));
  writeCsv(
    out,
    makeTable([
      ["customer_id", { kind: "string", values: keys }],
      ["prediction", { kind: "string", values: predictions }],
    ]),
  );
}
