import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, makeTable, type Column, type Table } from "../../core/table.js";
import { extractArchive } from "../../io/extract.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { dropColumns, selectColumns, trainTestSplitTable } from "../../prepare/frame.js";
import { oneHotTable } from "../../prepare/one-hot.js";
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
  fs.mkdirSync(path.join(ctx.public, "images"), { recursive: true });
  // Upstream makes this folder and leaves it empty.
  fs.mkdirSync(path.join(ctx.private, "images"), { recursive: true });
  copyImages(ctx, train, file);
  copyImages(ctx, publicTest, file);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), answers);
  writeCsv(path.join(ctx.public, "test.csv"), publicTest);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), uniformSubmission(answers));
}

/** Copy raw/images/<id>.jpg into public/images for each row, one file at a time. */
function copyImages(ctx: UpstreamPrepareContext, table: Table, listing: string): void {
  const ids = table.data.get("id")!;
  for (let i = 0; i < table.rowCount; i++) {
    const name = `${String(cellAt(ids, i))}.jpg`;
    const src = path.join(ctx.raw, "images", name);
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing (listed in ${listing}; expected in images.zip)`);
    fs.copyFileSync(src, path.join(ctx.public, "images", name));
  }
}

/** The answers' ids with every species column set to the float 1/99. */
function uniformSubmission(answers: Table): Table {
  const p = 1 / SPECIES.length;
  const cols: [string, Column][] = [["id", answers.data.get("id")!]];
  for (const s of SPECIES) cols.push([s, { kind: "float", values: new Float64Array(answers.rowCount).fill(p) }]);
  return makeTable(cols);
}
