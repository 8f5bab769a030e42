import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, takeColumn, type Column, type Table } from "../../core/table.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListed } from "../../prepare/copy-listed.js";
import { column, takeRows } from "../../prepare/frame.js";
import { groupRows } from "../../prepare/groupby.js";
import { isMissing, takeWithMissing } from "../../prepare/merge.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

const KEYS = ["image_id", "class_id"];
const BOX = ["x_min", "y_min", "x_max", "y_max"];
const NO_FINDING = 14;

/** Row of the first appearance of each distinct image id, in file order (pandas `unique`). */
function firstAppearances(ids: Column): number[] {
  const seen = new Set<unknown>();
  const rows: number[] = [];
  for (let i = 0; i < ids.values.length; i++) {
    const v = isMissing(ids, i) ? null : ids.values[i];
    if (!seen.has(v)) {
      seen.add(v);
      rows.push(i);
    }
  }
  return rows;
}

/** Rows of `t` whose image id is among `ids` (as Python str), in file order. */
function rowsOf(t: Table, idCol: Column, ids: Set<string>): Table {
  const rows: number[] = [];
  for (let i = 0; i < t.rowCount; i++) if (!isMissing(idCol, i) && ids.has(pyStrAt(idCol, i))) rows.push(i);
  return takeRows(t, rows);
}

/**
 * `groupby(["image_id", "class_id"]).first().reset_index()`: one row per pair in key order, each
 * other column's first non-missing value within the pair (missing when there is none).
 */
function firstPerPair(t: Table, file: string): Table {
  const ids = column(t, "image_id", file);
  const classes = column(t, "class_id", file);
  const pairs: number[][] = [];
  for (const g of groupRows(ids)) {
    for (const sub of groupRows(takeColumn(classes, g.rows))) pairs.push(sub.rows.map((r) => g.rows[r]));
  }
  const cols: [string, Column][] = KEYS.map((k) => [k, takeColumn(column(t, k, file), pairs.map((p) => p[0]))]);
  for (const name of t.columns.filter((c) => !KEYS.includes(c))) {
    const col = t.data.get(name)!;
    cols.push([name, takeWithMissing(col, pairs.map((p) => p.find((r) => !isMissing(col, r)) ?? -1))]);
  }
  return makeTable(cols);
}

/** `fillna(0)`: float gaps become 0.0; text and object gaps become the integer 0, printed "0". */
function fillZero(col: Column): Column {
  switch (col.kind) {
    case "float":
      return { kind: "float", values: col.values.map((v) => (Number.isNaN(v) ? 0 : v)) };
    case "string":
      return { kind: "string", values: col.values.map((v) => v ?? "0") };
    case "object":
      return { kind: "string", values: col.values.map((v) => (v === null ? "0" : v ? "True" : "False")) };
    default:
      return col;
  }
}

/** The box's max corner set to 1 on "No finding" rows (upstream's loc assignment of 1.0). */
function markNoFinding(t: Table, file: string): Table {
  const classes = column(t, "class_id", file);
  // Text class ids never equal the number 14 in pandas, so only numeric columns can match.
  const numeric = classes.kind === "int" || classes.kind === "float" || classes.kind === "bigint";
  const hit = (i: number) => numeric && Number(classes.values[i]) === NO_FINDING;
  const cols: [string, Column][] = t.columns.map((name) => {
    const col = t.data.get(name)!;
    if (name !== "x_max" && name !== "y_max") return [name, col];
    // An integer column keeps its dtype: 1.0 fits it without loss.
    if (col.kind === "int" || col.kind === "float") return [name, { kind: col.kind, values: col.values.map((v, i) => (hit(i) ? 1 : v)) }];
    throw new UserError(`${file}: column "${name}" must hold numbers, found ${col.kind} values`);
  });
  return makeTable(cols);
}

/** Per image (in id order), its "<class> 1.0 <x_min> <y_min> <x_max> <y_max>" strings joined by spaces. */
function goldSubmission(answers: Table, file: string): Table {
  const parts = ["class_id", ...BOX].map((c) => column(answers, c, file));
  const ids = column(answers, "image_id", file);
  const groups = groupRows(ids);
  const strings = groups.map((g) =>
    g.rows
      .map((r) => {
        const [cls, ...box] = parts.map((c) => pyStrAt(c, r));
        return `${cls} 1.0 ${box.join(" ")}`;
      })
      .join(" "),
  );
  return makeTable([
    ["image_id", takeColumn(ids, groups.map((g) => g.rows[0]))],
    ["PredictionString", { kind: "string", values: strings }],
  ]);
}

/**
 * Upstream's split: 10% of Kaggle's distinct images (random_state 0) become the test set; the
 * answers keep the first annotation of each (image, class) pair with "No finding" as the box
 * 0 0 1 1, and the gold submission strings them together per image.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const idCol = column(old, "image_id", file);
  for (let i = 0; i < old.rowCount; i++) if (isMissing(idCol, i)) throw new UserError(`${file}: row ${i + 1} has no image_id`);
  for (const c of ["class_id", ...BOX]) column(old, c, file);
  const unique = firstAppearances(idCol);
  const split = trainTestSplitIndices(unique.length, { testSize: 0.1, randomState: 0 });
  const trainIds = split.train.map((k) => pyStrAt(idCol, unique[k]));
  const testIds = split.test.map((k) => pyStrAt(idCol, unique[k]));
  const train = rowsOf(old, idCol, new Set(trainIds));
  const grouped = firstPerPair(rowsOf(old, idCol, new Set(testIds)), file);
  const answers = markNoFinding(makeTable(grouped.columns.map((c) => [c, fillZero(grouped.data.get(c)!)])), file);
  const sample = makeTable([
    ["image_id", takeColumn(idCol, split.test.map((k) => unique[k]))],
    ["PredictionString", { kind: "string", values: testIds.map(() => "14 1 0 0 1 1") }],
  ]);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  writeCsv(path.join(ctx.private, "answers.csv"), answers);
  writeCsv(path.join(ctx.private, "gold_submission.csv"), goldSubmission(answers, file));
  for (const [ids, folder] of [[trainIds, "train"], [testIds, "test"]] as const) {
    copyListed(ids, { from: path.join(ctx.raw, "train"), to: path.join(ctx.public, folder), suffix: ".dicom", listedIn: "train.csv" });
  }
}
