import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { selectColumns, takeRows, trainTestSplitTable, withColumn } from "../../prepare/frame.js";

// Kaggle lists this photo twice, so a random split could put it on both sides; upstream drops it.
const DUPLICATED_IMAGE = "ce27d36c9147cc19.jpg";
const GUESS = "36363 53586 18807 64314 60181";

/** Every row but those whose image is the duplicated photo (pandas `df[df["image"] != name]`). */
function withoutDuplicate(old: Table): Table {
  const col = old.data.get("image")!;
  const keep: number[] = [];
  for (let i = 0; i < old.rowCount; i++) {
    if (!(col.kind === "string" && col.values[i] === DUPLICATED_IMAGE)) keep.push(i);
  }
  return takeRows(old, keep);
}

/** Copy raw/train_images/<chain>/<image> to the folder `target` gives for each row. */
function copyImages(ctx: UpstreamPrepareContext, table: Table, target: (chain: string, image: string) => string, file: string): void {
  const images = table.data.get("image")!;
  const chains = table.data.get("chain")!;
  for (let i = 0; i < table.rowCount; i++) {
    const image = pyStrAt(images, i);
    // The folder is the chain as Python's str() prints it, so 5 is "5" (and 5.0 would be "5.0").
    const chain = pyStrAt(chains, i);
    const src = path.join(ctx.raw, "train_images", chain, image);
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing (image ${JSON.stringify(image)}, chain ${chain} of ${file})`);
    const dest = target(chain, image);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(src, dest);
  }
}

/**
 * Upstream's split: after dropping the photo Kaggle lists twice, 10% of train.csv (random_state
 * 0) becomes the test set. Train photos keep their chain folders; test photos are flattened
 * into public/test_images. The sample submission guesses the same five hotels for every photo.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const raw = readCsv(file, { file });
  for (const c of ["image", "chain", "hotel_id"]) {
    if (!raw.data.has(c)) throw new UserError(`${file}: no "${c}" column (columns: ${raw.columns.join(", ")})`);
  }
  const old = withoutDuplicate(raw);
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const guesses = { kind: "string" as const, values: new Array<string | null>(test.rowCount).fill(GUESS) };
  const sample = withColumn(selectColumns(test, ["image", "hotel_id"], file), "hotel_id", guesses);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  fs.mkdirSync(path.join(ctx.public, "train_images"), { recursive: true });
  copyImages(ctx, train, (chain, image) => path.join(ctx.public, "train_images", chain, image), file);
  fs.mkdirSync(path.join(ctx.public, "test_images"), { recursive: true });
  copyImages(ctx, test, (_chain, image) => path.join(ctx.public, "test_images", image), file);
  writeCsv(path.join(ctx.private, "test.csv"), test);
}
