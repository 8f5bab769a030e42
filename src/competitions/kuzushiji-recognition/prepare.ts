import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import type { Column, Table } from "../../core/table.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { zipDirectory } from "../../io/zip-write.js";
import { trainTestSplitTable, withColumn } from "../../prepare/frame.js";
import { goldLabel } from "./gold.js";

// Kaggle's own sample submission gives every page these two characters.
const GUESS = "U+003F 1 1 U+FF2F 2 2";

/** Copy raw/train/<image_id>.jpg into `dest` for each row. */
function copyPages(ctx: UpstreamPrepareContext, table: Table, dest: string, file: string): void {
  const col = table.data.get("image_id")!;
  fs.mkdirSync(dest, { recursive: true });
  for (let i = 0; i < table.rowCount; i++) {
    const name = `${pyStrAt(col, i)}.jpg`;
    const src = path.join(ctx.raw, "train", name);
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing (image_id of ${file} row; is it in train_images.zip?)`);
    fs.copyFileSync(src, path.join(dest, name));
  }
}

/** Zip a folder of pages under public/ and remove the folder, as Kaggle ships the pages zipped. */
async function zipAndRemove(dir: string, zipPath: string): Promise<void> {
  await zipDirectory(dir, zipPath);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The answers with each box turned into a point just inside it. */
function goldSubmission(test: Table, file: string): Table {
  const col = test.data.get("labels")!;
  const ids = test.data.get("image_id")!;
  if (col.kind !== "string" && test.rowCount > 0) {
    throw new UserError(`${file}: labels should be text like "U+306F 1231 3465 133 53", got a ${col.kind} column`);
  }
  const values = Array.from({ length: test.rowCount }, (_, i) =>
    goldLabel(col.kind === "string" ? col.values[i] : null, `${file}, image_id ${pyStrAt(ids, i)}`),
  );
  return withColumn(test, "labels", { kind: "string", values });
}

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the test set; the pages
 * are unpacked from train_images.zip and re-zipped as public train_images.zip and
 * test_images.zip. A sample submission and a gold submission (each box's top-left corner
 * moved one pixel inwards) are written alongside the answers.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  await extractArchive(path.join(ctx.raw, "train_images.zip"), path.join(ctx.raw, "train"));
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  for (const c of ["image_id", "labels"]) {
    if (!old.data.has(c)) throw new UserError(`${file}: no "${c}" column (columns: ${old.columns.join(", ")})`);
  }
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), test);

  const trainDir = path.join(ctx.public, "train");
  const testDir = path.join(ctx.public, "test");
  copyPages(ctx, train, trainDir, file);
  copyPages(ctx, test, testDir, file);
  await zipAndRemove(trainDir, path.join(ctx.public, "train_images.zip"));
  await zipAndRemove(testDir, path.join(ctx.public, "test_images.zip"));

  const translation = path.join(ctx.raw, "unicode_translation.csv");
  if (!fs.existsSync(translation)) throw new UserError(`${translation} is missing`);
  fs.copyFileSync(translation, path.join(ctx.public, "unicode_translation.csv"));

  const guesses: Column = { kind: "string", values: new Array<string | null>(test.rowCount).fill(GUESS) };
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "labels", guesses));
  writeCsv(path.join(ctx.private, "gold_submission.csv"), goldSubmission(test, file));
}
