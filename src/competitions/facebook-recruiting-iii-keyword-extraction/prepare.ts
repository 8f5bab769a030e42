import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { dropColumns, trainTestSplitTable, withColumn } from "../../prepare/frame.js";

/** The tags upstream's sample submission predicts for every question. */
const SAMPLE_TAGS = "javascript c# python php java";

/**
 * Upstream's split: Train.zip is unpacked and 10% of Train.csv (random_state 0) becomes the test
 * set; the private answers are the test rows with their Tags, the sample submission the test rows
 * with a fixed tag list.
 *
 * Upstream reads Id and Tags as text. Kaggle's ids are plain decimal integers and its tags are
 * never numbers, so pandas' inferred types print the same bytes here. Train.csv is about 7 GB:
 * the whole table is held in memory, as upstream's pandas does.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  await extractArchive(path.join(ctx.raw, "Train.zip"), ctx.raw);
  const file = path.join(ctx.raw, "Train.csv");
  const old = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const testPublic = dropColumns(test, ["Tags"], file);
  const tags = { kind: "string" as const, values: new Array<string>(test.rowCount).fill(SAMPLE_TAGS) };
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), testPublic);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(testPublic, "Tags", tags));
  writeCsv(path.join(ctx.private, "test.csv"), test);
}
