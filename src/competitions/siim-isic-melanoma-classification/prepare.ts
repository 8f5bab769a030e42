import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { idsFromTfRecords } from "../../io/tfrecord.js";
import { selectColumns, splitIsin, withColumn } from "../../prepare/frame.js";
import { comparePyStr } from "../../pycompat/pystr.js";

// Two of Kaggle's sixteen training TFRecord files (about 10% of the images) hold the new test set.
const TEST_RECORD_FILES = ["train00-2071.tfrec", "train06-2071.tfrec"];
const TEST_COLUMNS = ["image_name", "patient_id", "sex", "age_approx", "anatom_site_general_challenge"];

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
  const files = fs.readdirSync(dir).filter((n) => n.startsWith("train") && n.endsWith(".tfrec")).sort(comparePyStr);
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
  const { matched: test, rest: train } = splitIsin(old, "image_name", testIds, file);
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
