import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { idsFromTfRecords } from "../../io/tfrecord.js";
import { copyListedFiles } from "../../prepare/copy-listed.js";
import { splitIsin, withColumn } from "../../prepare/frame.js";
import { comparePyStr } from "../../pycompat/pystr.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

/** Kaggle's training TFRecord files: regular files whose last suffix is ".tfrec", in name order. */
function recordFiles(raw: string): string[] {
  const dir = path.join(raw, "train_tfrecords");
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UserError(`${dir} is missing (expected Kaggle's train_tfrecords folder)`);
  const names = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && path.extname(e.name) === ".tfrec")
    .map((e) => e.name)
    .sort(comparePyStr);
  if (names.length === 0) throw new UserError(`${dir}: no .tfrec files`);
  return names.map((n) => path.join(dir, n));
}

/** The record count Kaggle puts in a TFRecord file's name: the second "-"-separated part of its stem. */
function recordCount(file: string): string {
  const parts = path.basename(file, ".tfrec").split("-");
  if (parts.length < 2) throw new UserError(`${file}: expected a name like ld_train00-1338.tfrec`);
  return parts[1];
}

/** Copy each TFRecord file to public/<folder>/<prefix>NN-<count>.tfrec, numbered in split order. */
function copyRecords(files: string[], dest: string, prefix: string): void {
  fs.mkdirSync(dest, { recursive: true });
  files.forEach((file, i) => {
    fs.copyFileSync(file, path.join(dest, `${prefix}${String(i).padStart(2, "0")}-${recordCount(file)}.tfrec`));
  });
}

/**
 * Upstream's split: Kaggle's 16 training TFRecord files are split 90/10 (random_state 0); the
 * photos stored in the held-out files form the test set. CSVs, photos and the renamed TFRecord
 * files are written accordingly; the sample submission predicts label 4 everywhere.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const files = recordFiles(ctx.raw);
  const split = trainTestSplitIndices(files.length, { testSize: 0.1, randomState: 0 });
  const trainFiles = split.train.map((i) => files[i]);
  const testFiles = split.test.map((i) => files[i]);
  const testIds = new Set<string>();
  for (const f of testFiles) for (const id of idsFromTfRecords(f, "image_name")) testIds.add(id);

  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { matched: test, rest: train } = splitIsin(old, "image_id", testIds, file);
  const fours = { kind: "int" as const, values: new Float64Array(test.rowCount).fill(4) };
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "label", fours));

  copyRecords(trainFiles, path.join(ctx.public, "train_tfrecords"), "ld_train");
  copyRecords(testFiles, path.join(ctx.public, "test_tfrecords"), "ld_test");
  for (const [table, folder] of [[train, "train_images"], [test, "test_images"]] as const) {
    copyListedFiles(table, "image_id", { from: path.join(ctx.raw, "train_images"), to: path.join(ctx.public, folder), listedIn: "train.csv" });
  }
  const map = path.join(ctx.raw, "label_num_to_disease_map.json");
  if (!fs.existsSync(map)) throw new UserError(`${map} is missing`);
  fs.copyFileSync(map, path.join(ctx.public, "label_num_to_disease_map.json"));
}
