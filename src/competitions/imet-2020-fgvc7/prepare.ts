import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { trainTestSplitTable, withColumn } from "../../prepare/frame.js";

// Each listed artwork from raw/train/<id>.png into public/<folder>/, one file at a time.
function copyImages(t: Table, raw: string, dest: string, file: string): void {
  const ids = t.data.get("id");
  if (!ids) throw new UserError(`${file}: no id column`);
  fs.mkdirSync(dest, { recursive: true });
  for (let i = 0; i < t.rowCount; i++) {
    const name = `${String(cellAt(ids, i))}.png`;
    const src = path.join(raw, "train", name);
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing (listed in ${file})`);
    fs.copyFileSync(src, path.join(dest, name));
  }
}

/**
 * Upstream's split: 15% of Kaggle's train.csv (random_state 0) becomes the answers, images follow
 * their rows, labels.csv is copied as is; the sample submission predicts "0 1 2" everywhere.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  if (!old.data.has("attribute_ids")) throw new UserError(`${file}: no attribute_ids column (columns: ${old.columns.join(", ")})`);
  const { train, test } = trainTestSplitTable(old, { testSize: 0.15, randomState: 0 });
  const guess = { kind: "string" as const, values: new Array<string>(test.rowCount).fill("0 1 2") };
  writeCsv(path.join(ctx.private, "answers.csv"), test);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "attribute_ids", guess));
  const labels = path.join(ctx.raw, "labels.csv");
  if (!fs.existsSync(labels)) throw new UserError(`${labels} is missing`);
  fs.copyFileSync(labels, path.join(ctx.public, "labels.csv"));
  copyImages(train, ctx.raw, path.join(ctx.public, "train"), file);
  copyImages(test, ctx.raw, path.join(ctx.public, "test"), file);
}
