import type { Column } from "../../core/table.js";

/** One column per class, named by the class, holding `value(row, class, class index)` for each of `rows` (answers, probabilities). */
export function oneHotColumns(
  classes: readonly string[],
  rows: number[],
  value: (row: number, cls: string, k: number) => number,
  kind: "int" | "float",
): [string, Column][] {
  return classes.map((cls, k) => [cls, { kind, values: Float64Array.from(rows, (i) => value(i, cls, k)) }]);
}
