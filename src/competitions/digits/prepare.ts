import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { CLASSES } from "./grade.js";
import { oneHotColumns } from "../_shared/one-hot-columns.js";
import { randomIds } from "../_shared/random-ids.js";

/** Share of images held out as the test set, per digit (stratified). */
const TEST_FRACTION = 0.3;
const SEED = 19980701;
/** Pixels per image: 8 x 8 blocks, each counting the "on" pixels of a 4 x 4 block (0..16). */
export const PIXELS = 64;
const MAX_PIXEL = 16;
/** Images in scikit-learn's copy; anything else means the package ships different data. */
const EXPECTED_ROWS = 1797;

/** The pixel column names, row-major over the 8 x 8 image. */
export const PIXEL_COLUMNS = Array.from({ length: PIXELS }, (_, k) => `pixel${k}`);

/** Parsed source: pixels row-major (image i at i * PIXELS), one label per image. */
export interface DigitImages {
  pixels: Uint8Array;
  labels: Uint8Array;
}

/** Parse and validate the gunzipped source text: 64 pixels in 0..16 then a label in 0..9 per line, no header. */
export function parseDigits(text: string, file: string): DigitImages {
  const lines = text.split("\n");
  // One newline after the last record is expected; anything more is a blank line and an error below.
  if (lines[lines.length - 1] === "") lines.pop();
  const n = lines.length;
  const pixels = new Uint8Array(n * PIXELS);
  const labels = new Uint8Array(n);
  lines.forEach((line, i) => {
    const where = `${file}: line ${i + 1}`;
    const fields = line.split(",");
    if (fields.length !== PIXELS + 1) {
      throw new Error(`${where} has ${fields.length} fields, expected ${PIXELS + 1} (64 pixels then the label)`);
    }
    fields.forEach((field, k) => {
      // Strict digits only: Number() would also accept "", " 3", "1e1" and "0x1".
      const v = /^\d{1,2}$/.test(field) ? Number(field) : NaN;
      if (k < PIXELS) {
        if (!(v <= MAX_PIXEL)) throw new Error(`${where}: pixel ${k} is ${JSON.stringify(field)}, not an integer in 0..${MAX_PIXEL}`);
        pixels[i * PIXELS + k] = v;
      } else {
        if (!(v < CLASSES.length)) throw new Error(`${where}: label is ${JSON.stringify(field)}, not a digit 0..9`);
        labels[i] = v;
      }
    });
  });
  return { pixels, labels };
}

/**
 * Split the 1,797 digit images into a labelled train set and an unlabelled test set holding
 * 30% of each digit. Ids come from a separate shuffle, so they carry no information about the
 * label or the image's position in the source file.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.digits;
  let text: string;
  try {
    text = zlib.gunzipSync(fs.readFileSync(file)).toString("utf8");
  } catch (e) {
    throw new Error(`${file}: cannot read as a gzipped CSV file (${(e as Error).message})`);
  }
  const { pixels, labels } = parseDigits(text, file);
  const n = labels.length;
  if (n !== EXPECTED_ROWS) throw new Error(`${file}: ${n} images, expected ${EXPECTED_ROWS}`);

  const rng = new Mulberry32(SEED);
  const all = () => Array.from({ length: n }, (_, i) => i);
  const order = rng.shuffle(all());
  const testRows = new Set<number>();
  for (let label = 0; label < CLASSES.length; label++) {
    const members = order.filter((i) => labels[i] === label);
    members.slice(0, Math.round(members.length * TEST_FRACTION)).forEach((i) => testRows.add(i));
  }
  // A second shuffle, so an id says nothing about which side of the split its image fell on.
  const { sortById, column: ids } = randomIds(rng, all());
  const train = sortById(all().filter((i) => !testRows.has(i)));
  const test = sortById(all().filter((i) => testRows.has(i)));

  const int = (rows: number[], value: (row: number) => number): Column => ({ kind: "int", values: Float64Array.from(rows, value) });
  const image = (rows: number[]): [string, Column][] =>
    PIXEL_COLUMNS.map((name, k) => [name, int(rows, (i) => pixels[i * PIXELS + k])]);

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), ["label", int(train, (i) => labels[i])], ...image(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), ...image(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), ...oneHotColumns(CLASSES, test, () => 1 / CLASSES.length, "float")]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), ...oneHotColumns(CLASSES, test, (i, _name, label) => (labels[i] === label ? 1 : 0), "int")]));
}
