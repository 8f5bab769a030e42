import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { makeTable } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { dropColumns, selectColumns, trainTestSplitTable } from "../../prepare/frame.js";

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the test set; the answers
 * keep each test id with its answer text as PredictionString, and the sample submission puts
 * "dummy text" in every row.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const picked = selectColumns(test, ["id", "answer_text"], file);
  const ids = picked.data.get("id")!;
  const answers = makeTable([["id", ids], ["PredictionString", picked.data.get("answer_text")!]]);
  const dummy = makeTable([["id", ids], ["PredictionString", { kind: "string", values: new Array<string>(test.rowCount).fill("dummy text") }]]);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(test, ["answer_start", "answer_text"], file));
  writeCsv(path.join(ctx.private, "test.csv"), answers);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), dummy);
}
