import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { withColumn } from "../../prepare/frame.js";

/** The six label columns, in Kaggle's order. */
export const CLASSES = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"];

function readRaw(raw: string, name: string): Table {
  const file = path.join(raw, name);
  const t = readCsv(file, { file });
  if (!t.data.has("id")) throw new UserError(`${file}: no "id" column (columns: ${t.columns.join(", ")})`);
  return t;
}

/**
 * Kaggle's own test set is kept: train.csv and test.csv are rewritten as they are, test_labels.csv
 * (with its -1 rows for unscored comments) becomes the answers, and the sample submission says 0.5.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  for (const name of ["train", "test", "test_labels", "sample_submission"]) {
    await extractArchive(path.join(ctx.raw, `${name}.csv.zip`), ctx.raw);
  }
  const train = readRaw(ctx.raw, "train.csv");
  const test = readRaw(ctx.raw, "test.csv");
  const answers = readRaw(ctx.raw, "test_labels.csv");
  let sample = readRaw(ctx.raw, "sample_submission.csv");
  for (const [name, t] of [["test_labels.csv", answers], ["sample_submission.csv", sample]] as const) {
    if (t.rowCount !== test.rowCount) {
      throw new UserError(`${path.join(ctx.raw, name)} has ${t.rowCount} rows but test.csv has ${test.rowCount}; they should list the same comments`);
    }
  }
  const half = { kind: "float" as const, values: new Float64Array(sample.rowCount).fill(0.5) };
  for (const c of CLASSES) sample = withColumn(sample, c, half);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), test);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  writeCsv(path.join(ctx.private, "test.csv"), answers);
}
