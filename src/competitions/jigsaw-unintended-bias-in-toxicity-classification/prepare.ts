import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { selectColumns } from "../../prepare/frame.js";

/**
 * Upstream keeps Kaggle's own split: the expanded private test file (labels and identities) is
 * the answers and train.csv is copied as is; the public test is its id and comment_text, the
 * sample submission predicts 0.0 for every comment.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "test_private_expanded.csv");
  const train = path.join(ctx.raw, "train.csv");
  if (!fs.existsSync(train)) throw new UserError(`${train} is missing: upstream copies Kaggle's train.csv into public/`);
  const test = readCsv(file, { file });
  const testPublic = selectColumns(test, ["id", "comment_text"], file);
  fs.copyFileSync(file, path.join(ctx.private, "test.csv"));
  fs.copyFileSync(train, path.join(ctx.public, "train.csv"));
  writeCsv(path.join(ctx.public, "test.csv"), testPublic);
  const zeros = { kind: "float" as const, values: new Float64Array(test.rowCount) };
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([["id", testPublic.data.get("id")!], ["prediction", zeros]]));
}
