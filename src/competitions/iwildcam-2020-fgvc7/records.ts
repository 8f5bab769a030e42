/**
 * A JSON list of objects taken through `pd.DataFrame(records)` and back out with
 * `to_dict(orient="records")`, as upstream does with the COCO-style metadata. The round trip is
 * not the identity: every record gains every column (absent keys become NaN), and a column's
 * values follow the dtype pandas infers for it (an int column with a gap turns into floats, so
 * 3 comes back as 3.0).
 */
import { UserError } from "../../core/errors.js";
import type { Column } from "../../core/table.js";
import { isPyJsonObject, type PyJson, type PyJsonObject } from "../../pycompat/pyjson.js";
import { pyFloatRepr } from "../../pycompat/pyfloat.js";

/** The dtype pandas settles on for a column of Python objects. */
export type FrameDtype = "int64" | "float64" | "bool" | "object";

/** A column after inference: its dtype and the Python values `to_dict` hands back. */
export interface FrameColumn {
  dtype: FrameDtype;
  values: PyJson[];
}

/** A frame built from records: columns in order of first appearance. */
export interface RecordFrame {
  columns: string[];
  data: Map<string, FrameColumn>;
  rowCount: number;
}

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** `pd.DataFrame(list_of_dicts)` for a JSON list; `where` names it in errors. */
export function recordsFrame(v: PyJson | undefined, where: string): RecordFrame {
  if (!Array.isArray(v)) throw new UserError(`${where}: expected a JSON list of objects`);
  const records = v.map((r, i) => {
    if (r === null || !isPyJsonObject(r)) throw new UserError(`${where}: item #${i} is not a JSON object`);
    return r;
  });
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const r of records) {
    for (const k of r.keys()) {
      if (!seen.has(k)) {
        seen.add(k);
        columns.push(k);
      }
    }
  }
  const data = new Map<string, FrameColumn>();
  for (const c of columns) data.set(c, inferColumn(records.map((r) => (r.has(c) ? r.get(c)! : MISSING))));
  return { columns, data, rowCount: records.length };
}

// An absent key: pandas fills it with float NaN before inferring the dtype.
const MISSING = Symbol("missing");
type Raw = PyJson | typeof MISSING;

/** pandas' maybe_convert_objects reduced to the JSON types: which dtype, and the converted values. */
function inferColumn(raw: Raw[]): FrameColumn {
  let gap = false;
  let nan = false;
  let bool = false;
  let float = false;
  let int = false;
  let other = false;
  let negative = false;
  let beyondInt64 = false;
  for (const v of raw) {
    if (v === MISSING) nan = true;
    else if (v === null) gap = true;
    else if (typeof v === "boolean") bool = true;
    else if (typeof v === "number") {
      float = true;
      if (v !== v) nan = true;
    } else if (typeof v === "bigint") {
      int = true;
      if (v < 0n) negative = true;
      if (v > 2n ** 63n - 1n) beyondInt64 = true;
      if (v < INT64_MIN || v > UINT64_MAX) other = true;
    } else other = true;
  }
  // Ints that fit neither int64 nor uint64 (or need both) stay Python objects.
  if (negative && beyondInt64) other = true;
  const values = raw.map((v) => (v === MISSING ? NaN : v));
  if (other) return { dtype: "object", values };
  if (gap || nan) {
    if (bool) return { dtype: "object", values };
    if (float || int || nan) return { dtype: "float64", values: values.map(toFloat) };
    return { dtype: "object", values };
  }
  if (bool) return float || int ? { dtype: "object", values } : { dtype: "bool", values };
  if (float) return { dtype: "float64", values: values.map(toFloat) };
  return { dtype: "int64", values };
}

function toFloat(v: PyJson): PyJson {
  if (v === null) return NaN;
  return typeof v === "bigint" ? Number(v) : v;
}

/** `df.to_dict(orient="records")` for rows `rows` (all rows when omitted). */
export function frameRecords(f: RecordFrame, rows?: readonly number[]): PyJsonObject[] {
  const idx = rows ?? Array.from({ length: f.rowCount }, (_, i) => i);
  const cols = f.columns.map((c) => [c, f.data.get(c)!.values] as const);
  return idx.map((i) => new Map(cols.map(([c, vals]) => [c, vals[i]])));
}

/** A column of the frame, or a UserError naming what is missing. */
export function frameColumn(f: RecordFrame, name: string, where: string): FrameColumn {
  const col = f.data.get(name);
  if (!col) throw new UserError(`${where}: no "${name}" field in any item (fields: ${f.columns.join(", ") || "none"})`);
  return col;
}

/**
 * A hash key with Python's equality for the values pandas puts in one hash table
 * (`unique`, `isin`): 1, 1.0 and True are one key; NaN matches NaN.
 */
export function valueKey(v: PyJson, where: string): string {
  if (v === null) return "None";
  if (typeof v === "string") return `s${v}`;
  if (typeof v === "boolean") return v ? "n1" : "n0";
  if (typeof v === "bigint") return `n${v}`;
  if (typeof v === "number") {
    if (v !== v) return "nan";
    if (Number.isInteger(v)) return `n${BigInt(v)}`;
    return `f${pyFloatRepr(v)}`;
  }
  throw new UserError(`${where}: a list or object cannot be compared as an id (unhashable in pandas)`);
}

/** Python's `str(v)` for a scalar, as f-strings and the csv module print it. */
export function pyStr(v: PyJson, where: string): string {
  if (v === null) return "None";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return pyFloatRepr(v);
  throw new UserError(`${where}: expected a scalar value, got a JSON ${Array.isArray(v) ? "list" : "object"}`);
}

/** A frame column as a table column for `to_csv`, rows `rows`. */
export function frameTableColumn(col: FrameColumn, rows: readonly number[], where: string): Column {
  const vals = rows.map((i) => col.values[i]);
  switch (col.dtype) {
    case "int64": {
      const big = vals as bigint[];
      const safe = big.every((v) => v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER));
      return safe ? { kind: "int", values: Float64Array.from(big, Number) } : { kind: "bigint", values: big };
    }
    case "float64":
      return { kind: "float", values: Float64Array.from(vals as number[]) };
    case "bool":
      return { kind: "bool", values: Uint8Array.from(vals as boolean[], (b) => (b ? 1 : 0)) };
    case "object":
      // to_csv writes str() of each object and an empty field for None/NaN.
      return { kind: "string", values: vals.map((v) => (v === null || (typeof v === "number" && v !== v) ? null : pyStr(v, where))) };
  }
}
