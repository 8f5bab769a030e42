import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { dropColumns, trainTestSplitTable, withColumn } from "../../prepare/frame.js";

/** Rows upstream holds out: a row count (sklearn's int test_size), not a proportion. */
export const TEST_SIZE = 100_000;

function idRange(start: number, count: number): Column {
  return { kind: "int", values: Float64Array.from({ length: count }, (_, i) => start + i) };
}

/** Upstream's steps with the held-out row count as a parameter (`prepare` passes {@link TEST_SIZE}). */
export function prepareWithTestSize(ctx: UpstreamPrepareContext, testSize: number): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  for (const c of ["id", "target"]) if (!old.data.has(c)) throw new UserError(`${file}: no "${c}" column`);
  if (old.rowCount <= testSize) {
    throw new UserError(`${file}: has ${old.rowCount} rows; upstream holds out ${testSize}, so it needs more`);
  }
  const split = trainTestSplitTable(old, { testSize, randomState: 0 });
  // Ids are renumbered: 0.. through train, then on through test.
  const train = withColumn(split.train, "id", idRange(0, split.train.rowCount));
  const test = withColumn(split.test, "id", idRange(train.rowCount, split.test.rowCount));
  const ids = test.data.get("id")!;
  const half: Column = { kind: "float", values: new Float64Array(test.rowCount).fill(0.5) };
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(test, ["target"], file));
  writeCsv(path.join(ctx.private, "gold_submission.csv"), makeTable([["id", ids], ["target", test.data.get("target")!]]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([["id", ids], ["target", half]]));
}

/** Upstream's split: exactly 100,000 rows of Kaggle's train.csv (random_state 0) are the test set; ids run on from train's. */
export function prepare(ctx: UpstreamPrepareContext): void {
  prepareWithTestSize(ctx, TEST_SIZE);
}
