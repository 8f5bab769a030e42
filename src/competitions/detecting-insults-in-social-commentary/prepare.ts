import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { dropColumns, selectColumns, withColumn } from "../../prepare/frame.js";

function copyRaw(raw: string, name: string, dest: string): void {
  const src = path.join(raw, name);
  if (!fs.existsSync(src)) throw new UserError(`${src} is missing`);
  fs.copyFileSync(src, dest);
}

/**
 * Kaggle's labelled test set is the answers: train.csv and test_with_solutions.csv are copied as
 * they are, and the public test, gold and all-zero sample submissions are derived from the latter.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  copyRaw(ctx.raw, "train.csv", path.join(ctx.public, "train.csv"));
  const answersFile = path.join(ctx.private, "test.csv");
  copyRaw(ctx.raw, "test_with_solutions.csv", answersFile);
  // Read back from the copy, as upstream does; errors name the raw file, which is the one to fix.
  const where = path.join(ctx.raw, "test_with_solutions.csv");
  const gold = selectColumns(readCsv(answersFile, { file: where }), ["Insult", "Date", "Comment"], where);
  writeCsv(path.join(ctx.private, "gold_submission.csv"), gold);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(gold, ["Insult"], where));
  const zeros = { kind: "int" as const, values: new Float64Array(gold.rowCount) };
  writeCsv(path.join(ctx.public, "sample_submission_null.csv"), withColumn(gold, "Insult", zeros));
}
