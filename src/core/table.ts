/**
 * A small columnar table with pandas-like column types.
 *
 * Column kinds mirror the dtypes `pandas.read_csv` infers, so graders can reproduce
 * upstream's comparisons exactly:
 * - `int`: every value an integer that fits a double exactly (pandas int64); no missing values.
 * - `bigint`: integers beyond 2^53 that still fit int64/uint64 (pandas int64/uint64).
 * - `float`: float64; missing values are NaN (pandas float64).
 * - `bool`: every value True/False (pandas bool); no missing values.
 * - `string`: anything else (pandas object); `null` is a missing value (NaN in pandas).
 *   A column of booleans with gaps is also `string`-kind in pandas terms (object), and is
 *   stored as kind `object` so the booleans keep their type.
 *   A string column read from a CSV file also carries `text`, its cells as bytes, until some
 *   code reads `values`: then the strings are made once and the bytes let go.
 */
import type { TextBytes } from "./text-bytes.js";

export type Column =
  | { kind: "int"; values: Float64Array }
  | { kind: "bigint"; values: bigint[] }
  | { kind: "float"; values: Float64Array }
  | { kind: "bool"; values: Uint8Array }
  | { kind: "string"; values: (string | null)[]; readonly text?: TextBytes }
  | { kind: "object"; values: (boolean | null)[] };

/** A string column over bytes; `values` decodes every cell on first use and then drops the bytes. */
export function textColumn(text: TextBytes): Column {
  const col = { kind: "string" } as { kind: "string"; values: (string | null)[]; text?: TextBytes };
  // Not enumerable: comparisons, spreads and serialisations see a plain string column.
  Object.defineProperty(col, "text", { value: text, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(col, "values", {
    configurable: true,
    enumerable: true,
    get() {
      const values = text.strings();
      Object.defineProperty(col, "values", { value: values, writable: true, configurable: true, enumerable: true });
      col.text = undefined;
      return values;
    },
  });
  return col;
}

/** The bytes of a string column not yet turned into strings, or undefined. */
export function bytesOf(col: Column): TextBytes | undefined {
  return col.kind === "string" ? col.text : undefined;
}

/** Number of rows of a column (without decoding a text column). */
export function columnLength(col: Column): number {
  return col.kind === "string" && col.text ? col.text.length : col.values.length;
}

export type ColumnKind = Column["kind"];

/** A single cell as a JavaScript value; `null` stands for a missing value (NaN in pandas). */
export type Cell = number | bigint | boolean | string | null;

/** A table: ordered column names and one column per name, all of equal length. */
export interface Table {
  readonly columns: string[];
  readonly data: Map<string, Column>;
  readonly rowCount: number;
}

/** Build a table from named columns, checking that lengths agree. */
export function makeTable(columns: [string, Column][]): Table {
  const data = new Map<string, Column>();
  let rowCount = -1;
  for (const [name, col] of columns) {
    if (data.has(name)) throw new Error(`duplicate column name '${name}'`);
    const n = columnLength(col);
    if (rowCount === -1) rowCount = n;
    else if (n !== rowCount) {
      throw new Error(`column '${name}' has ${n} rows, expected ${rowCount}`);
    }
    data.set(name, col);
  }
  return { columns: columns.map(([n]) => n), data, rowCount: Math.max(rowCount, 0) };
}

/** The value at row `i` as a plain JavaScript value (NaN floats become null). */
export function cellAt(col: Column, i: number): Cell {
  switch (col.kind) {
    case "int":
      return col.values[i];
    case "float": {
      const v = col.values[i];
      return Number.isNaN(v) ? null : v;
    }
    case "bool":
      return col.values[i] === 1;
    case "string":
      return col.text ? col.text.text(i) : col.values[i];
    case "bigint":
    case "object":
      return col.values[i];
  }
}

/** Take the rows at `indices` (in that order) from a column. */
export function takeColumn(col: Column, indices: ArrayLike<number>): Column {
  const n = indices.length;
  switch (col.kind) {
    case "int":
    case "float": {
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = col.values[indices[i]];
      return { kind: col.kind, values: out };
    }
    case "bool": {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = col.values[indices[i]];
      return { kind: "bool", values: out };
    }
    case "bigint": {
      const out: bigint[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = col.values[indices[i]];
      return { kind: "bigint", values: out };
    }
    case "string": {
      if (col.text) return textColumn(col.text.take(indices));
      const out: (string | null)[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = col.values[indices[i]];
      return { kind: "string", values: out };
    }
    case "object": {
      const out: (boolean | null)[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = col.values[indices[i]];
      return { kind: "object", values: out };
    }
  }
}
