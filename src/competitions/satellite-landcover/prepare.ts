import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { oneHotColumns } from "../_shared/one-hot-columns.js";
import { indices, randomIds } from "../_shared/random-ids.js";
import { requiredText, sourceColumn } from "../_shared/source-columns.js";
import { stratifiedRows } from "../_shared/stratified-rows.js";
import { CLASSES } from "./grade.js";

/** Share of each class held out as the test set. */
const TEST_FRACTION = 0.3;
const SEED = 19930801;
/** Pixels of the 3 x 3 window (read left to right, top to bottom) and spectral bands per pixel. */
const PIXELS = 9;
const BANDS = 4;
/** The source's class names and the column names published for them. */
const CLASS_OF: Record<string, string> = {
  "red soil": "red_soil",
  "cotton crop": "cotton_crop",
  "grey soil": "grey_soil",
  "damp grey soil": "damp_grey_soil",
  "vegetation stubble": "vegetation_stubble",
  "very damp grey soil": "very_damp_grey_soil",
};

/** The published name of the source's column x.k: its pixel of the window and its band. */
export function featureName(k: number): string {
  return `p${Math.floor((k - 1) / BANDS) + 1}_b${((k - 1) % BANDS) + 1}`;
}

/**
 * Split mlbench's `Satellite` (the StatLog Landsat windows: 4 spectral bands of each pixel of a
 * 3 x 3 window, the class of the central pixel) into a labelled train set and a test set holding
 * 30% of each class. The 36 columns x.1 ... x.36 are published as p<pixel>_b<band>; each must
 * be a whole number from 0 to 255. Ids come from a seeded shuffle of all rows, so they say
 * nothing about the class, the side of the split or the source's order.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.satellite;
  const source = readCsv(file, { file });
  const n = source.rowCount;
  const features = Array.from({ length: PIXELS * BANDS }, (_, i) => {
    const col = sourceColumn(source, `x.${i + 1}`, file);
    if (col.kind !== "int") throw new Error(`${file}: column "x.${i + 1}" should hold whole numbers (pixel values), but it was read as ${col.kind}`);
    const bad = col.values.findIndex((v) => !(v >= 0 && v <= 255));
    if (bad >= 0) throw new Error(`${file}: data row ${bad + 1} has x.${i + 1} = ${col.values[bad]}, expected a pixel value from 0 to 255`);
    return col;
  });
  const classes = requiredText(sourceColumn(source, "classes", file), "classes", file).map((c, i) => {
    const name = CLASS_OF[c];
    if (name === undefined) throw new Error(`${file}: data row ${i + 1} has classes "${c}", expected one of ${Object.keys(CLASS_OF).join(", ")}`);
    return name;
  });

  const rng = new Mulberry32(SEED);
  const all = indices(n);
  const testRows = stratifiedRows(rng.shuffle([...all]), (i) => classes[i], CLASSES, TEST_FRACTION);
  const { sortById, column: ids } = randomIds(rng, all);
  const train = sortById(all.filter((i) => !testRows.has(i)));
  const test = sortById(all.filter((i) => testRows.has(i)));

  const pixels = (rows: number[]): [string, Column][] =>
    features.map((col, k) => [featureName(k + 1), { kind: "int", values: Float64Array.from(rows, (i) => col.values[i]) }]);
  const label = (rows: number[]): [string, Column] => ["class", { kind: "string", values: rows.map((i) => classes[i]) }];

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), ...pixels(train), label(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), ...pixels(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), ...oneHotColumns(CLASSES, test, () => 1 / CLASSES.length, "float")]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), ...oneHotColumns(CLASSES, test, (i, c) => (classes[i] === c ? 1 : 0), "int")]));
}
