import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyTree } from "../../prepare/copy-tree.js";
import { column, selectColumns, takeRows, withColumn } from "../../prepare/frame.js";
import { groupRows } from "../../prepare/groupby.js";
import { isMissing, takeWithMissing } from "../../prepare/merge.js";
import { numpyQuickArgsort } from "../../pycompat/numpy-argsort.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

// Weeks must be whole numbers: upstream builds a range() over them.
function weeksOf(t: Table, file: string): Float64Array {
  const col = column(t, "Weeks", file);
  if (col.kind !== "int") throw new UserError(`${file}: column "Weeks" must hold whole numbers of weeks without gaps, found ${col.kind} values`);
  return col.values;
}

// Patient ids in order of first appearance (pandas `unique`).
function uniquePatients(t: Table, file: string): string[] {
  const col = column(t, "Patient", file);
  const seen = new Set<string>();
  for (let i = 0; i < t.rowCount; i++) seen.add(String(cellAt(col, i)));
  return [...seen];
}

/**
 * `sort_values(by="Weeks").groupby("Patient").first().reset_index()`: per patient (in id order)
 * each column's first non-missing value after numpy's unstable quicksort by week.
 */
function firstVisits(test: Table, file: string): Table {
  const sorted = takeRows(test, numpyQuickArgsort(weeksOf(test, file)));
  const groups = groupRows(column(sorted, "Patient", file));
  const others = sorted.columns.filter((c) => c !== "Patient");
  const cols: [string, Column][] = [["Patient", takeWithMissing(column(sorted, "Patient", file), groups.map((g) => g.rows[0]))]];
  for (const name of others) {
    const col = sorted.data.get(name)!;
    const picks = groups.map((g) => g.rows.find((r) => !isMissing(col, r)) ?? -1);
    cols.push([name, takeWithMissing(col, picks)]);
  }
  return makeTable(cols);
}

/**
 * The answers: every test patient crossed with every week from the test set's first to last,
 * left-merged with the test rows on (Patient, Weeks), so unseen weeks have empty measurements and
 * a repeated visit repeats its grid row; then the Patient_Week key and a constant Confidence.
 */
function answerGrid(test: Table, file: string): Table {
  const weeks = weeksOf(test, file);
  const patients = column(test, "Patient", file);
  let lo = Infinity;
  let hi = -Infinity;
  for (const w of weeks) [lo, hi] = [Math.min(lo, w), Math.max(hi, w)];
  const matches = new Map<string, number[]>();
  for (let i = 0; i < test.rowCount; i++) {
    const key = `${String(cellAt(patients, i))}\u0000${weeks[i]}`;
    const list = matches.get(key);
    if (list) list.push(i);
    else matches.set(key, [i]);
  }
  const gridPatient: string[] = [];
  const gridWeek: number[] = [];
  const right: number[] = [];
  for (const p of uniquePatients(test, file)) {
    for (let w = lo; w <= hi; w++) {
      for (const r of matches.get(`${p}\u0000${w}`) ?? [-1]) {
        gridPatient.push(p);
        gridWeek.push(w);
        right.push(r);
      }
    }
  }
  const cols: [string, Column][] = [
    ["Patient", { kind: "string", values: gridPatient }],
    ["Weeks", { kind: "int", values: Float64Array.from(gridWeek) }],
  ];
  for (const name of test.columns) if (name !== "Patient" && name !== "Weeks") cols.push([name, takeWithMissing(test.data.get(name)!, right)]);
  const keys = gridPatient.map((p, i) => `${p}_${gridWeek[i]}`);
  cols.push(["Patient_Week", { kind: "string", values: keys }]);
  cols.push(["Confidence", constant(keys.length, 100)]);
  return makeTable(cols);
}

function constant(n: number, v: number): Column {
  return { kind: "int", values: new Float64Array(n).fill(v) };
}

/**
 * Upstream's split: whole patients (in id order) go 90/10 to train and test with random_state 0;
 * public test.csv keeps each test patient's earliest visit, the answers cover every week.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  weeksOf(old, file);
  const groups = groupRows(column(old, "Patient", file));
  const split = trainTestSplitIndices(groups.length, { testSize: 0.1, randomState: 0 });
  const train = takeRows(old, split.train.flatMap((g) => groups[g].rows));
  const test = takeRows(old, split.test.flatMap((g) => groups[g].rows));
  const answers = answerGrid(test, file);
  const sample = withColumn(
    withColumn(selectColumns(answers, ["Patient_Week"], file), "FVC", constant(answers.rowCount, 2000)),
    "Confidence",
    constant(answers.rowCount, 100),
  );
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), firstVisits(test, file));
  writeCsv(path.join(ctx.private, "test.csv"), answers);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  for (const [folder, t] of [["train", train], ["test", test]] as const) {
    fs.mkdirSync(path.join(ctx.public, folder), { recursive: true });
    for (const p of uniquePatients(t, file)) copyTree(path.join(ctx.raw, "train", p), path.join(ctx.public, folder, p), "folder of CT slices");
  }
}
