import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { pyStrAt } from "../../grading/columns.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { idsFromTfRecords } from "../../io/tfrecord.js";
import { selectColumns, takeRows, withColumn } from "../../prepare/frame.js";

// Two of Kaggle's sixteen training TFRecord files (about 10% of the images) hold the new test set.
const TEST_RECORD_FILES = ["train00-2071.tfrec", "train06-2071.tfrec"];
const TEST_COLUMNS = ["image_name", "patient_id", "sex", "age_approx", "anatom_site_general_challenge"];

/** Python sorts str by code point; UTF-8 byte order is the same order. */
function byCodePoint(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** Row positions of train.csv whose image_name is (or is not) one of `ids`, in file order. */
function splitRows(table: Table, ids: Set<string>, file: string): { train: number[]; test: number[] } {
  const names = table.data.get("image_name");
  if (!names) throw new UserError(`${file}: no "image_name" column (columns: ${table.columns.join(", ")})`);
  const train: number[] = [];
  const test: number[] = [];
  for (let i = 0; i < table.rowCount; i++) {
    // isin compares values, so only text cells can match the record ids.
    const v = names.kind === "string" ? names.values[i] : null;
    (v !== null && ids.has(v) ? test : train).push(i);
  }
  return { train, test };
}

/** Copy each image's DICOM and JPEG from Kaggle's train folders into `split`'s public folders. */
function copyImages(raw: string, pub: string, table: Table, split: "train" | "test"): void {
  const names = table.data.get("image_name")!;
  const dcmDir = path.join(pub, split);
  const jpgDir = path.join(pub, "jpeg", split);
  fs.mkdirSync(dcmDir, { recursive: true });
  fs.mkdirSync(jpgDir, { recursive: true });
  for (let i = 0; i < table.rowCount; i++) {
    const name = pyStrAt(names, i);
    for (const [src, dest] of [
      [path.join(raw, "train", `${name}.dcm`), path.join(dcmDir, `${name}.dcm`)],
      [path.join(raw, "jpeg", "train", `${name}.jpg`), path.join(jpgDir, `${name}.jpg`)],
    ]) {
      if (!fs.existsSync(src)) throw new UserError(`${src} is missing (image ${name} of train.csv)`);
      fs.copyFileSync(src, dest);
    }
  }
}

/** Kaggle's train*.tfrec files renumbered as trainNN-<count>.tfrec or testNN-<count>.tfrec, in name order. */
function copyRecordFiles(raw: string, pub: string): void {
  const dir = path.join(raw, "tfrecords");
  const dest = path.join(pub, "tfrecords");
  fs.mkdirSync(dest, { recursive: true });
  const files = fs.readdirSync(dir).filter((n) => n.startsWith("train") && n.endsWith(".tfrec")).sort(byCodePoint);
  let trainCount = 0;
  let testCount = 0;
  for (const name of files) {
    // The record count is the second "-"-separated part of the name without its suffix.
    const parts = name.slice(0, -".tfrec".length).split("-");
    if (parts.length < 2) throw new UserError(`${path.join(dir, name)}: expected a name like train00-2071.tfrec`);
    const isTest = TEST_RECORD_FILES.includes(name);
    const n = isTest ? testCount++ : trainCount++;
    const target = `${isTest ? "test" : "train"}${String(n).padStart(2, "0")}-${parts[1]}.tfrec`;
    fs.copyFileSync(path.join(dir, name), path.join(dest, target));
  }
}

/**
 * Upstream's split: the images stored in two of Kaggle's training TFRecord files become the test
 * set; train.csv is split accordingly, DICOMs and JPEGs are copied to the matching folders, the
 * TFRecord files are renamed train/test, and the sample submission predicts 0.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const testIds = new Set<string>();
  for (const name of TEST_RECORD_FILES) {
    for (const id of idsFromTfRecords(path.join(ctx.raw, "tfrecords", name), "image_name")) testIds.add(id);
  }
  const rows = splitRows(old, testIds, file);
  const train = takeRows(old, rows.train);
  const test = takeRows(old, rows.test);
  const answers = selectColumns(test, ["image_name", "target"], file);
  const zeros = { kind: "int" as const, values: new Float64Array(test.rowCount) };
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), selectColumns(test, TEST_COLUMNS, file));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(answers, "target", zeros));
  writeCsv(path.join(ctx.private, "test.csv"), answers);
  copyImages(ctx.raw, ctx.public, train, "train");
  copyImages(ctx.raw, ctx.public, test, "test");
  copyRecordFiles(ctx.raw, ctx.public);
}
