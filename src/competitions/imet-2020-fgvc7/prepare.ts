import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListedFiles } from "../../prepare/copy-listed.js";
import { trainTestSplitTable, withColumn } from "../../prepare/frame.js";

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
  for (const [table, folder] of [[train, "train"], [test, "test"]] as const) {
    copyListedFiles(table, "id", { from: path.join(ctx.raw, "train"), to: path.join(ctx.public, folder), suffix: ".png", listedIn: file });
  }
}
