import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { zipDirectory } from "../../io/zip-write.js";
import { copyListedFiles } from "../../prepare/copy-listed.js";
import { trainTestSplitTable, withColumn } from "../../prepare/frame.js";

/**
 * Upstream's split: 19% of Kaggle's train.csv (random_state 0, roughly the original 4000 of
 * 21500) becomes the test set. The tiles of each side are copied out of train.zip and zipped
 * again as public/train.zip and public/test.zip (members named by id, no folder); the sample
 * submission predicts 0.5 everywhere.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  if (!old.data.has("id") || !old.data.has("has_cactus")) throw new UserError(`${file}: expected columns id, has_cactus (found ${old.columns.join(", ")})`);
  const { train, test } = trainTestSplitTable(old, { testSize: 0.19, randomState: 0 });
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  const half = { kind: "float" as const, values: new Float64Array(test.rowCount).fill(0.5) };
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "has_cactus", half));

  await extractArchive(path.join(ctx.raw, "train.zip"), ctx.raw);
  const tiles = path.join(ctx.raw, "train");
  for (const [table, side] of [[train, "train"], [test, "test"]] as const) {
    const dest = path.join(ctx.public, side);
    copyListedFiles(table, "id", { from: tiles, to: dest, listedIn: file, note: "expected inside train.zip's train/ folder" });
    await zipDirectory(dest, path.join(ctx.public, `${side}.zip`));
    fs.rmSync(dest, { recursive: true, force: true });
  }
  // The unpacked tiles were only a staging area; Kaggle's train.zip stays as downloaded.
  fs.rmSync(tiles, { recursive: true, force: true });
}

