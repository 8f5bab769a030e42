import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListedFiles } from "../../prepare/copy-listed.js";
import { trainTestSplitTable } from "../../prepare/frame.js";
import { oneHotTable, uniformTable } from "../../prepare/one-hot.js";
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
  for (const [table, folder] of [[train, "train"], [answers, "test"]] as const) {
    copyListedFiles(table, "id", { from: path.join(ctx.raw, "train"), to: path.join(ctx.public, folder), suffix: ".jpg", listedIn: file });
  }
  writeCsv(path.join(ctx.public, "labels.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), answers);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), uniformTable(answers, "id", BREEDS));
}

