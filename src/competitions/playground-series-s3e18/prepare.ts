import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import type { Column } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { dropColumns, selectColumns, trainTestSplitTable, withColumn } from "../../prepare/frame.js";

/** The six binary targets of Kaggle's train.csv; only EC1 and EC2 are scored. */
const TARGETS = ["EC1", "EC2", "EC3", "EC4", "EC5", "EC6"];

function constantFloat(rows: number, value: number): Column {
  return { kind: "float", values: new Float64Array(rows).fill(value) };
}

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) is the test set; the sample
 * submission predicts 0.5 for EC1 and EC2, and the public test set loses all six targets.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  // Upstream overwrites the two targets and keeps the columns in the file's order (id first).
  const halves = constantFloat(test.rowCount, 0.5);
  const sample = withColumn(withColumn(selectColumns(test, ["id", "EC1", "EC2"], file), "EC1", halves), "EC2", halves);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(test, TARGETS, file));
}
