import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { isPyJsonObject, readPyJson, writePyJson, type PyJson, type PyJsonObject } from "../../pycompat/pyjson.js";
import { RandomState } from "../../rng/random-state.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";
import { frameColumn, frameRecords, frameTableColumn, pyStr, recordsFrame, valueKey, type RecordFrame } from "./records.js";

const TEST_SHARE = 0.22;
// Category ids on Kaggle run from 0 to 675; the sample submission guesses uniformly among them.
const CATEGORY_ID_BOUND = 676;

/**
 * Upstream's split: camera locations of Kaggle's train images are divided (random_state 0, 22%
 * to test), then whole locations are moved across until the test share reaches 22% by upstream's
 * own measure. The metadata JSON is rewritten per side, images are copied by id, answers are each
 * test annotation's category and the sample submission draws categories with numpy seed 0.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const trainFile = path.join(ctx.raw, "iwildcam2020_train_annotations.json");
  const testFile = path.join(ctx.raw, "iwildcam2020_test_information.json");
  const oldTrain = topLevel(readPyJson(trainFile), trainFile);
  const oldTest = topLevel(readPyJson(testFile), testFile);
  const annotations = recordsFrame(oldTrain.get("annotations"), `${trainFile} "annotations"`);
  const images = recordsFrame(oldTrain.get("images"), `${trainFile} "images"`);
  const trainCategories = recordsFrame(oldTrain.get("categories"), `${trainFile} "categories"`);
  const testCategories = recordsFrame(oldTest.get("categories"), `${testFile} "categories"`);

  const { trainRows, testRows } = splitByLocation(images, `${trainFile} "images"`);
  const imageIds = frameColumn(images, "id", `${trainFile} "images"`);
  const trainIds = uniqueValues(trainRows.map((i) => imageIds.values[i]), `${trainFile} image id`);
  const testIds = uniqueValues(testRows.map((i) => imageIds.values[i]), `${trainFile} image id`);
  const annotationImage = frameColumn(annotations, "image_id", `${trainFile} "annotations"`);
  const trainAnnotations = rowsWhere(annotationImage.values, trainIds, `${trainFile} annotation image_id`);
  const testAnnotations = rowsWhere(annotationImage.values, testIds, `${trainFile} annotation image_id`);

  writeAnswers(ctx, annotations, testAnnotations, `${trainFile} "annotations"`);
  const newTrain: PyJsonObject = new Map<string, PyJson>([
    ["annotations", frameRecords(annotations, trainAnnotations)],
    ["images", frameRecords(images, trainRows)],
    ["categories", frameRecords(trainCategories)],
    ["info", required(oldTrain, "info", trainFile)],
  ]);
  const newTest: PyJsonObject = new Map<string, PyJson>([
    ["images", frameRecords(images, testRows)],
    ["categories", frameRecords(testCategories)],
    ["info", required(oldTest, "info", testFile)],
  ]);
  writePyJson(path.join(ctx.public, "iwildcam2020_train_annotations.json"), newTrain);
  writePyJson(path.join(ctx.public, "iwildcam2020_test_information.json"), newTest);
  const detections = "iwildcam2020_megadetector_results.json";
  copyRequired(path.join(ctx.raw, detections), path.join(ctx.public, detections));

  copyImages(ctx, trainIds, "train", trainFile);
  copyImages(ctx, testIds, "test", trainFile);
}

function topLevel(v: PyJson, file: string): PyJsonObject {
  if (v === null || !isPyJsonObject(v)) throw new UserError(`${file}: expected a JSON object at the top level`);
  return v;
}

function required(o: PyJsonObject, key: string, file: string): PyJson {
  if (!o.has(key)) throw new UserError(`${file}: no "${key}" entry at the top level`);
  return o.get(key)!;
}

/**
 * Image rows per side. Counting rows per location stands in for upstream's re-filtering after
 * every move; the ratio it tests (test rows over all rows plus test rows) is kept as it is.
 */
function splitByLocation(images: RecordFrame, where: string): { trainRows: number[]; testRows: number[] } {
  const locations = frameColumn(images, "location", where).values;
  const keys = locations.map((v) => valueKey(v, `${where} location`));
  const perLocation = new Map<string, number>();
  for (const k of keys) perLocation.set(k, (perLocation.get(k) ?? 0) + 1);
  const unique = [...perLocation.keys()];
  const split = trainTestSplitIndices(unique.length, { testSize: TEST_SHARE, randomState: 0 });
  const trainLocs = split.train.map((i) => unique[i]);
  const testLocs = split.test.map((i) => unique[i]);
  const total = images.rowCount;
  let testCount = testLocs.reduce((n, k) => n + perLocation.get(k)!, 0);
  while (testCount / (total + testCount) < TEST_SHARE) {
    const moved = trainLocs.pop();
    if (moved === undefined) throw new UserError(`${where}: no train location left to move while balancing the test share`);
    testLocs.push(moved);
    testCount += perLocation.get(moved)!;
  }
  while (testCount / (total + testCount) > TEST_SHARE) {
    const moved = testLocs.pop()!;
    trainLocs.push(moved);
    testCount -= perLocation.get(moved)!;
  }
  const inTest = new Set(testLocs);
  const inTrain = new Set(trainLocs);
  return {
    trainRows: keys.flatMap((k, i) => (inTrain.has(k) ? [i] : [])),
    testRows: keys.flatMap((k, i) => (inTest.has(k) ? [i] : [])),
  };
}

/** pandas `Series.unique()`: first appearances, in order. */
function uniqueValues(values: PyJson[], where: string): Map<string, PyJson> {
  const out = new Map<string, PyJson>();
  for (const v of values) {
    const k = valueKey(v, where);
    if (!out.has(k)) out.set(k, v);
  }
  return out;
}

/** Row positions whose value is among `wanted` (pandas `isin`), in their original order. */
function rowsWhere(values: PyJson[], wanted: Map<string, PyJson>, where: string): number[] {
  const rows: number[] = [];
  values.forEach((v, i) => {
    if (wanted.has(valueKey(v, where))) rows.push(i);
  });
  return rows;
}

function writeAnswers(ctx: UpstreamPrepareContext, annotations: RecordFrame, rows: number[], where: string): void {
  const ids = frameTableColumn(frameColumn(annotations, "image_id", where), rows, where);
  const categories = frameTableColumn(frameColumn(annotations, "category_id", where), rows, where);
  writeCsv(path.join(ctx.private, "answers.csv"), makeTable([["Id", ids], ["Category", categories]]));
  const draws = new RandomState(0).randint(0, CATEGORY_ID_BOUND, rows.length);
  const guesses: Column = { kind: "int", values: Float64Array.from(draws) };
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([["Id", ids], ["Category", guesses]]));
}

function copyRequired(src: string, dest: string): void {
  if (!fs.existsSync(src)) throw new UserError(`${src} is missing`);
  fs.copyFileSync(src, dest);
}

/** Each image `<id>.jpg` from raw/train into public/<folder>, one file at a time. */
function copyImages(ctx: UpstreamPrepareContext, ids: Map<string, PyJson>, folder: string, listedIn: string): void {
  const dest = path.join(ctx.public, folder);
  fs.mkdirSync(dest, { recursive: true });
  for (const id of ids.values()) {
    const name = `${pyStr(id, `${listedIn} image id`)}.jpg`;
    const src = path.join(ctx.raw, "train", name);
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing (image listed in ${listedIn})`);
    fs.copyFileSync(src, path.join(dest, name));
  }
}
