import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListed } from "../../prepare/copy-listed.js";
import { takeRows, withColumn } from "../../prepare/frame.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

/**
 * Upstream's split of Kaggle's train_labels.csv: the test share is the share Kaggle's own
 * unlabelled raw/test patches had (random_state 0); patches are copied from raw/train into
 * public/train and public/test; the sample submission predicts label 0.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train_labels.csv");
  const labels = readCsv(file, { file });
  const ids = labels.data.get("id");
  if (!ids || !labels.data.has("label")) throw new UserError(`${file}: expected columns id, label (got ${labels.columns.join(", ")})`);
  const unlabelled = countTifs(path.join(ctx.raw, "test"));
  const split = trainTestSplitIndices(labels.rowCount, { testSize: unlabelled / (labels.rowCount + unlabelled), randomState: 0 });
  const trainIds = split.train.map((i) => idKey(ids, i));
  const testIds = split.test.map((i) => idKey(ids, i));
  for (const [ids, folder] of [[trainIds, "train"], [testIds, "test"]] as const) {
    copyListed(ids, { from: path.join(ctx.raw, "train"), to: path.join(ctx.public, folder), suffix: ".tif", listedIn: "train_labels.csv" });
  }
  const train = rowsWithIds(labels, ids, new Set(trainIds));
  const test = rowsWithIds(labels, ids, new Set(testIds));
  const zeros: Column = { kind: "int", values: new Float64Array(test.rowCount) };
  writeCsv(path.join(ctx.public, "train_labels.csv"), train);
  writeCsv(path.join(ctx.private, "answers.csv"), test);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "label", zeros));
}

/**
 * How many names in `dir` end in ".tif", as `Path.glob("*.tif")` counts them: case-sensitive,
 * names starting with a dot included, folders included.
 */
function countTifs(dir: string): number {
  const count = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith(".tif")).length : 0;
  // With no unlabelled patches the test share would be 0, which the split refuses.
  if (count === 0) throw new UserError(`${dir}: expected Kaggle's unlabelled .tif patches (their count sizes the test split), found none`);
  return count;
}

function idKey(ids: Column, i: number): string {
  const id = cellAt(ids, i);
  if (id === null) throw new UserError(`train_labels.csv: row ${i + 1} has no id`);
  return String(id);
}

/** The rows whose id is in `keep`, in file order (pandas `df[df.id.isin(keep)]`). */
function rowsWithIds(t: Table, ids: Column, keep: Set<string>): Table {
  const rows: number[] = [];
  for (let i = 0; i < t.rowCount; i++) if (keep.has(idKey(ids, i))) rows.push(i);
  return takeRows(t, rows);
}
