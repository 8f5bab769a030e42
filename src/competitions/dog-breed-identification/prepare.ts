import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { trainTestSplitTable } from "../../prepare/frame.js";
import { oneHotTable } from "../../prepare/one-hot.js";
import { BREEDS } from "./classes.js";

/**
 * Upstream's split: 10% of Kaggle's labels.csv (random_state 0) becomes the test set, whose
 * answers are one-hot over the 120 breeds; photos are copied from raw/train into public/train and
 * public/test by id; the sample submission gives every breed 1/120.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "labels.csv");
  const labels = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(labels, { testSize: 0.1, randomState: 0 });
  const answers = oneHotTable(test, "id", "breed", BREEDS, file);
  copyPhotos(ctx, train, "train", file);
  copyPhotos(ctx, answers, "test", file);
  writeCsv(path.join(ctx.public, "labels.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), answers);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), uniformSubmission(answers));
}

/** Copy raw/train/<id>.jpg into public/<folder> for each row, one file at a time. */
function copyPhotos(ctx: UpstreamPrepareContext, table: Table, folder: string, listing: string): void {
  const ids = table.data.get("id");
  if (!ids) throw new UserError(`${listing}: no id column`);
  const dest = path.join(ctx.public, folder);
  fs.mkdirSync(dest, { recursive: true });
  for (let i = 0; i < table.rowCount; i++) {
    const name = `${String(cellAt(ids, i))}.jpg`;
    const src = path.join(ctx.raw, "train", name);
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing (listed in ${listing})`);
    fs.copyFileSync(src, path.join(dest, name));
  }
}

/** The answers' ids with every breed column set to the float 1/120. */
function uniformSubmission(answers: Table): Table {
  const p = 1 / BREEDS.length;
  const cols: [string, Column][] = [["id", answers.data.get("id")!]];
  for (const b of BREEDS) cols.push([b, { kind: "float", values: new Float64Array(answers.rowCount).fill(p) }]);
  return makeTable(cols);
}
