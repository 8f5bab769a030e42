import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { makeTable } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { dropColumns, selectColumns, trainTestSplitTable } from "../../prepare/frame.js";

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the test set; the public
 * test drops selected_text, and the sample submission selects the empty string for every tweet.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const ids = selectColumns(test, ["textID"], file).data.get("textID")!;
  const empty = { kind: "string" as const, values: new Array<string>(test.rowCount).fill("") };
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(test, ["selected_text"], file));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([["textID", ids], ["selected_text", empty]]));
}
