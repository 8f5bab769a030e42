import type { Column } from "../../core/table.js";
import type { Mulberry32 } from "../../rng/mulberry32.js";

/** Row ids drawn at random, so that an id says nothing about a row's place in the source or its side of the split. */
export interface RandomIds {
  /** The id (1 … n) of a source row. */
  of(row: number): number;
  /** The rows sorted by id, in place, as every published file is. */
  sortById(rows: number[]): number[];
  /** The `id` column of these rows. */
  column(rows: number[]): [string, Column];
}

/** Ids 1 … n for `rows` (source row indices) in the order of one seeded shuffle of them. */
export function randomIds(rng: Mulberry32, rows: readonly number[]): RandomIds {
  const ids = new Map<number, number>();
  rng.shuffle([...rows]).forEach((row, k) => ids.set(row, k + 1));
  const of = (row: number) => {
    const id = ids.get(row);
    if (id === undefined) throw new Error(`randomIds: row ${row} was not given an id`);
    return id;
  };
  return {
    of,
    sortById: (r) => r.sort((a, b) => of(a) - of(b)),
    column: (r) => ["id", { kind: "int", values: Float64Array.from(r, of) }],
  };
}

/** The indices 0 … n − 1. */
export const indices = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
