/**
 * pandas' `df.groupby(col)` reduced to what preparers use: the row positions of each group, the
 * groups in ascending key order (groupby's default sort=True), rows in table order within a group.
 */
import type { Column } from "../core/table.js";

/** One group: its key and the positions of its rows, ascending. */
export interface RowGroup {
  key: string | number | bigint | boolean;
  rows: number[];
}

// Python compares str by code point; JavaScript's < compares UTF-16 units, which disagree only
// when one side is a surrogate (U+D800-DFFF) and the other a unit from U+E000 up.
function codeUnitRank(c: number): number {
  if (c < 0xd800) return c;
  return c < 0xe000 ? c + 0x2000 : c - 0x800;
}

/** Python's ordering of two str values. */
export function comparePyStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codeUnitRank(x) - codeUnitRank(y);
  }
  return a.length - b.length;
}

function compareKeys(a: RowGroup["key"], b: RowGroup["key"]): number {
  if (typeof a === "string" && typeof b === "string") return comparePyStrings(a, b);
  if (typeof a === "bigint" || typeof b === "bigint") return BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0;
  return Number(a) - Number(b);
}

// Key of row i, or undefined for a missing key (groupby's dropna=True leaves such rows out).
function keyAt(col: Column, i: number): RowGroup["key"] | undefined {
  switch (col.kind) {
    case "int":
      return col.values[i];
    case "float":
      return Number.isNaN(col.values[i]) ? undefined : col.values[i];
    case "bool":
      return col.values[i] === 1;
    case "bigint":
      return col.values[i];
    case "string":
    case "object":
      return col.values[i] ?? undefined;
  }
}

/** The groups of `df.groupby(column)`, sorted by key; rows whose key is missing belong to none, as in pandas. */
export function groupRows(col: Column): RowGroup[] {
  const byKey = new Map<RowGroup["key"], number[]>();
  for (let i = 0; i < col.values.length; i++) {
    const k = keyAt(col, i);
    if (k === undefined) continue;
    const rows = byKey.get(k);
    if (rows) rows.push(i);
    else byKey.set(k, [i]);
  }
  const groups = [...byKey].map(([key, rows]) => ({ key, rows }));
  return groups.sort((a, b) => compareKeys(a.key, b.key));
}
