import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, takeColumn, type Column, type Table } from "../../core/table.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { column, selectColumns, takeRows, withColumn } from "../../prepare/frame.js";
import { groupRows } from "../../prepare/groupby.js";
import { isMissing, takeWithMissing } from "../../prepare/merge.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

const TEST_COLUMNS = ["site_id", "patient_id", "image_id", "laterality", "view", "age", "implant", "machine_id"];

/** Distinct patient ids (as Python str) in order of first appearance (pandas `unique`). */
function uniquePatients(patients: Column): string[] {
  const seen = new Set<string>();
  for (let i = 0; i < patients.values.length; i++) seen.add(pyStrAt(patients, i));
  return [...seen];
}

/** Rows whose patient is (or is not) in `ids`, in file order. */
function rowsOf(t: Table, patients: Column, ids: Set<string>): Table {
  const rows: number[] = [];
  for (let i = 0; i < t.rowCount; i++) if (ids.has(pyStrAt(patients, i))) rows.push(i);
  return takeRows(t, rows);
}

/** `patient_id.astype(str) + "_" + laterality`; a missing laterality leaves the id missing. */
function predictionIds(t: Table, file: string): Column {
  const patients = column(t, "patient_id", file);
  const sides = column(t, "laterality", file);
  if (sides.kind !== "string") throw new UserError(`${file}: column "laterality" must hold text (L/R), found ${sides.kind} values`);
  return { kind: "string", values: sides.values.map((s, i) => (s === null ? null : `${pyStrAt(patients, i)}_${s}`)) };
}

/** `groupby("prediction_id").first().reset_index()` over (prediction_id, cancer): one row per id in text order. */
function firstPerPrediction(t: Table): Table {
  const ids = t.data.get("prediction_id")!;
  const cancer = t.data.get("cancer")!;
  const groups = groupRows(ids);
  return makeTable([
    ["prediction_id", takeColumn(ids, groups.map((g) => g.rows[0]))],
    ["cancer", takeWithMissing(cancer, groups.map((g) => g.rows.find((r) => !isMissing(cancer, r)) ?? -1))],
  ]);
}

/** pandas' mean of the train set's cancer column: the float64 sum over the non-missing count. */
function meanOf(col: Column, file: string): number {
  if (col.kind !== "int" && col.kind !== "float" && col.kind !== "bool") {
    throw new UserError(`${file}: column "cancer" must hold 0/1 labels, found ${col.kind} values`);
  }
  let sum = 0;
  let n = 0;
  // Pairwise summation would only matter for fractional labels; 0/1 sums are exact either way.
  for (const v of col.values) {
    if (!Number.isNaN(Number(v))) [sum, n] = [sum + Number(v), n + 1];
  }
  return sum / n;
}

/** Copy each row's `<image_id>.dcm` from Kaggle's train_images/<patient_id>/ into public/<folder>/<patient_id>/. */
function copyImages(ctx: UpstreamPrepareContext, t: Table, folder: string, file: string): void {
  const patients = column(t, "patient_id", file);
  const images = column(t, "image_id", file);
  for (let i = 0; i < t.rowCount; i++) {
    const p = pyStrAt(patients, i);
    const name = `${pyStrAt(images, i)}.dcm`;
    const src = path.join(ctx.raw, "train_images", p, name);
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing (row ${i + 1} of the ${folder} split of ${file})`);
    const dest = path.join(ctx.public, folder, p);
    fs.mkdirSync(dest, { recursive: true });
    fs.copyFileSync(src, path.join(dest, name));
  }
}

/**
 * Upstream's split: 10% of Kaggle's patients (random_state 42) become the test set; the answers
 * hold one cancer label per patient and breast, and the sample submission predicts the train
 * set's cancer rate.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const patients = column(old, "patient_id", file);
  const unique = uniquePatients(patients);
  const split = trainTestSplitIndices(unique.length, { testSize: 0.1, randomState: 42 });
  const train = rowsOf(old, patients, new Set(split.train.map((k) => unique[k])));
  const labelled = selectColumns(rowsOf(old, patients, new Set(split.test.map((k) => unique[k]))), [...TEST_COLUMNS, "cancer"], file);
  const withIds = withColumn(labelled, "prediction_id", predictionIds(labelled, file));
  const test = selectColumns(withIds, [...TEST_COLUMNS, "prediction_id"], file);
  const answers = firstPerPrediction(withIds);
  const rate = meanOf(column(train, "cancer", file), file);
  const sample = withColumn(answers, "cancer", { kind: "float", values: new Float64Array(answers.rowCount).fill(rate) });
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), test);
  writeCsv(path.join(ctx.private, "answers.csv"), answers);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  copyImages(ctx, train, "train_images", file);
  copyImages(ctx, test, "test_images", file);
}
