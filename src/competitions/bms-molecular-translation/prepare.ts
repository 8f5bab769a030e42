import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListedFiles } from "../../prepare/copy-listed.js";
import { trainTestSplitTable, withColumn } from "../../prepare/frame.js";

// A valid InChI (water) that every sample-submission row predicts.
const PLACEHOLDER_INCHI = "InChI=1S/H2O/h1H2";

/**
 * Upstream's split: 20% of Kaggle's train_labels.csv (random_state 0) becomes the test set. Each
 * side's drawings are copied from raw/train into public/train or public/test, keeping Kaggle's
 * three-level folders; extra_approved_InChIs.csv is passed through unchanged.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train_labels.csv");
  const old = readCsv(file, { file });
  for (const c of ["image_id", "InChI"]) {
    if (!old.data.has(c)) throw new UserError(`${file}: no column "${c}" (columns: ${old.columns.join(", ")})`);
  }
  const { train, test } = trainTestSplitTable(old, { testSize: 0.2, randomState: 0 });
  writeCsv(path.join(ctx.public, "train_labels.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  copyDrawings(train, path.join(ctx.raw, "train"), path.join(ctx.public, "train"), file);
  copyDrawings(test, path.join(ctx.raw, "train"), path.join(ctx.public, "test"), file);
  const placeholder = { kind: "string" as const, values: new Array<string | null>(test.rowCount).fill(PLACEHOLDER_INCHI) };
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "InChI", placeholder));
  const extra = "extra_approved_InChIs.csv";
  const extraSrc = path.join(ctx.raw, extra);
  if (!fs.existsSync(extraSrc)) throw new UserError(`${extraSrc} is missing (Kaggle ships it next to train_labels.csv)`);
  fs.copyFileSync(extraSrc, path.join(ctx.public, extra));
}

/** Where Kaggle keeps a drawing: one folder per each of the id's first three characters. */
function nestedPath(imageId: string): string {
  return path.join(imageId[0], imageId[1], imageId[2], `${imageId}.png`);
}

/** Copy each row's drawing from `src` to the same nested place under `dest`, file by file. */
function copyDrawings(table: Table, src: string, dest: string, listedIn: string): void {
  const at = (id: string): string => {
    if (id.length < 3) throw new UserError(`${listedIn}: image_id "${id}" is too short to name its nested folder`);
    return nestedPath(id);
  };
  copyListedFiles(table, "image_id", { from: src, to: dest, listedIn, at });
}
