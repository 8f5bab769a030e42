import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { listFiles } from "../../io/extract.js";
import { copyTree } from "../../prepare/copy-tree.js";
import { dropColumns, withColumn } from "../../prepare/frame.js";
import { pngSize } from "./png-size.js";

// Fragment 3's labels and infrared photo are the answers, so they stay out of public/test/a.
const HELD_BACK = new Set(["inklabels.png", "inklabels_rle.csv", "ir.png"]);
const TEST_ID = "a";

/**
 * Upstream's split: Kaggle's train fragments 1 and 2 stay training data, fragment 3 becomes the
 * single test fragment "a". Its run-length labels, tagged with the infrared photo's size, are the
 * answers; its remaining files (mask and surface volume) go to public/test/a.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  for (const name of ["1", "2"]) copyTree(path.join(ctx.raw, "train", name), path.join(ctx.public, "train", name), "folder (Kaggle's training fragment)");

  const fragment = path.join(ctx.raw, "train", "3");
  const labelsFile = path.join(fragment, "inklabels_rle.csv");
  const labels = readCsv(labelsFile, { file: labelsFile });
  if (labels.rowCount !== 1) throw new UserError(`${labelsFile}: expected a single row of labels, found ${labels.rowCount}`);
  const { width, height } = pngSize(path.join(fragment, "ir.png"));
  let answers = withColumn(labels, "width", intColumn(width));
  answers = withColumn(answers, "height", intColumn(height));
  answers = withColumn(answers, "Id", { kind: "string", values: [TEST_ID] });
  writeCsv(path.join(ctx.private, "inklabels_rle.csv"), answers);
  writeCsv(path.join(ctx.private, "gold_submission.csv"), dropColumns(answers, ["width", "height"], labelsFile));

  copyTestFiles(fragment, path.join(ctx.public, "test", TEST_ID));
  const sample = makeTable([
    ["Id", { kind: "string", values: [TEST_ID] }],
    ["Predicted", { kind: "string", values: ["1 1 5 1"] }],
  ]);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
}

function intColumn(v: number): Column {
  return { kind: "int", values: Float64Array.of(v) };
}

/** Fragment 3's files, less the held-back ones, into the test folder; only image, table and TIFF files are expected. */
function copyTestFiles(fragment: string, dest: string): void {
  for (const rel of listFiles(fragment)) {
    const ext = path.extname(rel);
    if (![".png", ".csv", ".tif"].includes(ext)) {
      throw new UserError(`${path.join(fragment, rel)}: unexpected file type "${ext}" (expected .png, .csv or .tif)`);
    }
    if (HELD_BACK.has(path.basename(rel))) continue;
    const to = path.join(dest, rel);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(path.join(fragment, rel), to);
  }
}
