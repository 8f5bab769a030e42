import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListed } from "../../prepare/copy-listed.js";
import { copyTree } from "../../prepare/copy-tree.js";
import { trainTestSplitTable, withColumn } from "../../prepare/frame.js";

// Each cadence file raw/train/<first char>/<id>.npy into public/<folder>/<first char>/.
function copyCadences(t: Table, raw: string, dest: string, file: string): void {
  const ids = t.data.get("id");
  if (!ids) throw new UserError(`${file}: no id column`);
  if (ids.kind !== "string") throw new UserError(`${file}: the id column must hold text ids (like "0000799a2b2c42d"), found ${ids.kind} values`);
  const at = (id: string): string => {
    if (!id) throw new UserError(`${file}: an id is empty`);
    return path.join(id[0], `${id}.npy`);
  };
  copyListed(ids.values.map((id) => id ?? ""), { from: path.join(raw, "train"), to: dest, listedIn: file, at });
}

/**
 * Upstream's split: 10% of train_labels.csv (random_state 0) becomes the test set, cadence files
 * follow their ids, the old leaky release is copied unchanged; the sample submission says 0.5.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train_labels.csv");
  const old = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  writeCsv(path.join(ctx.public, "train_labels.csv"), train);
  writeCsv(path.join(ctx.private, "test.csv"), test);
  copyTree(path.join(ctx.raw, "old_leaky_data"), path.join(ctx.public, "old_leaky_data"), "folder (Kaggle's old_leaky_data)");
  copyCadences(train, ctx.raw, path.join(ctx.public, "train"), file);
  copyCadences(test, ctx.raw, path.join(ctx.public, "test"), file);
  const half = { kind: "float" as const, values: new Float64Array(test.rowCount).fill(0.5) };
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "target", half));
}
