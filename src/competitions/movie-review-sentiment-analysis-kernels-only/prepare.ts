import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { writeZip } from "../../io/zip-write.js";
import { dropColumns, selectColumns, trainTestSplitTable, withColumn } from "../../prepare/frame.js";
import { readTsv, writeTsv } from "./tsv.js";

/** Write `table` as public/<name> inside public/<name>.zip, as upstream's make_archive + unlink leaves it. */
async function writeZippedTsv(dir: string, name: string, table: Parameters<typeof writeTsv>[1]): Promise<void> {
  const file = path.join(dir, name);
  writeTsv(file, table);
  await writeZip(`${file}.zip`, [{ source: file, name }]);
  fs.rmSync(file);
}

/**
 * Upstream's split: 30% of Kaggle's train.tsv (random_state 0) becomes the test phrases; the
 * public train/test TSVs ship zipped, and the sample submission predicts sentiment 2.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  await extractArchive(path.join(ctx.raw, "train.tsv.zip"), ctx.raw);
  const file = path.join(ctx.raw, "train.tsv");
  const old = readTsv(file);
  const { train, test: answers } = trainTestSplitTable(old, { testSize: 0.3, randomState: 0 });
  const twos = { kind: "int" as const, values: new Float64Array(answers.rowCount).fill(2) };
  const sample = withColumn(selectColumns(answers, ["PhraseId", "Sentiment"], file), "Sentiment", twos);
  writeCsv(path.join(ctx.private, "answers.csv"), answers);
  await writeZippedTsv(ctx.public, "train.tsv", train);
  await writeZippedTsv(ctx.public, "test.tsv", dropColumns(answers, ["Sentiment"], file));
  writeCsv(path.join(ctx.public, "sampleSubmission.csv"), sample);
}
