import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyTree } from "../../prepare/copy-tree.js";
import { dropColumns, takeRows, withColumn } from "../../prepare/frame.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

/** Days a train case keeps; its later days (by day number) go to the test side. */
const DAYS_KEPT = 4;
const SAMPLE_PREDICTION = "1 1 5 2";

/** The parts of an id "case123_day20_slice_0001" that upstream splits on "_". */
interface RowKey {
  caseId: string;
  day: string;
  slice: string;
}

/**
 * Upstream's split of train.csv: a tenth of the cases (random_state 42, in order of first
 * appearance) go wholly to the test side, and every train case keeps only its first four days
 * (by day number), the rest moving to test. Scan folders follow their rows into public/train and
 * public/test; the answers add each test slice's width and height, read from its scan's name.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const rows = readCsv(file, { file });
  const keys = rowKeys(rows, file);
  const cases = uniqueInOrder(keys.map((k) => k.caseId));
  const split = trainTestSplitIndices(cases.length, { testSize: 0.1, randomState: 42 });
  const trainCases = new Set(Array.from(split.train, (i) => cases[i]));
  const isTest = keys.map((k) => !trainCases.has(k.caseId));
  moveLaterDays(keys, isTest);

  copyScanFolders(ctx, cases, trainCases, keys, isTest);
  const trainRows: number[] = [];
  const testRows: number[] = [];
  isTest.forEach((t, i) => (t ? testRows : trainRows).push(i));
  if (testRows.length === 0) throw new UserError(`${file}: the split left no rows for the test set`);

  const train = takeRows(rows, trainRows);
  const answers = withImageSizes(renameSegmentation(takeRows(rows, testRows), file), testRows.map((i) => keys[i]), ctx.raw);
  const sample = withColumn(
    dropColumns(answers, ["image_height", "image_width"], file),
    "predicted",
    { kind: "string", values: new Array<string | null>(testRows.length).fill(SAMPLE_PREDICTION) },
  );
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  writeCsv(path.join(ctx.private, "test.csv"), answers);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(answers, ["predicted", "image_width", "image_height"], file));
}

/** Each row's case, day and slice: the first, second and last "_"-separated parts of its id. */
function rowKeys(t: Table, file: string): RowKey[] {
  const col = t.data.get("id");
  if (!col) throw new UserError(`${file}: no column "id" (columns: ${t.columns.join(", ")})`);
  return Array.from({ length: t.rowCount }, (_, i) => {
    const id = col.kind === "string" ? col.values[i] : null;
    const parts = typeof id === "string" ? id.split("_") : [];
    if (parts.length < 2) {
      throw new UserError(`${file}: row ${i + 1}: id ${JSON.stringify(col.values[i])} is not like "case123_day20_slice_0001"`);
    }
    return { caseId: parts[0], day: parts[1], slice: parts[parts.length - 1] };
  });
}

function uniqueInOrder(values: string[]): string[] {
  return [...new Set(values)];
}

/** Python's `int()` of what follows "day" in a day name. */
function dayNumber(day: string): number {
  const digits = day.slice("day".length).trim();
  if (!/^[+-]?\d+$/.test(digits)) throw new UserError(`day "${day}" in train.csv has no day number after "day"`);
  return Number(digits);
}

/** Mark for test every row of a train case that falls on one of its days after the fourth. */
function moveLaterDays(keys: RowKey[], isTest: boolean[]): void {
  const daysByCase = new Map<string, Set<string>>();
  keys.forEach((k, i) => {
    if (isTest[i]) return;
    const days = daysByCase.get(k.caseId) ?? new Set<string>();
    days.add(k.day);
    daysByCase.set(k.caseId, days);
  });
  const moved = new Map<string, Set<string>>();
  for (const [caseId, days] of daysByCase) {
    if (days.size <= DAYS_KEPT) continue;
    const ordered = [...days].sort((a, b) => dayNumber(a) - dayNumber(b) || (a < b ? -1 : a > b ? 1 : 0));
    moved.set(caseId, new Set(ordered.slice(DAYS_KEPT)));
  }
  keys.forEach((k, i) => {
    if (moved.get(k.caseId)?.has(k.day)) isTest[i] = true;
  });
}

/**
 * Copy each case folder to its side, then move the day folders of test rows that landed under
 * public/train to public/test, as upstream does.
 */
function copyScanFolders(ctx: UpstreamPrepareContext, cases: string[], trainCases: Set<string>, keys: RowKey[], isTest: boolean[]): void {
  const trainDir = path.join(ctx.public, "train");
  const testDir = path.join(ctx.public, "test");
  fs.mkdirSync(trainDir, { recursive: true });
  fs.mkdirSync(testDir, { recursive: true });
  for (const c of cases) copyTree(path.join(ctx.raw, "train", c), path.join(trainCases.has(c) ? trainDir : testDir, c), "case folder");
  keys.forEach((k, i) => {
    if (!isTest[i]) return;
    const folder = `${k.caseId}_${k.day}`;
    const src = path.join(trainDir, k.caseId, folder);
    if (!fs.existsSync(src)) return;
    fs.mkdirSync(path.join(testDir, k.caseId), { recursive: true });
    fs.renameSync(src, path.join(testDir, k.caseId, folder));
  });
}

/** The answers call the mask column "predicted", as submissions do. */
function renameSegmentation(t: Table, file: string): Table {
  if (!t.data.has("segmentation")) throw new UserError(`${file}: no column "segmentation" (columns: ${t.columns.join(", ")})`);
  const cols: [string, Column][] = t.columns.map((c) => [c === "segmentation" ? "predicted" : c, t.data.get(c)!]);
  return makeTable(cols);
}

/**
 * Add image_width and image_height from the one scan named slice_<slice>_<width>_<height>_*.png
 * of each row's day. Upstream fills them cell by cell into columns that start out missing, so
 * pandas holds them as float64 and they print as "266.0".
 */
function withImageSizes(t: Table, keys: RowKey[], raw: string): Table {
  const widths = new Float64Array(keys.length);
  const heights = new Float64Array(keys.length);
  const listings = new Map<string, string[]>();
  keys.forEach((k, i) => {
    const scans = path.join(raw, "train", k.caseId, `${k.caseId}_${k.day}`, "scans");
    let names = listings.get(scans);
    if (!names) {
      names = fs.existsSync(scans) ? fs.readdirSync(scans) : [];
      listings.set(scans, names);
    }
    const prefix = `slice_${k.slice}_`;
    const found = names.filter((n) => n.startsWith(prefix) && n.endsWith(".png"));
    if (found.length !== 1) throw new UserError(`${scans}: expected one scan named ${prefix}*.png, found ${found.length}`);
    const parts = found[0].slice(0, -".png".length).split("_");
    widths[i] = pyInt(parts[2], found[0]);
    heights[i] = pyInt(parts[3], found[0]);
  });
  return withColumn(withColumn(t, "image_width", { kind: "float", values: widths }), "image_height", { kind: "float", values: heights });
}

function pyInt(text: string | undefined, name: string): number {
  const s = text?.trim() ?? "";
  if (!/^[+-]?\d+$/.test(s)) throw new UserError(`scan ${name}: expected <width>_<height> after the slice number`);
  return Number(s);
}
