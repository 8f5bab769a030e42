import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { makeTable } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { dropColumns, selectColumns, trainTestSplitTable } from "../../prepare/frame.js";
import { RandomState } from "../../rng/random-state.js";

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the answers; the public
 * test drops the score, and the sample submission scores each essay with numpy
 * RandomState(42).randint(1, 7).
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { train, test: answers } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const test = dropColumns(answers, ["score"], file);
  const ids = selectColumns(answers, ["essay_id"], file).data.get("essay_id")!;
  const scores = new RandomState(42).randint(1, 7, answers.rowCount);
  const sample = makeTable([["essay_id", ids], ["score", { kind: "int", values: Float64Array.from(scores) }]]);
  writeCsv(path.join(ctx.private, "answers.csv"), answers);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), test);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
}
