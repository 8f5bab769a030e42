import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { PrepareContext } from "../../core/competition.js";
import { makeTable } from "../../core/table.js";
import { writeFileAtomic } from "../../core/atomic.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";

/** Fixed so ids are reproducible; the value (the dataset's publication date) is otherwise arbitrary. */
const SEED = 20170825;
const SIDE = 28;
const PIXELS = SIDE * SIDE;
/** Sizes of the official split; anything else means the package ships different data. */
const TRAIN_COUNT = 60_000;
const TEST_COUNT = 10_000;

/** Class names by label, as the dataset's authors define them. */
export const CLASS_NAMES = [
  "T-shirt/top",
  "Trouser",
  "Pullover",
  "Dress",
  "Coat",
  "Sandal",
  "Shirt",
  "Sneaker",
  "Bag",
  "Ankle boot",
] as const;

const IMAGE_MAGIC = 2051;
const LABEL_MAGIC = 2049;

/** Read a gzipped IDX file, check its header, and return the payload after the header. */
export function readIdx(file: string, magic: number, dims: number[]): Uint8Array {
  let buf: Buffer;
  try {
    buf = zlib.gunzipSync(fs.readFileSync(file));
  } catch (e) {
    throw new Error(`${file}: cannot read as a gzipped IDX file (${(e as Error).message})`);
  }
  const header = 4 + 4 * dims.length;
  if (buf.length < header) throw new Error(`${file}: only ${buf.length} bytes, too short for an IDX header`);
  const found = buf.readUInt32BE(0);
  if (found !== magic) throw new Error(`${file}: IDX magic number ${found}, expected ${magic}`);
  const actual = dims.map((_, k) => buf.readUInt32BE(4 + 4 * k));
  if (actual.some((d, k) => d !== dims[k])) {
    throw new Error(`${file}: IDX dimensions ${actual.join("x")}, expected ${dims.join("x")}`);
  }
  const size = dims.reduce((a, b) => a * b, 1);
  if (buf.length !== header + size) {
    throw new Error(`${file}: ${buf.length - header} bytes of data after the header, expected ${size}`);
  }
  return buf.subarray(header);
}

function readLabels(file: string, count: number): Uint8Array {
  const labels = readIdx(file, LABEL_MAGIC, [count]);
  const bad = labels.findIndex((v) => v >= CLASS_NAMES.length);
  if (bad >= 0) throw new Error(`${file}: label ${labels[bad]} at item ${bad} is outside 0..${CLASS_NAMES.length - 1}`);
  return labels;
}

// Each pixel cell is "," plus up to three digits, stored in a 4-byte slot so the hot loop copies
// a fixed number of bytes and only advances by the true length.
const CELL_BYTES = new Uint8Array(256 * 4);
const CELL_LEN = new Uint8Array(256);
for (let v = 0; v < 256; v++) {
  const text = Buffer.from(`,${v}`, "latin1");
  CELL_BYTES.set(text, v * 4);
  CELL_LEN[v] = text.length;
}

/** Longest possible row: an id, a label and every pixel at three digits, plus the newline. */
const MAX_ROW = 16 + 4 + 4 * PIXELS + 1;
const CHUNK = 1 << 22;

/**
 * The CSV bytes of a pixel table, in chunks of a few MB, so the 130 MB train file never exists
 * in memory as a whole (nor as a JavaScript string, which would be slower to build and encode).
 */
function* pixelCsvChunks(
  rows: number[],
  ids: number[],
  images: Uint8Array,
  labels: Uint8Array | null,
): Generator<Uint8Array, void, undefined> {
  const names = ["id", ...(labels ? ["label"] : []), ...Array.from({ length: PIXELS }, (_, j) => `pixel${j}`)];
  yield Buffer.from(names.join(",") + "\n", "latin1");
  let out = Buffer.allocUnsafe(CHUNK + MAX_ROW);
  let pos = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    pos += out.write(labels ? `${ids[i]},${labels[row]}` : String(ids[i]), pos, "latin1");
    const base = row * PIXELS;
    for (let j = 0; j < PIXELS; j++) {
      const v = images[base + j];
      const s = v << 2;
      out[pos] = CELL_BYTES[s];
      out[pos + 1] = CELL_BYTES[s + 1];
      out[pos + 2] = CELL_BYTES[s + 2];
      out[pos + 3] = CELL_BYTES[s + 3];
      pos += CELL_LEN[v];
    }
    out[pos++] = 0x0a;
    if (pos >= CHUNK) {
      yield out.subarray(0, pos);
      // A fresh buffer, so a consumer may keep the chunk it was given.
      out = Buffer.allocUnsafe(CHUNK + MAX_ROW);
      pos = 0;
    }
  }
  if (pos > 0) yield out.subarray(0, pos);
}

/**
 * Publish the official Fashion-MNIST split as Kaggle-style pixel CSVs: the 60,000 training
 * images (with labels) and the 10,000 test images (labels held back). One shuffle numbers all
 * 70,000 images, so ids are disjoint across the files and say nothing about the split.
 */
export function prepare(ctx: PrepareContext): void {
  const { sources } = ctx;
  const trainImages = readIdx(sources.trainImages, IMAGE_MAGIC, [TRAIN_COUNT, SIDE, SIDE]);
  const trainLabels = readLabels(sources.trainLabels, TRAIN_COUNT);
  const testImages = readIdx(sources.testImages, IMAGE_MAGIC, [TEST_COUNT, SIDE, SIDE]);
  const testLabels = readLabels(sources.testLabels, TEST_COUNT);

  // Position k of the shuffled order gets id k + 1; values below TRAIN_COUNT are training images.
  const order = new Mulberry32(SEED).shuffle(Array.from({ length: TRAIN_COUNT + TEST_COUNT }, (_, i) => i));
  const trainRows: number[] = [];
  const trainIds: number[] = [];
  const testRows: number[] = [];
  const testIds: number[] = [];
  order.forEach((image, k) => {
    if (image < TRAIN_COUNT) {
      trainRows.push(image);
      trainIds.push(k + 1);
    } else {
      testRows.push(image - TRAIN_COUNT);
      testIds.push(k + 1);
    }
  });
  writeFileAtomic(path.join(ctx.public, "train.csv"), pixelCsvChunks(trainRows, trainIds, trainImages, trainLabels));
  writeFileAtomic(path.join(ctx.public, "test.csv"), pixelCsvChunks(testRows, testIds, testImages, null));

  const testIdColumn = { kind: "int" as const, values: Float64Array.from(testIds) };
  writeCsv(
    path.join(ctx.public, "sample_submission.csv"),
    makeTable([["id", testIdColumn], ["label", { kind: "int", values: new Float64Array(testIds.length) }]]),
  );
  writeCsv(
    path.join(ctx.public, "classes.csv"),
    makeTable([
      ["label", { kind: "int", values: Float64Array.from(CLASS_NAMES, (_, k) => k) }],
      ["name", { kind: "string", values: [...CLASS_NAMES] }],
    ]),
  );
  writeCsv(
    path.join(ctx.private, "test.csv"),
    makeTable([["id", testIdColumn], ["label", { kind: "int", values: Float64Array.from(testRows, (r) => testLabels[r]) }]]),
  );
}
