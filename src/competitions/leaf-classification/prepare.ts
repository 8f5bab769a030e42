import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { extractArchive } from "../../io/extract.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListedFiles } from "../../prepare/copy-listed.js";
import { dropColumns, selectColumns, trainTestSplitTable } from "../../prepare/frame.js";
import { oneHotTable, uniformTable } from "../../prepare/one-hot.js";
import { SPECIES } from "./classes.js";

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the test set, whose
 * answers are one-hot over the 99 species; the silhouettes of both halves go to public/images;
 * the sample submission gives every species 1/99.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  // Only these two archives are unpacked; Kaggle's test.csv and sample submission stay zipped.
  await extractArchive(path.join(ctx.raw, "train.csv.zip"), ctx.raw);
  await extractArchive(path.join(ctx.raw, "images.zip"), ctx.raw);
  const file = path.join(ctx.raw, "train.csv");
  const leaves = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(leaves, { testSize: 0.1, randomState: 0 });
  const publicTest = dropColumns(test, ["species"], file);
  const answers = oneHotTable(selectColumns(test, ["id", "species"], file), "id", "species", SPECIES, file);
  // Upstream makes this folder and leaves it empty.
  fs.mkdirSync(path.join(ctx.private, "images"), { recursive: true });
  for (const table of [train, publicTest]) {
    copyListedFiles(table, "id", { from: path.join(ctx.raw, "images"), to: path.join(ctx.public, "images"), suffix: ".jpg", listedIn: file, note: "expected in images.zip" });
  }
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), answers);
  writeCsv(path.join(ctx.public, "test.csv"), publicTest);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), uniformTable(answers, "id", SPECIES));
}
