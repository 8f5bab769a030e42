import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { extractArchive } from "../../io/extract.js";
import { scanCsv, splitRows, writeCsvRows } from "../../prepare/stream-split.js";

/** The tags upstream's sample submission predicts for every question. */
const SAMPLE_TAGS = "javascript c# python php java";

/**
 * Upstream's split: Train.zip is unpacked and 10% of Train.csv (random_state 0) becomes the test
 * set; the private answers are the test rows with their Tags, the sample submission the test rows
 * with a fixed tag list.
 *
 * Train.csv is about 7 GB (6M questions with their bodies), so it is streamed: one pass learns the
 * dtypes and where each record lies, then rows are copied out by position in the split's order.
 * Upstream reads Id and Tags as text; Kaggle's ids are plain decimal integers and its tags are
 * never numbers, so pandas' inferred types print the same bytes.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  await extractArchive(path.join(ctx.raw, "Train.zip"), ctx.raw);
  const file = path.join(ctx.raw, "Train.csv");
  const scan = scanCsv(file, { file });
  if (!scan.names.includes("Tags")) throw new UserError(`${file}: no column "Tags" (columns: ${scan.names.join(", ")})`);
  const { train, test } = splitRows(scan.rows, { testSize: 0.1, randomState: 0 });
  const publicColumns = scan.names.filter((c) => c !== "Tags");
  writeCsvRows(scan, train, path.join(ctx.public, "train.csv"));
  writeCsvRows(scan, test, path.join(ctx.public, "test.csv"), { columns: publicColumns });
  writeCsvRows(scan, test, path.join(ctx.public, "sample_submission.csv"), {
    columns: [...publicColumns, { name: "Tags", text: SAMPLE_TAGS }],
  });
  writeCsvRows(scan, test, path.join(ctx.private, "test.csv"));
}
