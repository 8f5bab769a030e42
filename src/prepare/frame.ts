import { UserError } from "../core/errors.js";
import { makeTable, takeColumn, type Column, type Table } from "../core/table.js";
import { trainTestSplitIndices } from "../rng/sklearn-split.js";

/** Rows `indices` of a table, in that order (pandas `df.iloc[indices]`). */
export function takeRows(t: Table, indices: ArrayLike<number>): Table {
  return makeTable(t.columns.map((c) => [c, takeColumn(t.data.get(c)!, indices)]));
}

/** One column by name (pandas `df[name]`); a missing one names the file and the columns it has. */
export function column(t: Table, name: string, where = "table"): Column {
  const col = t.data.get(name);
  if (!col) throw new UserError(`${where}: no column "${name}" (columns: ${t.columns.join(", ")})`);
  return col;
}

/** Only these columns, in this order (pandas `df[[...]]`). */
export function selectColumns(t: Table, names: readonly string[], where = "table"): Table {
  return makeTable(names.map((n) => [n, column(t, n, where)]));
}

/** Every column but these (pandas `df.drop(columns=...)`). */
export function dropColumns(t: Table, names: readonly string[], where = "table"): Table {
  for (const n of names) if (!t.data.has(n)) throw new UserError(`${where}: no column "${n}" to drop`);
  return makeTable(t.columns.filter((c) => !names.includes(c)).map((c) => [c, t.data.get(c)!]));
}

/** Rows whose `name` cell is one of `ids` (pandas `df[df[name].isin(ids)]`) and the rest (`~isin`), each in file order. */
export function splitIsin(t: Table, name: string, ids: Set<string>, where = "table"): { matched: Table; rest: Table } {
  const col = column(t, name, where);
  const matched: number[] = [];
  const rest: number[] = [];
  for (let i = 0; i < t.rowCount; i++) {
    // isin compares values, so only text cells can equal the (text) ids.
    const v = col.kind === "string" ? col.values[i] : null;
    (v !== null && ids.has(v) ? matched : rest).push(i);
  }
  return { matched: takeRows(t, matched), rest: takeRows(t, rest) };
}

/** Replace (or add at the end) a column. */
export function withColumn(t: Table, name: string, col: Column): Table {
  const cols: [string, Column][] = t.columns.map((c) => [c, c === name ? col : t.data.get(c)!]);
  if (!t.data.has(name)) cols.push([name, col]);
  return makeTable(cols);
}

/** A column holding one boolean in every row (pandas `df[c] = False`). */
export function constantBool(rows: number, value: boolean): Column {
  return { kind: "bool", values: new Uint8Array(rows).fill(value ? 1 : 0) };
}

/**
 * sklearn's `train_test_split(df, test_size=..., random_state=...)` on a table: the same rows in
 * the same order as upstream's preparers get.
 */
export function trainTestSplitTable(
  t: Table,
  opts: { testSize?: number; trainSize?: number; randomState: number; stratify?: string },
): { train: Table; test: Table } {
  let stratify: (string | number)[] | undefined;
  if (opts.stratify !== undefined) {
    const col = t.data.get(opts.stratify);
    if (!col) throw new UserError(`no column "${opts.stratify}" to stratify on`);
    stratify = Array.from({ length: t.rowCount }, (_, i) => {
      const v = col.values[i];
      return typeof v === "number" || typeof v === "string" ? v : String(v);
    });
  }
  const idx = trainTestSplitIndices(t.rowCount, {
    testSize: opts.testSize,
    trainSize: opts.trainSize,
    randomState: opts.randomState,
    stratify,
  });
  return { train: takeRows(t, idx.train), test: takeRows(t, idx.test) };
}
