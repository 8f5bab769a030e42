import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { dropColumns, selectColumns, takeRows } from "../../prepare/frame.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";
import { CLASSES as TARGETS } from "./classes.js";


const RARE = "question_type_spelling";

/** pandas' `Series.nunique()`: distinct values, missing ones not counted (-0 and 0 are one value). */
function distinctCount(col: Column, rows: readonly number[]): number {
  const seen = new Set<unknown>();
  for (const r of rows) {
    const v = cellAt(col, r);
    if (v !== null) seen.add(v);
  }
  return seen.size;
}

/** pandas' `value != 0` for one cell: true for missing values and text, False counts as 0. */
function differsFromZero(col: Column, row: number): boolean {
  const v = cellAt(col, row);
  if (typeof v === "number") return v !== 0;
  if (typeof v === "bigint") return v !== 0n;
  if (typeof v === "boolean") return v;
  return true;
}

/**
 * The Spearman grader needs the rare spelling target to vary in the test set: when every test row
 * has the same value, the first train row (in split order) whose value is non-zero trades places
 * with the first test row. Swapping row numbers is the same as upstream's swap of row contents.
 */
function ensureSpellingVaries(t: Table, split: { train: number[]; test: number[] }, file: string): void {
  const col = t.data.get(RARE);
  if (!col) throw new UserError(`${file}: no column "${RARE}"`);
  if (distinctCount(col, split.test) !== 1) return;
  const donor = split.train.findIndex((r) => differsFromZero(col, r));
  if (donor < 0) throw new UserError(`${file}: every train row has ${RARE} 0, so the test set cannot get a non-zero one`);
  [split.train[donor], split.test[0]] = [split.test[0], split.train[donor]];
}

/** numpy's `linspace(0, 1, n)`: i * step, with the last point exactly 1. */
function linspace01(n: number): Float64Array {
  const out = new Float64Array(n);
  const step = 1 / (n - 1);
  for (let i = 0; i < n; i++) out[i] = i * step;
  if (n > 1) out[n - 1] = 1;
  return out;
}

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) is the test set, adjusted so the
 * spelling target varies; the answers are qa_id and the targets, the sample submission the same
 * columns each rising evenly from 0 to 1.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const split = trainTestSplitIndices(old.rowCount, { testSize: 0.1, randomState: 0 });
  ensureSpellingVaries(old, split, file);
  const train = takeRows(old, split.train);
  const test = takeRows(old, split.test);
  const answers = selectColumns(test, ["qa_id", ...TARGETS], file);
  const ramp: Column = { kind: "float", values: linspace01(test.rowCount) };
  const sample = makeTable([["qa_id", answers.data.get("qa_id")!], ...TARGETS.map((c): [string, Column] => [c, ramp])]);
  writeCsv(path.join(ctx.private, "test.csv"), answers);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(test, TARGETS, file));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
}
