import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyTree } from "../../prepare/copy-tree.js";
import { takeRows, trainTestSplitTable } from "../../prepare/frame.js";
import { comparePyStrings } from "../../prepare/groupby.js";

// Study-level answers name the class of the first column (after the id) holding the row's largest value.
const STUDY_LABELS = ["negative", "typical", "indeterminate", "atypical"];

/** A text column of `t`, or a UserError naming the file and what was found. */
function textColumn(t: Table, name: string, file: string): (string | null)[] {
  const col = t.data.get(name);
  if (!col) throw new UserError(`${file}: no "${name}" column (columns: ${t.columns.join(", ")})`);
  if (col.kind !== "string") throw new UserError(`${file}: column "${name}" must hold text ids, found ${col.kind} values`);
  return col.values;
}

/** Rows of `t` ordered by column `name` as pandas' sort_values does for text (missing values last). */
function sortById(t: Table, name: string, file: string): Table {
  const ids = textColumn(t, name, file);
  const order = Array.from({ length: t.rowCount }, (_, i) => i);
  order.sort((a, b) => {
    const x = ids[a];
    const y = ids[b];
    if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0);
    return comparePyStrings(x, y);
  });
  return takeRows(t, order);
}

/** Positions of the first largest value in each row over the columns after the first (numpy argmax). */
function studyLabels(study: Table, file: string): string[] {
  const cols = study.columns.slice(1).map((c) => study.data.get(c)!);
  return Array.from({ length: study.rowCount }, (_, i) => {
    let best = -1;
    let bestValue = -Infinity;
    cols.forEach((col, j) => {
      if (col.kind !== "int" && col.kind !== "float" && col.kind !== "bool") {
        throw new UserError(`${file}: column "${study.columns[j + 1]}" must hold 0/1 class indicators, found ${col.kind} values`);
      }
      const v = Number(col.values[i]);
      if (Number.isNaN(v)) throw new UserError(`${file}: column "${study.columns[j + 1]}" has a missing value in row ${i + 1}`);
      if (v > bestValue) [best, bestValue] = [j, v];
    });
    const label = STUDY_LABELS[best];
    if (label === undefined) throw new UserError(`${file}: expected the id and four class columns, found ${study.columns.length} columns`);
    return label;
  });
}

/** Images whose study (StudyInstanceUID + "_study") is one of `studyIds`, sorted by image id. */
function imagesOf(images: Table, studyIds: Set<string>, file: string): Table {
  const studies = textColumn(images, "StudyInstanceUID", file);
  const rows: number[] = [];
  studies.forEach((s, i) => {
    if (s !== null && studyIds.has(`${s}_study`)) rows.push(i);
  });
  return sortById(takeRows(images, rows), "id", file);
}

/** Copy each study's folder (series/image.dcm) from Kaggle's train/ to public/<split>/. */
function copyStudies(ctx: UpstreamPrepareContext, ids: (string | null)[], split: string, file: string): void {
  ids.forEach((id, i) => {
    if (id === null) throw new UserError(`${file}: row ${i + 1} of the ${split} split has no study id`);
    const study = id.split("_study").join("");
    copyTree(path.join(ctx.raw, "train", study), path.join(ctx.public, split, study), `folder of DICOM series for study ${id}`);
  });
}

/** A two-column id/PredictionString table. */
function predictions(ids: (string | null)[], strings: (string | null)[]): Table {
  const col = (values: (string | null)[]): Column => ({ kind: "string", values });
  return makeTable([["id", col(ids)], ["PredictionString", col(strings)]]);
}

/**
 * Upstream's split: 10% of Kaggle's studies (random_state 0) become the test set, images follow
 * their study, both sorted by id; the answers hold one row per test study (its class with a dummy
 * box) then one per test image (its label string).
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const studyFile = path.join(ctx.raw, "train_study_level.csv");
  const imageFile = path.join(ctx.raw, "train_image_level.csv");
  const split = trainTestSplitTable(readCsv(studyFile, { file: studyFile }), { testSize: 0.1, randomState: 0 });
  const trainStudy = sortById(split.train, "id", studyFile);
  const testStudy = sortById(split.test, "id", studyFile);
  writeCsv(path.join(ctx.public, "train_study_level.csv"), trainStudy);

  const images = readCsv(imageFile, { file: imageFile });
  const studyIds = (t: Table) => new Set(textColumn(t, "id", studyFile).filter((v): v is string => v !== null));
  const trainImage = imagesOf(images, studyIds(trainStudy), imageFile);
  const testImage = imagesOf(images, studyIds(testStudy), imageFile);
  writeCsv(path.join(ctx.public, "train_image_level.csv"), trainImage);

  const trainIds = textColumn(trainStudy, "id", studyFile);
  const testIds = textColumn(testStudy, "id", studyFile);
  copyStudies(ctx, trainIds, "train", studyFile);
  copyStudies(ctx, testIds, "test", studyFile);

  const imageIds = textColumn(testImage, "id", imageFile);
  const imageLabels = textColumn(testImage, "label", imageFile);
  const ids = [...testIds, ...imageIds];
  const answers = [...studyLabels(testStudy, studyFile).map((l) => `${l} 1 0 0 1 1`), ...imageLabels];
  const dummy = [...testIds.map(() => "negative 1 0 0 1 1"), ...imageIds.map(() => "none 1 0 0 1 1")];
  writeCsv(path.join(ctx.private, "test.csv"), predictions(ids, answers));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), predictions(ids, dummy));
}
