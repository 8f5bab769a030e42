import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { constantBool, dropColumns, selectColumns, trainTestSplitTable, withColumn } from "../../prepare/frame.js";

/**
 * Upstream's split of Kaggle's train.csv: 10% held out as the test set (random_state 0), the
 * sample submission predicting False for every test passenger.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const sample = withColumn(selectColumns(test, ["PassengerId", "Transported"], file), "Transported", constantBool(test.rowCount, false));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(test, ["Transported"], file));
}
