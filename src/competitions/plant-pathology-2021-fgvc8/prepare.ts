import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListedFiles } from "../../prepare/copy-listed.js";
import { trainTestSplitTable, withColumn } from "../../prepare/frame.js";

/**
 * Upstream's split: 20% of Kaggle's train.csv (random_state 0) becomes the answers; photos are
 * copied into public/train_images and public/test_images; the sample submission says "healthy".
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  for (const c of ["image", "labels"]) {
    if (!old.data.has(c)) throw new UserError(`${file}: no "${c}" column (columns: ${old.columns.join(", ")})`);
  }
  const { train, test } = trainTestSplitTable(old, { testSize: 0.2, randomState: 0 });
  const healthy = { kind: "string" as const, values: new Array<string | null>(test.rowCount).fill("healthy") };
  writeCsv(path.join(ctx.private, "answers.csv"), test);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "labels", healthy));
  for (const [table, folder] of [[test, "test_images"], [train, "train_images"]] as const) {
    copyListedFiles(table, "image", { from: path.join(ctx.raw, "train_images"), to: path.join(ctx.public, folder), listedIn: file });
  }
}
