/**
 * One column of the in-memory reader: the inference of inference.ts plus the cells. The numeric
 * value of each cell is kept in a Float64Array as it is read; once every typed pass has failed,
 * the cells' bytes from that row on, the earlier rows' bytes coming from a second pass (Backfill).
 */
import type { Column } from "../../core/table.js";
import { type TextArena, TextBytesBuilder } from "../../core/text-bytes.js";
import { ColumnInference } from "./inference.js";
import { isNa } from "./numbers.js";

/** A string column whose first `upto` rows must be re-read from the input. */
export interface Backfill {
  upto: number;
  /** Whether missing-value tokens become null (false only for pandas' uint64-conflict fallback). */
  naFilter: boolean;
  /** The cells already collected for rows `upto` onward. */
  tail: TextBytesBuilder;
}

/** Whether a finished column still needs a second pass. */
export function isBackfill(x: Column | Backfill): x is Backfill {
  return (x as Backfill).upto !== undefined;
}

/** A column being read: the passes' flags, each cell's value, and the strings once it is text. */
export class ColumnBuilder extends ColumnInference {
  /** Exact values of integers too long for a double, by row. */
  bigs: Map<number, bigint> | null = null;
  /** Each cell's value as pandas' float (or bool) pass reads it; NaN for missing values. */
  vals: Float64Array;
  /** Once every typed pass has failed: the cells from row `strFrom` on (earlier rows come from a second pass). */
  strs: TextBytesBuilder | null = null;
  strFrom = 0;
  /** The row being added, for {@link bigInteger}. */
  private row = 0;

  constructor(
    capacity: number,
    private readonly arena: TextArena,
  ) {
    super();
    this.vals = new Float64Array(capacity);
  }

  grow(capacity: number): void {
    if (this.strs !== null) return;
    const vals = new Float64Array(capacity);
    vals.set(this.vals);
    this.vals = vals;
  }

  /** Take cell `row` by the general path (the sink's loops take the settled cases themselves). */
  add(row: number, b: Buffer, a: number, z: number): void {
    const strs = this.strs;
    if (strs !== null) {
      if (isNa(b, a, z)) strs.appendNa();
      else strs.append(b, a, z);
      return;
    }
    this.row = row;
    const v = this.cell(b, a, z);
    if (!this.text) {
      this.vals[row] = v;
      return;
    }
    this.strs = new TextBytesBuilder(this.arena, this.vals.length - row);
    this.strs.append(b, a, z);
    this.strFrom = row;
    this.vals = new Float64Array(0);
    this.bigs = null;
  }

  protected override bigInteger(v: bigint): void {
    super.bigInteger(v);
    if (this.bigs === null) this.bigs = new Map();
    this.bigs.set(this.row, v);
  }

  /** Record an integer from the int64 pass. */
  setInt(row: number, v: number): void {
    this.vals[row] = v;
    this.integer(v);
  }

  /** The finished column, or what a second pass must collect for it. */
  finish(rows: number): Column | Backfill {
    const dtype = this.dtype(rows);
    if (this.strs !== null) return { upto: this.strFrom, naFilter: true, tail: this.strs };
    if (rows === 0) return { kind: "string", values: [] };
    if (dtype === "string") return { upto: rows, naFilter: true, tail: new TextBytesBuilder(this.arena) };
    if (dtype === "rawString") return { upto: rows, naFilter: false, tail: new TextBytesBuilder(this.arena) };
    // A view when the capacity guess was near enough (copying 8 bytes a row costs more than the
    // slack), a copy when most of the buffer would be wasted.
    const vals =
      rows === this.vals.length
        ? this.vals
        : this.vals.length - rows <= rows / 2
          ? this.vals.subarray(0, rows)
          : this.vals.slice(0, rows);
    this.vals = new Float64Array(0);
    switch (dtype) {
      case "int":
      case "intFloat":
        // Integer columns never hold -0 (int64 has none, and the upcast to float keeps +0).
        if (this.negZero) for (let i = 0; i < rows; i++) if (vals[i] === 0) vals[i] = 0;
        if (dtype === "intFloat") return { kind: "float", values: vals };
        return this.beyond53 ? { kind: "bigint", values: this.bigints(vals, rows) } : { kind: "int", values: vals };
      case "uint":
        return { kind: "bigint", values: this.bigints(vals, rows) };
      case "float":
        return { kind: "float", values: vals };
      case "bool":
        return { kind: "bool", values: Uint8Array.from(vals) };
      case "boolObject": {
        // Booleans with gaps: pandas makes an object column of True/False/NaN.
        const out: (boolean | null)[] = new Array(rows);
        for (let i = 0; i < rows; i++) out[i] = vals[i] !== vals[i] ? null : vals[i] === 1;
        return { kind: "object", values: out };
      }
    }
  }

  private bigints(vals: Float64Array, rows: number): bigint[] {
    const out: bigint[] = new Array(rows);
    const big = this.bigs;
    for (let i = 0; i < rows; i++) out[i] = big?.get(i) ?? BigInt(vals[i]);
    return out;
  }
}
