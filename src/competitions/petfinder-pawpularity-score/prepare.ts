import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import type { Column } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListedFiles } from "../../prepare/copy-listed.js";
import { dropColumns, selectColumns, trainTestSplitTable, withColumn } from "../../prepare/frame.js";
import { defaultRng } from "../../rng/generator.js";
import { pythonRoundHalfEven } from "../../rng/pandas-sample.js";

// numpy's Generator.uniform(1, 100, n).round(2): low + (high - low) * draw, then rint(x * 100) / 100.
function samplePawpularity(n: number): Column {
  const rng = defaultRng(0);
  const draws = rng.random(n) as number[];
  return { kind: "float", values: Float64Array.from(draws, (u) => pythonRoundHalfEven((1 + 99 * u) * 100) / 100) };
}

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the test set, photos follow
 * their rows; the sample submission holds uniform draws in [1, 100) from default_rng(0), 2 decimals.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const publicTest = dropColumns(test, ["Pawpularity"], file);
  const sample = withColumn(selectColumns(test, ["Id", "Pawpularity"], file), "Pawpularity", samplePawpularity(test.rowCount));
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  writeCsv(path.join(ctx.public, "test.csv"), publicTest);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  for (const [table, folder] of [[train, "train"], [publicTest, "test"]] as const) {
    copyListedFiles(table, "Id", { from: path.join(ctx.raw, "train"), to: path.join(ctx.public, folder), suffix: ".jpg", listedIn: file });
  }
}
