import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { pyStrAt } from "../../grading/columns.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { trainTestSplitTable, withColumn } from "../../prepare/frame.js";

/** Copy raw/train_images/<image> into public/<folder>/ for each row. */
function copyImages(ctx: UpstreamPrepareContext, table: Table, folder: string, file: string): void {
  const col = table.data.get("image")!;
  const dest = path.join(ctx.public, folder);
  fs.mkdirSync(dest, { recursive: true });
  for (let i = 0; i < table.rowCount; i++) {
    const name = pyStrAt(col, i);
    const src = path.join(ctx.raw, "train_images", name);
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing (image ${JSON.stringify(name)} of ${file})`);
    fs.copyFileSync(src, path.join(dest, name));
  }
}

/**
 * Upstream's split: 20% of Kaggle's train.csv (random_state 0) becomes the answers; photos are
 * copied into public/train_images and public/test_images; the sample submission says "healthy".
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  for (const c of ["image", "labels"]) {
    if (!old.data.has(c)) throw new UserError(`${file}: no "${c}" column (columns: ${old.columns.join(", ")})`);
  }
  const { train, test } = trainTestSplitTable(old, { testSize: 0.2, randomState: 0 });
  const healthy = { kind: "string" as const, values: new Array<string | null>(test.rowCount).fill("healthy") };
  writeCsv(path.join(ctx.private, "answers.csv"), test);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "labels", healthy));
  copyImages(ctx, test, "test_images", file);
  copyImages(ctx, train, "train_images", file);
}
