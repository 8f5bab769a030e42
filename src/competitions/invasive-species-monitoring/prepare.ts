import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive, listFiles } from "../../io/extract.js";
import { extractSevenZip, writeSevenZip } from "../../io/sevenzip.js";
import { writeZip } from "../../io/zip-write.js";
import { copyListedFiles } from "../../prepare/copy-listed.js";
import { trainTestSplitTable, withColumn } from "../../prepare/frame.js";

/** Unpack Kaggle's train.7z (train/<name>.jpg) into raw/. */
async function unpack(archive: string, dest: string): Promise<void> {
  if (!fs.existsSync(archive)) throw new UserError(`${archive} is missing: Kaggle ships the training images in it`);
  await extractSevenZip(archive, dest);
}

/** Zip public/<name> as upstream's make_archive does (member <name>) and drop the plain file. */
async function zipAndRemove(dir: string, name: string): Promise<void> {
  const file = path.join(dir, name);
  await writeZip(`${file}.zip`, [{ source: file, name }]);
  fs.rmSync(file);
}

/** Pack public/<folder>/ into public/<folder>.7z (members <folder>/<file>, sorted, stored) and drop the folder. */
async function packFolder(dir: string, folder: string): Promise<void> {
  const src = path.join(dir, folder);
  const members = listFiles(src).map((f) => ({ source: path.join(src, f), name: `${folder}/${f}` }));
  await writeSevenZip(path.join(dir, `${folder}.7z`), members);
  fs.rmSync(src, { recursive: true });
}

/**
 * Upstream's split: 20% of Kaggle's labelled photos (random_state 0) become the test set. The
 * labels and a sample submission (0.5 everywhere) ship zipped, the photos as train.7z / test.7z,
 * which hold the images themselves where upstream's archives hold none (see README.md).
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  await unpack(path.join(ctx.raw, "train.7z"), ctx.raw);
  await extractArchive(path.join(ctx.raw, "train_labels.csv.zip"), ctx.raw);
  const file = path.join(ctx.raw, "train_labels.csv");
  const old = readCsv(file, { file });
  const { train, test: answers } = trainTestSplitTable(old, { testSize: 0.2, randomState: 0 });
  const halves = { kind: "float" as const, values: new Float64Array(answers.rowCount).fill(0.5) };
  const sample = withColumn(answers, "invasive", halves);
  writeCsv(path.join(ctx.private, "answers.csv"), answers);
  writeCsv(path.join(ctx.public, "train_labels.csv"), train);
  writeCsv(path.join(ctx.private, "sample_submission.csv"), sample);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  const trainDir = path.join(ctx.raw, "train");
  for (const [table, folder] of [[train, "train"], [answers, "test"]] as const) {
    copyListedFiles(table, "name", { from: trainDir, to: path.join(ctx.public, folder), suffix: ".jpg", listedIn: file });
  }
  await zipAndRemove(ctx.public, "sample_submission.csv");
  await zipAndRemove(ctx.public, "train_labels.csv");
  await packFolder(ctx.public, "train");
  await packFolder(ctx.public, "test");
}

/** Hold the images upstream's archives were meant to hold; upstream's hold none (see README.md). */
export const unverifiable = ["public/train.7z", "public/test.7z"];
