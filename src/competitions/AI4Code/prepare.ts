import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { isPyJsonObject, readPyJson } from "../../pycompat/pyjson.js";
import { takeRows } from "../../prepare/frame.js";
import { sampleIndices } from "../../rng/pandas-sample.js";

/** Notebooks upstream holds out: whole ancestry groups are taken until exactly this many are in. */
export const TEST_SIZE = 20_000;

/** A text column's values, refusing any other dtype: notebook ids are hex strings, never numbers. */
function textColumn(t: Table, name: string, file: string): (string | null)[] {
  const col = t.data.get(name);
  if (!col) throw new UserError(`${file}: no column "${name}" (columns: ${t.columns.join(", ")})`);
  if (col.kind !== "string") throw new UserError(`${file}: column "${name}" should hold hex ids (text), but reads as ${col.kind}`);
  return col.values;
}

function idAt(values: (string | null)[], row: number, what: string, file: string): string {
  const v = values[row];
  if (v === null) throw new UserError(`${file}: data row ${row + 1} has no ${what}`);
  return v;
}

/**
 * Upstream's greedy split: groups of notebooks sharing an ancestor, in order of first appearance,
 * each sent whole to test while it still fits under `testSize`, otherwise to train.
 */
export function splitOnAncestors(ids: string[], ancestors: string[], testSize: number): { train: string[]; test: string[] } {
  const groups = new Map<string, string[]>();
  ids.forEach((id, i) => {
    const g = groups.get(ancestors[i]);
    if (g) g.push(id);
    else groups.set(ancestors[i], [id]);
  });
  const train: string[] = [];
  const test: string[] = [];
  for (const members of groups.values()) {
    // A group that does not fit is skipped, yet smaller groups after it may still fill the gap.
    if (test.length + members.length <= testSize) test.push(...members);
    else train.push(...members);
  }
  return { train, test };
}

/** Rows of `t` whose id is (or, with `keep` false, is not) in `ids`, in their original order (pandas `isin`). */
function filterById(t: Table, idValues: (string | null)[], ids: Set<string>, keep: boolean): Table {
  const rows: number[] = [];
  idValues.forEach((v, i) => {
    if ((v !== null && ids.has(v)) === keep) rows.push(i);
  });
  return takeRows(t, rows);
}

function copyNotebooks(ids: string[], from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const id of ids) {
    const src = path.join(from, `${id}.json`);
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing (notebook listed in train_ancestors.csv)`);
    fs.copyFileSync(src, path.join(to, `${id}.json`));
  }
}

/** The notebook's cells in the order its JSON lists them under "cell_type", space-separated. */
function shippedCellOrder(file: string): string {
  const doc = readPyJson(file);
  const kinds = isPyJsonObject(doc) ? doc.get("cell_type") : undefined;
  if (kinds === undefined || !isPyJsonObject(kinds)) throw new UserError(`${file}: expected an object with a "cell_type" object`);
  return [...kinds.keys()].join(" ");
}

/** Upstream's steps with the held-out notebook count as a parameter (`prepare` passes {@link TEST_SIZE}). */
export function prepareWithTestSize(ctx: UpstreamPrepareContext, testSize: number): void {
  const ancestorsFile = path.join(ctx.raw, "train_ancestors.csv");
  const read = readCsv(ancestorsFile, { file: ancestorsFile });
  // The shuffle decides which groups come first, so it fixes the split.
  const ancestors = takeRows(read, sampleIndices(read.rowCount, { frac: 1, randomState: 0 }));
  const idValues = textColumn(ancestors, "id", ancestorsFile);
  const ancestorValues = textColumn(ancestors, "ancestor_id", ancestorsFile);
  const ids = idValues.map((_, i) => idAt(idValues, i, "id", ancestorsFile));
  const groups = ancestorValues.map((_, i) => idAt(ancestorValues, i, "ancestor_id", ancestorsFile));
  const split = splitOnAncestors(ids, groups, testSize);

  copyNotebooks(split.train, path.join(ctx.raw, "train"), path.join(ctx.public, "train"));
  copyNotebooks(split.test, path.join(ctx.raw, "train"), path.join(ctx.public, "test"));

  const ordersFile = path.join(ctx.raw, "train_orders.csv");
  const orders = readCsv(ordersFile, { file: ordersFile });
  const orderIds = textColumn(orders, "id", ordersFile);
  const trainSet = new Set(split.train);
  const testSet = new Set(split.test);
  const testOrders = filterById(orders, orderIds, testSet, true);
  writeCsv(path.join(ctx.public, "train_orders.csv"), filterById(orders, orderIds, trainSet, true));
  writeCsv(path.join(ctx.private, "test_orders.csv"), testOrders);
  writeCsv(path.join(ctx.public, "train_ancestors.csv"), filterById(ancestors, idValues, testSet, false));

  // The sample submission keeps each test notebook's cells in the order its JSON ships them.
  const testIdValues = textColumn(testOrders, "id", ordersFile);
  const testIds = testIdValues.map((_, i) => idAt(testIdValues, i, "id", ordersFile));
  if (testIds.length !== split.test.length) {
    throw new UserError(`${ordersFile}: has orders for ${testIds.length} of the ${split.test.length} test notebooks; every notebook needs one`);
  }
  const cellOrders = testIds.map((id) => shippedCellOrder(path.join(ctx.public, "test", `${id}.json`)));
  const sample: [string, Column][] = [
    ["id", { kind: "string", values: testIds }],
    ["cell_order", { kind: "string", values: cellOrders }],
  ];
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable(sample));
}

/**
 * Upstream's split of Kaggle's training notebooks: train_ancestors.csv is shuffled (random_state 0),
 * then whole ancestry groups go to the test split until it holds 20,000 notebooks, so no test
 * notebook has a relative in train. Notebook JSON files are copied, orders and ancestors filtered,
 * and the sample submission lists each test notebook's cells in their shipped order.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  prepareWithTestSize(ctx, TEST_SIZE);
}
