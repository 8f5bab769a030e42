/**
 * Row taking with holes, as pandas produces it for a left merge or a group's first value: a
 * position of -1 is a missing cell, and columns that cannot hold one change dtype as in pandas
 * (int64 becomes float64 with NaN, bool becomes object).
 */
import { takeColumn, type Column } from "../core/table.js";

/** Rows `indices` of `col`, -1 meaning a missing cell (pandas' `take` with `allow_fill`). */
export function takeWithMissing(col: Column, indices: ArrayLike<number>): Column {
  const n = indices.length;
  let holes = false;
  for (let i = 0; i < n && !holes; i++) holes = indices[i] < 0;
  if (!holes) return takeColumn(col, indices);
  switch (col.kind) {
    case "int":
    case "float":
      return { kind: "float", values: Float64Array.from({ length: n }, (_, i) => (indices[i] < 0 ? NaN : col.values[indices[i]])) };
    case "bigint":
      return { kind: "float", values: Float64Array.from({ length: n }, (_, i) => (indices[i] < 0 ? NaN : Number(col.values[indices[i]]))) };
    case "bool":
      return { kind: "object", values: Array.from({ length: n }, (_, i) => (indices[i] < 0 ? null : col.values[indices[i]] === 1)) };
    case "string":
      return { kind: "string", values: Array.from({ length: n }, (_, i) => (indices[i] < 0 ? null : col.values[indices[i]])) };
    case "object":
      return { kind: "object", values: Array.from({ length: n }, (_, i) => (indices[i] < 0 ? null : col.values[indices[i]])) };
  }
}

/** Whether row `i` of `col` is missing (NaN or None in pandas). */
export function isMissing(col: Column, i: number): boolean {
  switch (col.kind) {
    case "float":
      return Number.isNaN(col.values[i]);
    case "string":
    case "object":
      return col.values[i] === null;
    default:
      return false;
  }
}
