import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyTree } from "../../prepare/copy-tree.js";
import { trainTestSplitTable, withColumn } from "../../prepare/frame.js";

const ID = "BraTS21ID";

/** Read train_labels.csv with the ids kept as text (they are zero-padded folder names) and whole-number labels. */
function readLabels(file: string): Table {
  const t = readCsv(file, { file, text: [ID] });
  const ids = t.data.get(ID);
  if (!ids) throw new UserError(`${file}: no "${ID}" column (columns: ${t.columns.join(", ")})`);
  const missing = ids.values.findIndex((v) => v === null);
  if (missing >= 0) throw new UserError(`${file}: row ${missing + 1} has no ${ID}`);
  const labels = t.data.get("MGMT_value");
  // Upstream reads MGMT_value as int, which fails on gaps or fractions.
  if (!labels || labels.kind !== "int") throw new UserError(`${file}: "MGMT_value" must be a column of whole numbers without gaps`);
  return t;
}

/** Copy each listed patient's folder of scans from Kaggle's train/ into public/<split>/. */
function copyPatients(ctx: UpstreamPrepareContext, t: Table, split: string): void {
  for (const id of t.data.get(ID)!.values as string[]) {
    copyTree(path.join(ctx.raw, "train", id), path.join(ctx.public, split, id), `folder of MRI scans for ${ID} ${id}`);
  }
}

/**
 * Upstream's split: 10% of Kaggle's labelled patients (random_state 0) become the test set; their
 * scan folders move to public/test, and the sample submission predicts 0.5 for each.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train_labels.csv");
  const { train, test } = trainTestSplitTable(readLabels(file), { testSize: 0.1, randomState: 0 });
  copyPatients(ctx, train, "train");
  copyPatients(ctx, test, "test");
  const half = { kind: "float" as const, values: new Float64Array(test.rowCount).fill(0.5) };
  writeCsv(path.join(ctx.public, "train_labels.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "MGMT_value", half));
}
