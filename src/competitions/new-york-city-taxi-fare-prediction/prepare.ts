import { copyFileSync, existsSync } from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { scanCsv, splitRows, writeCsvRows } from "../../prepare/stream-split.js";

/** As many rows as Kaggle's own test set has. */
const TEST_ROWS = 9914;
/** The fare the sample submission predicts for every ride. */
const SAMPLE_FARE = 11.35;
const NOTES = "GCP-Coupons-Instructions.rtf";

/**
 * Upstream's split of Kaggle's train.csv: 9,914 rides held out (random_state 0), the rest as the
 * public labels, in the split's order. The file has 55M rows (5.7 GB), so it is streamed:
 * one pass learns the dtypes and where each record lies, then rows are copied out by position.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const notes = path.join(ctx.raw, NOTES);
  // Checked first: a missing file should not cost a pass over 5.7 GB.
  if (!existsSync(notes)) throw new UserError(`${notes} is missing: upstream copies it into public/`);
  const scan = scanCsv(file, { file });
  for (const c of ["key", "fare_amount"]) {
    if (!scan.names.includes(c)) throw new UserError(`${file}: no column "${c}" (columns: ${scan.names.join(", ")})`);
  }
  const { train, test } = splitRows(scan.rows, { testSize: TEST_ROWS, randomState: 0 });
  writeCsvRows(scan, train, path.join(ctx.public, "labels.csv"));
  writeCsvRows(scan, test, path.join(ctx.public, "test.csv"), { columns: scan.names.filter((c) => c !== "fare_amount") });
  writeCsvRows(scan, test, path.join(ctx.public, "sample_submission.csv"), {
    columns: ["key", { name: "fare_amount", value: SAMPLE_FARE }],
  });
  writeCsvRows(scan, test, path.join(ctx.private, "test.csv"));
  copyFileSync(notes, path.join(ctx.public, NOTES));
}
