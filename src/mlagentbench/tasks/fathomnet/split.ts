/**
 * MLAgentBench's split of the FathomNet 2023 data: 2% of the multilabel training images (pandas
 * `sample(frac=1, random_state=42)`, then the tail) become the test set; the object-detection
 * annotations are split to match, and the test images replace eval.json's.
 */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../../../core/errors.js";
import { makeTable } from "../../../core/table.js";
import { readCsv } from "../../../io/csv-read.js";
import { writeCsv } from "../../../io/csv-write.js";
import { isPyJsonObject, readPyJson, writePyJson, type PyJson, type PyJsonObject } from "../../../pycompat/pyjson.js";
import { column, takeRows } from "../../../prepare/frame.js";
import { PythonRandom } from "../../../rng/python-random.js";
import { sampleIndices } from "../../../rng/pandas-sample.js";
import { range, rawFile, textCells } from "../kaggle-data.js";

/** Seed of the Python `random.Random` that draws the test images' out-of-sample labels. */
export const OSD_SEED = 42;

function objectAt(v: PyJson, where: string): PyJsonObject {
  if (!isPyJsonObject(v)) throw new UserError(`${where} must be a JSON object`);
  return v;
}

function listAt(obj: PyJsonObject, key: string, where: string): PyJsonObject[] {
  const v = obj.get(key);
  if (!Array.isArray(v)) throw new UserError(`${where}: "${key}" must be a list`);
  return v.map((x, i) => objectAt(x, `${where}: ${key}[${i}]`));
}

function fileStem(image: PyJsonObject, where: string): string {
  const name = image.get("file_name");
  if (typeof name !== "string") throw new UserError(`${where}: an image has no "file_name" string`);
  // Python's file_name[:-4]: the name without its ".png".
  return Array.from(name).slice(0, -4).join("");
}

// Python's == between JSON numbers: an int equals a float of the same value.
function sameNumber(a: PyJson | undefined, b: PyJson | undefined): boolean {
  if ((typeof a === "bigint" || typeof a === "number") && (typeof b === "bigint" || typeof b === "number")) {
    return typeof a === typeof b ? a === b : Number(a) === Number(b);
  }
  return a === b;
}

// A key under which equal JSON numbers (int or float) meet, as Python's `in` finds them.
function numberKey(v: PyJson | undefined): unknown {
  return typeof v === "bigint" || typeof v === "number" ? Number(v) : v;
}

/** Split the extracted competition in `raw` into `pub` (training data, relabelled JSON) and `priv` (answer.csv). */
export function splitFathomnet(raw: string, pub: string, priv: string): void {
  const trainFile = rawFile(raw, "multilabel_classification/train.csv");
  const all = readCsv(trainFile, { file: trainFile });
  const shuffled = takeRows(all, sampleIndices(all.rowCount, { frac: 1, randomState: 42 }));
  const cut = Math.trunc(shuffled.rowCount * 0.98);
  const train = takeRows(shuffled, range(0, cut));
  const test = takeRows(shuffled, range(cut, shuffled.rowCount));
  fs.mkdirSync(path.join(pub, "multilabel_classification"), { recursive: true });
  writeCsv(path.join(pub, "multilabel_classification", "train.csv"), train);
  fs.copyFileSync(rawFile(raw, "category_key.csv"), path.join(pub, "category_key.csv"));

  const testIds = new Set(textCells(column(test, "id", trainFile)).filter((v): v is string => v !== null));
  const draw = new PythonRandom(OSD_SEED);
  const osd = Float64Array.from({ length: test.rowCount }, () => draw.randint(0, 1));
  writeCsv(
    path.join(priv, "answer.csv"),
    makeTable([
      ["id", column(test, "id", trainFile)],
      ["categories", column(test, "categories", trainFile)],
      ["osd", { kind: "int", values: osd }],
    ]),
  );
  splitDetection(raw, pub, testIds);
}

function splitDetection(raw: string, pub: string, testIds: Set<string>): void {
  const trainJsonFile = rawFile(raw, "object_detection/train.json");
  const evalJsonFile = rawFile(raw, "object_detection/eval.json");
  const orig = objectAt(readPyJson(trainJsonFile), trainJsonFile);
  const evalJson = objectAt(readPyJson(evalJsonFile), evalJsonFile);
  const images = listAt(orig, "images", trainJsonFile);
  const annotations = listAt(orig, "annotations", trainJsonFile);

  const trainImages = images.filter((x) => !testIds.has(fileStem(x, trainJsonFile)));
  const kept = new Set(trainImages.map((x) => numberKey(x.get("id"))));
  const trainAnnotations = annotations.filter((a) => kept.has(numberKey(a.get("image_id"))));
  const testImages = images.filter((x) => testIds.has(fileStem(x, trainJsonFile)));

  // Images are renumbered 1..n in order and their annotations follow them one image at a time,
  // exactly as upstream's loop does (including what it would do with ids that collide).
  trainImages.forEach((x, i) => {
    for (const a of trainAnnotations) if (sameNumber(a.get("image_id"), x.get("id"))) a.set("image_id", BigInt(i + 1));
    x.set("id", BigInt(i + 1));
  });
  trainAnnotations.forEach((a, i) => a.set("id", BigInt(i + 1)));
  testImages.forEach((x, i) => x.set("id", BigInt(i + 1)));

  const trainJson = new Map(orig);
  trainJson.set("images", trainImages);
  trainJson.set("annotations", trainAnnotations);
  evalJson.set("images", testImages);
  fs.mkdirSync(path.join(pub, "object_detection"), { recursive: true });
  writePyJson(path.join(pub, "object_detection", "train.json"), trainJson, { indent: 4 });
  writePyJson(path.join(pub, "object_detection", "eval.json"), evalJson, { indent: 4 });
}
