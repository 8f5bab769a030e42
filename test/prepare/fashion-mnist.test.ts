import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/fashion-mnist/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { readIdx } from "../../src/competitions/fashion-mnist/prepare.js";
import { competitionPaths } from "../../src/core/paths.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, prepareCompetition, recordedChecksums } from "../../src/prepare/prepare.js";
import { resolveSource } from "../../src/sources/packages.js";
import { tempDir } from "../helpers/data-dir.js";

const competition = await loadGrader(entry);

const PIXELS = 784;

/** A pixel CSV parsed by hand, so the bytes themselves are checked and pixels take 47 MB, not readCsv's ~400 MB of doubles. */
interface PixelCsv {
  header: string[];
  ids: Int32Array;
  labels: Uint8Array | null;
  pixels: Uint8Array;
}

/**
 * Parse a file of plain non-negative integers; any other byte (sign, dot, quote, space, CR)
 * fails, so this also proves the pixel values are written as integers.
 */
function readPixelCsv(file: string, rows: number, labelled: boolean): PixelCsv {
  const buf = fs.readFileSync(file);
  const headerEnd = buf.indexOf(0x0a);
  const header = buf.subarray(0, headerEnd).toString("latin1").split(",");
  const fields = header.length;
  const ids = new Int32Array(rows);
  const labels = labelled ? new Uint8Array(rows) : null;
  const pixels = new Uint8Array(rows * PIXELS);
  let row = 0;
  let field = 0;
  let value = 0;
  let digits = 0;
  const store = () => {
    if (digits === 0) throw new Error(`${file}: empty field in data row ${row + 1}`);
    if (field === 0) ids[row] = value;
    else if (labels && field === 1) labels[row] = value;
    else {
      if (value > 255) throw new Error(`${file}: pixel value ${value} in data row ${row + 1}`);
      pixels[row * PIXELS + field - (labels ? 2 : 1)] = value;
    }
  };
  for (let i = headerEnd + 1; i < buf.length; i++) {
    const b = buf[i];
    if (b >= 0x30 && b <= 0x39) {
      value = value * 10 + (b - 0x30);
      digits++;
    } else if (b === 0x2c || b === 0x0a) {
      if (row >= rows) throw new Error(`${file}: more than ${rows} data rows`);
      store();
      value = 0;
      digits = 0;
      if (b === 0x2c) field++;
      else {
        if (field !== fields - 1) throw new Error(`${file}: data row ${row + 1} has ${field + 1} fields, expected ${fields}`);
        field = 0;
        row++;
      }
    } else {
      throw new Error(`${file}: byte ${b} at offset ${i} is not part of a plain integer`);
    }
  }
  if (row !== rows || field !== 0 || digits !== 0) throw new Error(`${file}: ${row} complete data rows, expected ${rows}`);
  return { header, ids, labels, pixels };
}

/** md5 of each image's bytes plus its label, sorted: equal lists mean the same labelled images. */
function imageKeys(pixels: Uint8Array, labels: ArrayLike<number>): string[] {
  return Array.from({ length: labels.length }, (_, i) =>
    createHash("md5").update(pixels.subarray(i * PIXELS, (i + 1) * PIXELS)).digest("hex") + labels[i],
  ).sort();
}

function counts(labels: ArrayLike<number>): number[] {
  const out = new Array<number>(10).fill(0);
  for (let i = 0; i < labels.length; i++) out[labels[i]]++;
  return out;
}

function raw(name: string): Uint8Array {
  return new Uint8Array(zlib.gunzipSync(fs.readFileSync(resolveSource(competition.offline!.sources[name]))));
}

const pixelNames = Array.from({ length: PIXELS }, (_, j) => `pixel${j}`);

describe("fashion-mnist", () => {
  const dataDir = tempDir("mlebench-fashion-mnist-");
  const p = competitionPaths(dataDir, competition.id);
  let train: PixelCsv;
  let test: PixelCsv;
  let answerIds: Float64Array;
  let answerLabels: Float64Array;

  beforeAll(async () => {
    const result = await prepareCompetition(competition, dataDir);
    expect(result.status).toBe("prepared");
    train = readPixelCsv(path.join(p.public, "train.csv"), 60_000, true);
    test = readPixelCsv(path.join(p.public, "test.csv"), 10_000, false);
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", "label"]);
    answerIds = answers.data.get("id")!.values as Float64Array;
    answerLabels = answers.data.get("label")!.values as Float64Array;
  });

  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("has the official split's shapes and columns", () => {
    expect(train.header).toEqual(["id", "label", ...pixelNames]);
    expect(train.header).toHaveLength(786);
    expect(test.header).toEqual(["id", ...pixelNames]);
    expect(test.header).toHaveLength(785);
    expect(answerIds).toHaveLength(10_000);
  });

  it("has 6,000 training and 1,000 test images of every class", () => {
    expect(counts(train.labels!)).toEqual(new Array(10).fill(6000));
    expect(counts(answerLabels)).toEqual(new Array(10).fill(1000));
  });

  it("holds exactly the source images and labels", () => {
    const trainImages = raw("trainImages").subarray(16);
    const trainLabels = raw("trainLabels").subarray(8);
    const testImages = raw("testImages").subarray(16);
    const testLabels = raw("testLabels").subarray(8);
    // Spot check: the first source image (an ankle boot) appears in train.csv with its label.
    expect(trainLabels[0]).toBe(9);
    const first = trainImages.subarray(0, PIXELS);
    const at = train.ids.findIndex((_, i) => Buffer.compare(train.pixels.subarray(i * PIXELS, (i + 1) * PIXELS), first) === 0);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(train.labels![at]).toBe(trainLabels[0]);
    expect(imageKeys(train.pixels, train.labels!)).toEqual(imageKeys(trainImages, trainLabels));
    // The answers are in test.csv's row order, so test row i has the label of answer row i.
    expect(Array.from(answerIds)).toEqual(Array.from(test.ids));
    expect(imageKeys(test.pixels, answerLabels)).toEqual(imageKeys(testImages, testLabels));
  });

  it("numbers all 70,000 images once, in id order within each file", () => {
    const ascending = (ids: ArrayLike<number>) => Array.from(ids).every((v, i, a) => i === 0 || a[i - 1] < v);
    expect(ascending(train.ids)).toBe(true);
    expect(ascending(test.ids)).toBe(true);
    // 70,000 distinct ids in 1..70000: the train and test ids are disjoint and cover the range.
    const all = new Set([...train.ids, ...test.ids]);
    expect(all.size).toBe(70_000);
    expect([...all].every((id) => id >= 1 && id <= 70_000)).toBe(true);
  });

  it("publishes the class names", () => {
    expect(fs.readFileSync(path.join(p.public, "classes.csv"), "utf8")).toBe(
      "label,name\n0,T-shirt/top\n1,Trouser\n2,Pullover\n3,Dress\n4,Coat\n5,Sandal\n6,Shirt\n7,Sneaker\n8,Bag\n9,Ankle boot\n",
    );
  });

  it("grades the sample submission as valid with accuracy 0.1", () => {
    expect(fs.existsSync(p.leaderboard)).toBe(true);
    const report = gradeSubmission(competition, path.join(p.public, competition.sampleSubmission), dataDir);
    expect(report.invalid_reason).toBeNull();
    expect(report.valid_submission).toBe(true);
    expect(report.score).toBe(0.1);
    expect(report.any_medal).toBe(false);
  });

  it("rejects IDX files with a wrong header, naming the file", () => {
    const dir = tempDir("mlebench-idx-");
    const file = path.join(dir, "bad-idx1-ubyte.gz");
    const header = Buffer.alloc(8);
    header.writeUInt32BE(2049, 0);
    header.writeUInt32BE(3, 4);
    fs.writeFileSync(file, zlib.gzipSync(Buffer.concat([header, Buffer.from([1, 2, 3])])));
    expect(Array.from(readIdx(file, 2049, [3]))).toEqual([1, 2, 3]);
    expect(() => readIdx(file, 2051, [3])).toThrow(`${file}: IDX magic number 2049, expected 2051`);
    expect(() => readIdx(file, 2049, [4])).toThrow(`${file}: IDX dimensions 3, expected 4`);
    fs.writeFileSync(file, zlib.gzipSync(Buffer.concat([header, Buffer.from([1, 2])])));
    expect(() => readIdx(file, 2049, [3])).toThrow(`${file}: 2 bytes of data after the header, expected 3`);
    fs.writeFileSync(file, "not gzip");
    expect(() => readIdx(file, 2049, [3])).toThrow(file);
  });
});
