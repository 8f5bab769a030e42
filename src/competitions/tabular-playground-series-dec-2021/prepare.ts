import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { dropColumns, trainTestSplitTable } from "../../prepare/frame.js";

/** Upstream's split: 10% of Kaggle's train.csv (random_state 0) is the test set; the sample submission predicts cover type 2. */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const ids = test.data.get("Id");
  if (!ids) throw new UserError(`${file}: no Id column`);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(test, ["Cover_Type"], file));
  const twos = { kind: "int" as const, values: new Float64Array(test.rowCount).fill(2) };
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([["Id", ids], ["Cover_Type", twos]]));
}
