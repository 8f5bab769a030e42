import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { selectColumns, trainTestSplitTable, withColumn } from "../../prepare/frame.js";

/** Copy each row's raw/train_images/<label>/<image_id> to wherever `dest` says. */
function copyImages(ctx: UpstreamPrepareContext, table: Table, file: string, dest: (label: string, id: string) => string): void {
  const ids = table.data.get("image_id");
  const labels = table.data.get("label");
  if (!ids || !labels) throw new UserError(`${file}: expected columns image_id and label`);
  for (let i = 0; i < table.rowCount; i++) {
    const id = cellAt(ids, i);
    const label = cellAt(labels, i);
    if (id === null || label === null) throw new UserError(`${file}: a row has no image_id or no label`);
    const src = path.join(ctx.raw, "train_images", String(label), String(id));
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing (listed in ${file})`);
    const target = dest(String(label), String(id));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(src, target);
  }
}

/**
 * Upstream's split: 75% of Kaggle's train.csv (random_state 0) stays training data with its
 * label folders; the rest become flat public/test_images and the private answers. The sample
 * submission leaves every label empty.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(old, { trainSize: 0.75, randomState: 0 });
  const blank = { kind: "string" as const, values: new Array<string>(test.rowCount).fill("") };
  const sample = withColumn(selectColumns(test, ["image_id", "label"], file), "label", blank);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  copyImages(ctx, train, file, (label, id) => path.join(ctx.public, "train_images", label, id));
  copyImages(ctx, test, file, (_label, id) => path.join(ctx.public, "test_images", id));
}
