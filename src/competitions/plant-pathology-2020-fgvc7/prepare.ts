import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListed } from "../../prepare/copy-listed.js";
import { trainTestSplitTable, withColumn } from "../../prepare/frame.js";

const LABELS = ["healthy", "multiple_diseases", "rust", "scab"];

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the test set; photos are
 * renamed Train_<i> and Test_<i> in split order (so names leak nothing) and copied into
 * public/images; the sample submission gives each label 0.25.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const expected = ["image_id", ...LABELS];
  if (old.columns.length !== expected.length || !expected.every((c) => old.columns.includes(c))) {
    throw new UserError(`${file}: expected columns ${expected.join(", ")} (got ${old.columns.join(", ")})`);
  }
  const oldIds = imageIds(old, file);
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const renamed = new Map<string, string>();
  distinct(imageIds(train, file)).forEach((id, i) => renamed.set(id, `Train_${i}`));
  distinct(imageIds(test, file)).forEach((id, i) => renamed.set(id, `Test_${i}`));
  const newTrain = withColumn(train, "image_id", renameIds(imageIds(train, file), renamed));
  const answers = withColumn(test, "image_id", renameIds(imageIds(test, file), renamed));
  const testIds = answers.data.get("image_id")!;
  copyListed(oldIds, { from: path.join(ctx.raw, "images"), to: path.join(ctx.public, "images"), suffix: ".jpg", listedIn: "train.csv", rename: (id) => renamed.get(id) ?? id });
  writeCsv(path.join(ctx.private, "test.csv"), answers);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), quarterSubmission(testIds, answers.rowCount));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([["image_id", testIds]]));
  writeCsv(path.join(ctx.public, "train.csv"), newTrain);
}

/** The image_id column as text; upstream only accepts Kaggle's Train_ photos. */
function imageIds(t: Table, file: string): string[] {
  const col = t.data.get("image_id")!;
  if (col.kind !== "string") throw new UserError(`${file}: image_id should hold names like Train_0`);
  return col.values.map((v, i) => {
    if (v === null || !v.startsWith("Train_")) {
      throw new UserError(`${file}: row ${i + 1} has image_id ${v === null ? "missing" : JSON.stringify(v)}, expected a name starting with Train_`);
    }
    return v;
  });
}

/** Values in order of first appearance (pandas `Series.unique`). */
function distinct(values: string[]): string[] {
  return [...new Set(values)];
}

/** Each id looked up once in the old-to-new map, so a new name is never renamed again (pandas `replace(dict)`). */
function renameIds(ids: string[], renamed: Map<string, string>): Column {
  return { kind: "string", values: ids.map((id) => renamed.get(id) ?? id) };
}

/** The test ids with each label column set to the float 0.25. */
function quarterSubmission(ids: Column, rows: number): Table {
  return makeTable([["image_id", ids], ...LABELS.map((c): [string, Column] => [c, { kind: "float", values: new Float64Array(rows).fill(0.25) }])]);
}
