import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { pyFloatRepr } from "../../pycompat/pyfloat.js";
import { column, selectColumns, takeRows, trainTestSplitTable } from "../../prepare/frame.js";

const INFO = "HuBMAP-20-dataset_information.csv";
// Each slide comes with its glomerulus polygons and its anatomical-structure polygons.
const SLIDE_FILES = (id: string): string[] => [`${id}.tiff`, `${id}.json`, `${id}-anatomical-structure.json`];

/**
 * Upstream's split of Kaggle's 15 labelled slides: 12 stay in train and 3 become the test set
 * (random_state 0). The dataset information keeps only labelled slides; the private test set
 * gains each slide's width and height (for decoding masks when grading). Slides and their
 * polygon files are copied per side, and the empty sample submission also goes into test/.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const trainFile = path.join(ctx.raw, "train.csv");
  const infoFile = path.join(ctx.raw, INFO);
  const oldTrain = readCsv(trainFile, { file: trainFile });
  const oldInfo = readCsv(infoFile, { file: infoFile });
  const { train, test } = trainTestSplitTable(oldTrain, { trainSize: 12, testSize: 3, randomState: 0 });

  const infoIds = slideIds(oldInfo, infoFile);
  const labelled = new Set(keys(column(oldTrain, "id", trainFile)));
  const keptInfo = takeRows(oldInfo, infoIds.flatMap((k, i) => (labelled.has(k) ? [i] : [])));
  const keptIds = infoIds.filter((k) => labelled.has(k));
  const newTest = innerMergeSizes(test, keptInfo, keptIds, infoFile, trainFile);

  writeCsv(path.join(ctx.public, INFO), keptInfo);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), newTest);
  const ids = column(newTest, "id", trainFile);
  const blanks: Column = { kind: "string", values: new Array<string | null>(newTest.rowCount).fill("") };
  const sample = makeTable([["id", ids], ["predicted", blanks]]);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  writeCsv(path.join(ctx.private, "gold_submission.csv"), makeTable([["id", ids], ["predicted", column(newTest, "encoding", trainFile)]]));

  copySlides(ctx, train, "train", trainFile);
  copySlides(ctx, newTest, "test", trainFile);
  fs.copyFileSync(path.join(ctx.public, "sample_submission.csv"), path.join(ctx.public, "test", "sample_submission.csv"));
}

/** Hash keys with pandas' matching for isin/merge: equal text, equal numbers, and NaN matching NaN. */
function keys(col: Column): string[] {
  return Array.from({ length: col.values.length }, (_, i) => {
    const v = cellAt(col, i);
    if (v === null) return "nan";
    return typeof v === "string" ? `s${v}` : `n${String(v)}`;
  });
}

/** The slide id of each info row: image_file with every ".tiff" removed (str.replace, literal). */
function slideIds(info: Table, file: string): string[] {
  const col = column(info, "image_file", file);
  if (col.kind !== "string") throw new UserError(`${file}: column "image_file" should hold file names like "aaa6a05cc.tiff"`);
  return col.values.map((v) => (v === null ? "nan" : `s${v.split(".tiff").join("")}`));
}

/**
 * `test.merge(info[["id", "width_pixels", "height_pixels"]], on="id")`: an inner join that keeps
 * the test rows' order, each row repeated once per matching info row.
 */
function innerMergeSizes(test: Table, info: Table, infoIds: string[], infoFile: string, trainFile: string): Table {
  const sizes = selectColumns(info, ["width_pixels", "height_pixels"], infoFile);
  const byId = new Map<string, number[]>();
  infoIds.forEach((k, i) => byId.set(k, [...(byId.get(k) ?? []), i]));
  const left: number[] = [];
  const right: number[] = [];
  keys(column(test, "id", trainFile)).forEach((k, i) => {
    for (const j of byId.get(k) ?? []) {
      left.push(i);
      right.push(j);
    }
  });
  const l = takeRows(test, left);
  const r = takeRows(sizes, right);
  return makeTable([...l.columns.map((c): [string, Column] => [c, l.data.get(c)!]), ...r.columns.map((c): [string, Column] => [c, r.data.get(c)!])]);
}

/** Python's f"{value}" for a cell, which is how upstream names the slide files. */
function cellText(col: Column, i: number): string {
  const v = cellAt(col, i);
  if (v === null) return "nan";
  if (typeof v === "number") return col.kind === "float" ? pyFloatRepr(v) : String(v);
  if (typeof v === "boolean") return v ? "True" : "False";
  return String(v);
}

function copySlides(ctx: UpstreamPrepareContext, t: Table, folder: string, listedIn: string): void {
  const dest = path.join(ctx.public, folder);
  fs.mkdirSync(dest, { recursive: true });
  const ids = column(t, "id", listedIn);
  for (let i = 0; i < t.rowCount; i++) {
    for (const name of SLIDE_FILES(cellText(ids, i))) {
      const src = path.join(ctx.raw, "train", name);
      if (!fs.existsSync(src)) throw new UserError(`${src} is missing (slide listed in ${listedIn})`);
      fs.copyFileSync(src, path.join(dest, name));
    }
  }
}
