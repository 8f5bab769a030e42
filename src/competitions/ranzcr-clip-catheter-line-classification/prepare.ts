import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListed } from "../../prepare/copy-listed.js";
import { selectColumns, takeRows, trainTestSplitTable, withColumn } from "../../prepare/frame.js";
import { CLASSES } from "./classes.js";

const UID = "StudyInstanceUID";

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the test set; the
 * annotations of the remaining studies stay public; X-rays are copied from raw/train into
 * public/train and public/test; the sample submission predicts 0 for nine of the label columns.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const studies = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(studies, { testSize: 0.1, randomState: 0 });
  const annotationsFile = path.join(ctx.raw, "train_annotations.csv");
  const annotations = readCsv(annotationsFile, { file: annotationsFile });
  const trainAnnotations = rowsWithUids(annotations, uidKeys(train, file), annotationsFile);
  for (const [table, folder] of [[train, "train"], [test, "test"]] as const) {
    copyListed(uidKeys(table, file), { from: path.join(ctx.raw, "train"), to: path.join(ctx.public, folder), suffix: ".jpg", listedIn: "train.csv" });
  }
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "train_annotations.csv"), trainAnnotations);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), zeroSubmission(test, file));
}

/** The table's study UIDs as text, in row order. */
function uidKeys(t: Table, where: string): string[] {
  const col = t.data.get(UID);
  if (!col) throw new UserError(`${where}: no column "${UID}" (columns: ${t.columns.join(", ")})`);
  return Array.from({ length: t.rowCount }, (_, i) => {
    const v = cellAt(col, i);
    if (v === null) throw new UserError(`${where}: a row has no ${UID}`);
    return String(v);
  });
}

/** The annotation rows of the given studies, in the annotation file's own order (pandas `isin`). */
function rowsWithUids(annotations: Table, uids: string[], where: string): Table {
  const keep = new Set(uids);
  const keys = uidKeys(annotations, where);
  const rows: number[] = [];
  for (let i = 0; i < keys.length; i++) if (keep.has(keys[i])) rows.push(i);
  return takeRows(annotations, rows);
}

/** The test UIDs with each submitted label column set to the int 0. */
function zeroSubmission(test: Table, where: string): Table {
  let sample = selectColumns(test, [UID, ...CLASSES], where);
  const zeros: Column = { kind: "int", values: new Float64Array(test.rowCount) };
  for (const c of CLASSES) sample = withColumn(sample, c, zeros);
  return sample;
}
