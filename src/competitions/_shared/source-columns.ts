import type { Column, Table } from "../../core/table.js";

/** A column of a source file read by a preparer, or an error naming the file and the columns it has. */
export function sourceColumn(table: Table, name: string, file: string): Column {
  const col = table.data.get(name);
  if (!col) throw new Error(`${file}: no column "${name}" (columns: ${table.columns.join(", ")})`);
  return col;
}

/** The cells of a text column (null where missing), or an error naming the file and the column's kind. */
export function textValues(col: Column, name: string, file: string): (string | null)[] {
  if (col.kind !== "string") throw new Error(`${file}: column "${name}" should hold text, but it was read as ${col.kind}`);
  return col.values;
}

/** A text column with no missing values, or an error naming the file, the column and the empty row. */
export function requiredText(col: Column, name: string, file: string): string[] {
  return textValues(col, name, file).map((v, i) => {
    if (v === null) throw new Error(`${file}: column "${name}" is empty in data row ${i + 1}`);
    return v;
  });
}
