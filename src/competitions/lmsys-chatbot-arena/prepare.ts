import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { makeTable, type Column } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { selectColumns, trainTestSplitTable } from "../../prepare/frame.js";

/** The three outcome columns, each predicted as one third in the sample submission. */
const OUTCOMES = ["winner_model_a", "winner_model_b", "winner_tie"];

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the answers; the public
 * test keeps id, prompt and both responses, and the sample submission gives every outcome 1/3.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { train, test: answers } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const test = selectColumns(answers, ["id", "prompt", "response_a", "response_b"], file);
  const third: Column = { kind: "float", values: new Float64Array(answers.rowCount).fill(1 / 3) };
  const sample = makeTable([["id", test.data.get("id")!], ...OUTCOMES.map((c): [string, Column] => [c, third])]);
  writeCsv(path.join(ctx.private, "answers.csv"), answers);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), test);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
}
