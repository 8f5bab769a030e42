import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { makeTable } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { dropColumns, selectColumns, trainTestSplitTable } from "../../prepare/frame.js";

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the test set; the public
 * test drops the score, and the sample submission scores every pair 0 (an integer column).
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const ids = selectColumns(test, ["id", "score"], file).data.get("id")!;
  const zeros = { kind: "int" as const, values: new Float64Array(test.rowCount) };
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(test, ["score"], file));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([["id", ids], ["score", zeros]]));
}
