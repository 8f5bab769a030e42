import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { dropColumns, trainTestSplitTable, withColumn } from "../../prepare/frame.js";

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the test set; images are
 * copied into public/train_images and public/test_images by id; the sample submission predicts 0.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  for (const [table, folder] of [[train, "train_images"], [test, "test_images"]] as const) {
    const ids = table.data.get("id_code");
    if (!ids) throw new UserError(`${file}: no id_code column`);
    const dest = path.join(ctx.public, folder);
    fs.mkdirSync(dest, { recursive: true });
    for (let i = 0; i < table.rowCount; i++) {
      const name = `${String(cellAt(ids, i))}.png`;
      const src = path.join(ctx.raw, "train_images", name);
      if (!fs.existsSync(src)) throw new UserError(`${src} is missing (listed in ${file})`);
      fs.copyFileSync(src, path.join(dest, name));
    }
  }
  const zeros = { kind: "int" as const, values: new Float64Array(test.rowCount) };
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(test, ["diagnosis"], file));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "diagnosis", zeros));
}
