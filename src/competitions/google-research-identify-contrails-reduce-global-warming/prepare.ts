import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { listFiles } from "../../io/extract.js";
import { isPyJsonObject, readPyJson, writePyJson, type PyJson } from "../../pycompat/pyjson.js";
import { copyListed } from "../../prepare/copy-listed.js";
import { readNpyHeaderFields } from "../../pycompat/npy-header.js";
import { PythonRandom } from "../../rng/python-random.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";
import { npyTransposedMatches } from "./npy.js";

const BANDS = Array.from({ length: 9 }, (_, i) => `band_${String(i + 8).padStart(2, "0")}.npy`);
const MASKS = ["human_individual_masks.npy", "human_pixel_masks.npy"];

/**
 * Upstream's split: as many of Kaggle's train records as there are validation records (random_state
 * 0) become the test set. Answers are each test record's pixel mask as column-major run-length text
 * ("-" when empty) with the tile size; test records keep only their bands, train records also their
 * masks. The validation set is passed through; the sample submission picks each row's guess with
 * Python's random seeded 0.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const trainMetaFile = path.join(ctx.raw, "train_metadata.json");
  const validationMetaFile = path.join(ctx.raw, "validation_metadata.json");
  const trainMeta = jsonList(trainMetaFile);
  const validationMeta = jsonList(validationMetaFile);
  const split = trainTestSplitIndices(trainMeta.length, { testSize: validationMeta.length, randomState: 0 });
  const newTrain = split.train.map((i) => trainMeta[i]);
  const testIds = split.test.map((i) => recordId(trainMeta[i], trainMetaFile));
  const trainIds = newTrain.map((r) => recordId(r, trainMetaFile));

  const rawTrain = path.join(ctx.raw, "train");
  const answers = testIds.map((id) => answerRow(path.join(rawTrain, id)));
  const listedIn = "train_metadata.json";
  for (const id of trainIds) copyListed([...BANDS, ...MASKS], { from: path.join(rawTrain, id), to: path.join(ctx.public, "train", id), listedIn });
  for (const id of testIds) copyListed(BANDS, { from: path.join(rawTrain, id), to: path.join(ctx.public, "test", id), listedIn });

  copyValidation(ctx);
  writePyJson(path.join(ctx.public, "train_metadata.json"), newTrain);
  writeAnswers(ctx, testIds, answers);
}

function jsonList(file: string): PyJson[] {
  if (!fs.existsSync(file)) throw new UserError(`${file} is missing`);
  const v = readPyJson(file);
  if (!Array.isArray(v)) throw new UserError(`${file}: expected a JSON list of records`);
  return v;
}

function recordId(r: PyJson, file: string): string {
  const id = r !== null && isPyJsonObject(r) ? r.get("record_id") : undefined;
  if (typeof id !== "string" || id === "") throw new UserError(`${file}: every record needs a "record_id" string`);
  return id;
}

/** The run-length text of a record's pixel mask and the tile size of its first band. */
function answerRow(folder: string): { rle: string; height: number; width: number } {
  const dots = npyTransposedMatches(path.join(folder, "human_pixel_masks.npy"), 1);
  const runs: number[] = [];
  let prev = -2;
  for (const b of dots) {
    if (b > prev + 1) runs.push(b + 1, 0);
    runs[runs.length - 1] += 1;
    prev = b;
  }
  const bandFile = path.join(folder, "band_08.npy");
  const shape = readNpyHeaderFields(bandFile).shape;
  if (shape.length !== 3) throw new UserError(`${bandFile}: expected a 3-dimensional array (height, width, time), got shape (${shape.join(", ")})`);
  return { rle: runs.length > 0 ? runs.join(" ") : "-", height: shape[0], width: shape[1] };
}

/** The validation folder (created empty when absent, as upstream does) and its metadata, unchanged. */
function copyValidation(ctx: UpstreamPrepareContext): void {
  const src = path.join(ctx.raw, "validation");
  fs.mkdirSync(src, { recursive: true });
  const dest = path.join(ctx.public, "validation");
  fs.mkdirSync(dest, { recursive: true });
  for (const rel of listFiles(src)) {
    const to = path.join(dest, rel);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(path.join(src, rel), to);
  }
  fs.copyFileSync(path.join(ctx.raw, "validation_metadata.json"), path.join(ctx.public, "validation_metadata.json"));
}

function writeAnswers(ctx: UpstreamPrepareContext, ids: string[], rows: { rle: string; height: number; width: number }[]): void {
  const column = (pick: (r: (typeof rows)[number]) => number) => ({ kind: "int" as const, values: Float64Array.from(rows, pick) });
  const table = (encoded: string[]) =>
    makeTable([
      ["record_id", { kind: "string", values: ids }],
      ["encoded_pixels", { kind: "string", values: encoded }],
      ["height", column((r) => r.height)],
      ["width", column((r) => r.width)],
    ]);
  writeCsv(path.join(ctx.private, "answers.csv"), table(rows.map((r) => r.rle)));
  const rng = new PythonRandom(0);
  const guesses = rows.map(() => rng.choice(["1 3 10 5", "-"]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), table(guesses));
}
