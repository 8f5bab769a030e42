import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListed, listedIds } from "../../prepare/copy-listed.js";
import { copyTree } from "../../prepare/copy-tree.js";
import { selectColumns, takeRows } from "../../prepare/frame.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

const VOTE_COLUMNS = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"];

/**
 * Upstream's split: Kaggle's spectrograms (in order of first appearance) are divided by sklearn
 * (random_state 0, 10% to test) and every label row follows its spectrogram, so no EEG or label
 * sits on both sides. The answers turn each row's expert votes into shares of their total; the
 * sample submission gives every class 1/6. EEG and spectrogram Parquet files are copied unread.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  for (const c of ["spectrogram_id", "eeg_id", "patient_id", ...VOTE_COLUMNS]) {
    if (!old.data.has(c)) throw new UserError(`${file}: no column "${c}" (columns: ${old.columns.join(", ")})`);
  }
  const keys = columnKeys(old.data.get("spectrogram_id")!);
  const unique = [...new Set(keys)];
  const split = trainTestSplitIndices(unique.length, { testSize: 0.1, randomState: 0 });
  const trainSet = new Set(split.train.map((i) => unique[i]));
  const testSet = new Set(split.test.map((i) => unique[i]));
  const newTrain = takeRows(old, rowsIn(keys, trainSet));
  const newTest = takeRows(old, rowsIn(keys, testSet));

  writeCsv(path.join(ctx.public, "train.csv"), newTrain);
  writeCsv(path.join(ctx.private, "test.csv"), newTest);
  writeCsv(path.join(ctx.public, "test.csv"), selectColumns(newTest, ["spectrogram_id", "eeg_id", "patient_id"], file));
  const gold = voteShares(newTest, file);
  writeCsv(path.join(ctx.private, "gold_submission.csv"), gold);
  const uniform: [string, Column][] = VOTE_COLUMNS.map((c) => [c, { kind: "float", values: new Float64Array(gold.rowCount).fill(1 / VOTE_COLUMNS.length) }]);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([["eeg_id", gold.data.get("eeg_id")!], ...uniform]));

  copyTree(path.join(ctx.raw, "example_figures"), path.join(ctx.public, "example_figures"), "folder (Kaggle ships example_figures)");
  for (const [table, side] of [[newTrain, "train"], [newTest, "test"]] as const) {
    copyById(table, "eeg_id", path.join(ctx.raw, "train_eegs"), path.join(ctx.public, `${side}_eegs`), file);
    copyById(table, "spectrogram_id", path.join(ctx.raw, "train_spectrograms"), path.join(ctx.public, `${side}_spectrograms`), file);
  }
}

/** A comparable key per cell; pandas' isin lets a missing value match a missing value, so it gets one key too. */
function columnKeys(col: Column): string[] {
  return Array.from({ length: col.values.length }, (_, i) => {
    const v = cellAt(col, i);
    return v === null ? "missing" : `${typeof v === "string" ? "s" : "n"}:${String(v)}`;
  });
}

function rowsIn(keys: string[], chosen: Set<string>): number[] {
  const out: number[] = [];
  keys.forEach((k, i) => {
    if (chosen.has(k)) out.push(i);
  });
  return out;
}

/** eeg_id and each vote divided by the row's vote total (0/0 gives NaN, as in pandas). */
function voteShares(test: Table, file: string): Table {
  const votes = VOTE_COLUMNS.map((c) => numeric(test.data.get(c)!, c, file));
  const totals = new Float64Array(test.rowCount);
  for (const v of votes) for (let i = 0; i < test.rowCount; i++) totals[i] += v[i];
  const shares: [string, Column][] = VOTE_COLUMNS.map((c, k) => [c, { kind: "float", values: votes[k].map((v, i) => v / totals[i]) }]);
  return makeTable([["eeg_id", test.data.get("eeg_id")!], ...shares]);
}

function numeric(col: Column, name: string, file: string): Float64Array {
  if (col.kind === "int" || col.kind === "float") return col.values;
  throw new UserError(`${file}: column "${name}" should hold numbers of votes, found ${col.kind} values`);
}

/** `<id>.parquet` for each distinct id of `column` (first-appearance order), one file at a time. */
function copyById(table: Table, column: string, src: string, dest: string, listedIn: string): void {
  const col = table.data.get(column)!;
  if (col.kind !== "int" && col.kind !== "bigint") throw new UserError(`${listedIn}: column "${column}" should hold integer ids, found ${col.kind} values`);
  const distinct = new Set(listedIds(table, column, listedIn));
  copyListed(distinct, { from: src, to: dest, suffix: ".parquet", listedIn });
}
