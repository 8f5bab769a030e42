import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { dropColumns, selectColumns, takeRows, withColumn } from "../../prepare/frame.js";
import { groupRows } from "../../prepare/groupby.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

// Per-molecule data files that upstream cuts down to the train molecules.
const AUXILIARY = [
  "structures",
  "dipole_moments",
  "magnetic_shielding_tensors",
  "mulliken_charges",
  "potential_energy",
  "scalar_coupling_contributions",
];

function moleculeColumn(t: Table, file: string): Column {
  const col = t.data.get("molecule_name");
  if (!col) throw new UserError(`${file}: no molecule_name column (columns: ${t.columns.join(", ")})`);
  return col;
}

// Distinct molecule names in order of first appearance (pandas `unique`, without missing names).
function moleculeNames(t: Table, file: string): string[] {
  const col = moleculeColumn(t, file);
  const seen = new Set<string>();
  for (let i = 0; i < t.rowCount; i++) {
    const v = cellAt(col, i);
    if (v !== null) seen.add(String(v));
  }
  return [...seen];
}

// `df[df["molecule_name"].isin(keep)]`, read and written one file at a time to bound memory.
function filterFile(src: string, dest: string, keep: Set<string>): void {
  const t = readCsv(src, { file: src });
  const col = moleculeColumn(t, src);
  const rows: number[] = [];
  for (let i = 0; i < t.rowCount; i++) {
    const v = cellAt(col, i);
    if (v !== null && keep.has(String(v))) rows.push(i);
  }
  writeCsv(dest, takeRows(t, rows));
}

/**
 * Upstream's split: whole molecules (in name order) go 90/10 to train and test with random_state
 * 0; the per-molecule files and .xyz structures are kept for train molecules only; the sample
 * submission predicts 0.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const groups = groupRows(moleculeColumn(old, file));
  const split = trainTestSplitIndices(groups.length, { testSize: 0.1, randomState: 0 });
  const train = takeRows(old, split.train.flatMap((g) => groups[g].rows));
  const answers = takeRows(old, split.test.flatMap((g) => groups[g].rows));
  const test = dropColumns(answers, ["scalar_coupling_constant"], file);
  const zeros: Column = { kind: "int", values: new Float64Array(test.rowCount) };
  const sample = withColumn(selectColumns(test, ["id"], file), "scalar_coupling_constant", zeros);
  writeCsv(path.join(ctx.private, "answers.csv"), answers);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), test);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  const molecules = moleculeNames(train, file);
  const keep = new Set(molecules);
  for (const name of AUXILIARY) filterFile(path.join(ctx.raw, `${name}.csv`), path.join(ctx.public, `${name}.csv`), keep);
  const dest = path.join(ctx.public, "structures");
  for (const m of molecules) {
    const src = path.join(ctx.raw, "structures", `${m}.xyz`);
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing (molecule ${m} is in ${file})`);
    fs.mkdirSync(dest, { recursive: true });
    fs.copyFileSync(src, path.join(dest, `${m}.xyz`));
  }
}
