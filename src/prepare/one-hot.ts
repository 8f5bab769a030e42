import { UserError } from "../core/errors.js";
import { cellAt, makeTable, type Column, type Table } from "../core/table.js";
import { column } from "./frame.js";

/**
 * Upstream's `df_to_one_hot(df, id_column, target_column, classes)`: the id column, then one int
 * column per class (in the order of `classes`) holding 1 where the row's label is that class and
 * 0 elsewhere. Rows keep their order.
 *
 * A label outside `classes` (or a missing one) is refused: pandas would append a column named
 * after it, filled with NaN, which no grader expects, so it can only mean broken input.
 */
export function oneHotTable(t: Table, idColumn: string, targetColumn: string, classes: readonly string[], where = "table"): Table {
  const ids = t.data.get(idColumn);
  if (!ids) throw new UserError(`${where}: no column "${idColumn}" (columns: ${t.columns.join(", ")})`);
  const labels = t.data.get(targetColumn);
  if (!labels) throw new UserError(`${where}: no column "${targetColumn}" (columns: ${t.columns.join(", ")})`);
  const position = new Map<string, number>();
  classes.forEach((c, k) => position.set(c, k));
  const columns = classes.map(() => new Float64Array(t.rowCount));
  for (let i = 0; i < t.rowCount; i++) {
    const label = cellAt(labels, i);
    const k = typeof label === "string" ? position.get(label) : undefined;
    if (k === undefined) throw unknownLabel(where, targetColumn, label, cellAt(ids, i));
    columns[k][i] = 1;
  }
  const out: [string, Column][] = [[idColumn, ids]];
  classes.forEach((c, k) => out.push([c, { kind: "int", values: columns[k] }]));
  return makeTable(out);
}

function unknownLabel(where: string, column: string, label: unknown, id: unknown): UserError {
  const shown = label === null ? "a missing value" : JSON.stringify(typeof label === "bigint" ? String(label) : label);
  const row = id === null ? "" : ` (row with id ${typeof id === "bigint" ? String(id) : JSON.stringify(id)})`;
  return new UserError(`${where}: column "${column}" holds ${shown}${row}, which is not one of the expected classes`);
}

/** The ids of `t` with each class at the float 1/len(classes), the sample submission of a one-hot task. */
export function uniformTable(t: Table, idColumn: string, classes: readonly string[], where = "table"): Table {
  const p = 1 / classes.length;
  const cols: [string, Column][] = [[idColumn, column(t, idColumn, where)]];
  for (const c of classes) cols.push([c, { kind: "float", values: new Float64Array(t.rowCount).fill(p) }]);
  return makeTable(cols);
}
