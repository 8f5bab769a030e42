/** Shared helpers for the CSV golden data made by scripts/golden/csv_cases.py. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Column, ColumnKind } from "../../src/core/table.js";

export type Enc = string | number | boolean | null;

export interface ReadCase {
  name: string;
  input_b64: string;
  columns?: string[];
  dtypes?: string[];
  values?: Enc[][];
  error?: string;
  message?: string;
}

export interface WriteCase {
  name: string;
  columns: { name: string; kind: ColumnKind; values: Enc[] }[];
  csv: string;
}

export interface Golden {
  pandas: string;
  read: ReadCase[];
  repr: [string, string][];
  write: WriteCase[];
}

export const golden: Golden = JSON.parse(
  readFileSync(fileURLToPath(new URL("../golden/csv.json", import.meta.url)), "utf8"),
);

/** A float as the generator encodes it: a number, or "nan" / "inf" / "-inf" / "-0.0". */
export function decFloat(v: Enc): number {
  if (v === "nan") return NaN;
  if (v === "inf") return Infinity;
  if (v === "-inf") return -Infinity;
  if (v === "-0.0") return -0;
  if (typeof v !== "number") throw new Error(`not an encoded float: ${String(v)}`);
  return v;
}

/** The double whose IEEE-754 bits are the 16 hex digits `hex` (big-endian). */
export function fromBits(hex: string): number {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setBigUint64(0, BigInt(`0x${hex}`));
  return dv.getFloat64(0);
}

/** The Column the reader should produce for a pandas dtype and encoded values. */
export function expectedColumn(dtype: string, values: Enc[]): Column {
  switch (dtype) {
    case "int64": {
      const big = values.map((v) => BigInt(v as string));
      const limit = 2n ** 53n;
      if (big.every((v) => v <= limit && v >= -limit)) {
        return { kind: "int", values: Float64Array.from(big, (v) => Number(v)) };
      }
      return { kind: "bigint", values: big };
    }
    case "uint64":
      return { kind: "bigint", values: values.map((v) => BigInt(v as string)) };
    case "float64":
      return { kind: "float", values: Float64Array.from(values, decFloat) };
    case "bool":
      return { kind: "bool", values: Uint8Array.from(values, (v) => (v ? 1 : 0)) };
    case "object":
      if (values.some((v) => typeof v === "boolean")) {
        return { kind: "object", values: values.map((v) => (v === null ? null : Boolean(v))) };
      }
      return { kind: "string", values: values.map((v) => (v === null ? null : String(v))) };
    default:
      throw new Error(`unexpected dtype ${dtype}`);
  }
}

/** Build a Column from the writer cases' description. */
export function buildColumn(kind: ColumnKind, values: Enc[]): Column {
  switch (kind) {
    case "int":
      return { kind, values: Float64Array.from(values, (v) => Number(v)) };
    case "bigint":
      return { kind, values: values.map((v) => BigInt(v as string)) };
    case "float":
      return { kind, values: Float64Array.from(values, decFloat) };
    case "bool":
      return { kind, values: Uint8Array.from(values, (v) => (v ? 1 : 0)) };
    case "string":
      return { kind, values: values.map((v) => (v === null ? null : String(v))) };
    case "object":
      return { kind, values: values.map((v) => (v === null ? null : Boolean(v))) };
  }
}

/** A column as plain arrays, so vitest's deep equality (Object.is on numbers: -0 and NaN) can compare it. */
export function plain(col: Column | undefined): { kind: string; values: unknown[] } | undefined {
  if (!col) return undefined;
  return { kind: col.kind, values: Array.from(col.values as ArrayLike<unknown>) };
}
