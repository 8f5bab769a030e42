import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import type { Column, Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsvFloatG } from "../../prepare/float-format.js";
import { dropColumns, selectColumns, takeRows, withColumn } from "../../prepare/frame.js";
import { groupRows } from "../../prepare/groupby.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

// Upstream reads these with integer dtypes, which pandas refuses for text or missing values.
const INT_COLUMNS = ["id", "breath_id", "R", "C", "u_out"];
const FLOAT_COLUMNS = ["time_step", "u_in", "pressure"];

function checkColumns(t: Table, file: string): void {
  for (const c of [...INT_COLUMNS, ...FLOAT_COLUMNS]) {
    const col = t.data.get(c);
    if (!col) throw new UserError(`${file}: no column "${c}" (columns: ${t.columns.join(", ")})`);
    if (INT_COLUMNS.includes(c) && col.kind !== "int") throw new UserError(`${file}: column "${c}" must hold integers only, found ${col.kind} values`);
    if (FLOAT_COLUMNS.includes(c) && col.kind !== "int" && col.kind !== "float") {
      throw new UserError(`${file}: column "${c}" must be numeric, found ${col.kind} values`);
    }
  }
}

// A 1..n id column (pandas `df["id"] = range(1, n + 1)`).
function counting(n: number): Column {
  return { kind: "int", values: Float64Array.from({ length: n }, (_, i) => i + 1) };
}

// Upstream writes every CSV with float_format="%.10g": floats get at most 10 significant digits.
function write(file: string, t: Table): void {
  writeCsvFloatG(file, t, 10);
}

/**
 * Upstream's split: whole breaths (grouped by breath_id, in breath_id order) go 90/10 to train
 * and test with random_state 0, so no breath straddles the two; ids are renumbered from 1 in each.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  checkColumns(old, file);
  const groups = groupRows(old.data.get("breath_id")!);
  const split = trainTestSplitIndices(groups.length, { testSize: 0.1, randomState: 0 });
  const rowsOf = (picked: number[]) => picked.flatMap((g) => groups[g].rows);
  const trainRows = takeRows(old, rowsOf(split.train));
  const testRows = takeRows(old, rowsOf(split.test));
  const train = withColumn(trainRows, "id", counting(trainRows.rowCount));
  const test = withColumn(testRows, "id", counting(testRows.rowCount));
  const publicTest = dropColumns(test, ["pressure"], file);
  const zeros: Column = { kind: "int", values: new Float64Array(test.rowCount) };
  const sample = withColumn(selectColumns(publicTest, ["id"], file), "pressure", zeros);
  write(path.join(ctx.public, "train.csv"), train);
  write(path.join(ctx.public, "test.csv"), publicTest);
  write(path.join(ctx.public, "sample_submission.csv"), sample);
  write(path.join(ctx.private, "test.csv"), test);
}
