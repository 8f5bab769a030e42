import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { trainTestSplitTable, withColumn } from "../../prepare/frame.js";

const COLUMNS = ["segment_id", "time_to_eruption"];

/** The segment ids of a split as upstream spells them in file names (pandas ints). */
function segmentIds(t: Table, file: string): string[] {
  const col = t.data.get("segment_id")!;
  if (col.kind === "bigint") return col.values.map(String);
  if (col.kind !== "int") throw new UserError(`${file}: segment_id should hold whole numbers, got a ${col.kind} column`);
  return Array.from(col.values, String);
}

function copySegments(ids: string[], from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const id of ids) {
    const src = path.join(from, `${id}.csv`);
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing: expected a sensor file for segment ${id}`);
    fs.copyFileSync(src, path.join(to, `${id}.csv`));
  }
}

/**
 * Upstream's split of Kaggle's train.csv: 10% of the segments held out (random_state 0) as the
 * test set, the sample submission predicting 0 for each; the segments' sensor files are copied
 * to public/train and public/test accordingly.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  // Upstream reads with float_precision="round_trip", which readCsv always does.
  const old = readCsv(file, { file });
  if (old.columns.join(",") !== COLUMNS.join(",")) throw new UserError(`${file}: expected columns ${COLUMNS.join(", ")}, got ${old.columns.join(", ")}`);
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const zeros = { kind: "int" as const, values: new Float64Array(test.rowCount) };
  writeCsv(path.join(ctx.private, "test.csv"), test);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "time_to_eruption", zeros));
  const segments = path.join(ctx.raw, "train");
  copySegments(segmentIds(train, file), segments, path.join(ctx.public, "train"));
  copySegments(segmentIds(test, file), segments, path.join(ctx.public, "test"));
}
