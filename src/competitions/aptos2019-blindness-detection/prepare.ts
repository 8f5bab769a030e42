import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListedFiles } from "../../prepare/copy-listed.js";
import { dropColumns, trainTestSplitTable, withColumn } from "../../prepare/frame.js";

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the test set; images are
 * copied into public/train_images and public/test_images by id; the sample submission predicts 0.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  for (const [table, folder] of [[train, "train_images"], [test, "test_images"]] as const) {
    copyListedFiles(table, "id_code", { from: path.join(ctx.raw, "train_images"), to: path.join(ctx.public, folder), suffix: ".png", listedIn: file });
  }
  const zeros = { kind: "int" as const, values: new Float64Array(test.rowCount) };
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(test, ["diagnosis"], file));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "diagnosis", zeros));
}
