import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { dropColumns, takeRows, trainTestSplitTable, withColumn } from "../../prepare/frame.js";
import { comparePyStrings } from "../../prepare/groupby.js";

/**
 * Upstream's split of competition_data/train.csv: a quarter of the images (random_state 0) become
 * the test set. Both sides are written sorted by id, their images (and, for train, masks) copied
 * under public/, the sample submission predicts "1 1" for every test image, and depths.csv keeps
 * only the train ids.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  await extractArchive(path.join(ctx.raw, "competition_data.zip"), ctx.raw);
  const data = path.join(ctx.raw, "competition_data");
  const file = path.join(data, "train.csv");
  const labels = readCsv(file, { file });
  // Checked before any copying: ids name the image files, so they must be text.
  textIds(labels, file);
  const { train, test } = trainTestSplitTable(labels, { testSize: 0.25, randomState: 0 });
  writeCsv(path.join(ctx.public, "train.csv"), sortById(train, file));
  writeCsv(path.join(ctx.private, "test.csv"), sortById(test, file));
  const trainIds = textIds(train, file);
  copyImages(data, trainIds, path.join(ctx.public, "train"), true, file);
  copyImages(data, textIds(test, file), path.join(ctx.public, "test"), false, file);
  const ones = { kind: "string" as const, values: new Array<string | null>(test.rowCount).fill("1 1") };
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sortById(withColumn(dropColumns(test, ["rle_mask"], file), "rle_mask", ones), file));
  writeDepths(path.join(ctx.raw, "depths.csv"), new Set(trainIds), path.join(ctx.public, "depths.csv"));
}

/** The id column as text, missing ids as "" (upstream fills every gap with ""). */
function textIds(t: Table, file: string): string[] {
  const col = t.data.get("id");
  if (!col) throw new UserError(`${file}: no column "id" (columns: ${t.columns.join(", ")})`);
  if (col.kind !== "string") throw new UserError(`${file}: column "id" should hold image names (text), but reads as ${col.kind}`);
  return col.values.map((v) => v ?? "");
}

/** `df.sort_values(by="id")` on text ids; ties (which unique ids never have) keep file order. */
function sortById(t: Table, file: string): Table {
  const ids = textIds(t, file);
  const order = ids.map((_, i) => i).sort((a, b) => comparePyStrings(ids[a], ids[b]) || a - b);
  return takeRows(t, order);
}

/** Copy each id's image (and mask) from competition_data/train into `dest`. */
function copyImages(data: string, ids: string[], dest: string, masks: boolean, listedIn: string): void {
  const kinds = masks ? ["images", "masks"] : ["images"];
  for (const kind of kinds) fs.mkdirSync(path.join(dest, kind), { recursive: true });
  for (const id of ids) {
    for (const kind of kinds) {
      const src = path.join(data, "train", kind, `${id}.png`);
      if (!fs.existsSync(src)) throw new UserError(`${src} is missing (id ${id} is listed in ${listedIn})`);
      fs.copyFileSync(src, path.join(dest, kind, `${id}.png`));
    }
  }
}

/** depths.csv reduced to the train ids, sorted by id. */
function writeDepths(file: string, keep: Set<string>, out: string): void {
  const depths = readCsv(file, { file });
  const col = depths.data.get("id");
  if (!col) throw new UserError(`${file}: no column "id" (columns: ${depths.columns.join(", ")})`);
  const rows: number[] = [];
  for (let i = 0; i < depths.rowCount; i++) {
    const v = col.values[i];
    if (typeof v === "string" && keep.has(v)) rows.push(i);
  }
  const kept = takeRows(depths, rows);
  writeCsv(out, kept.rowCount === 0 ? kept : sortById(kept, file));
}
