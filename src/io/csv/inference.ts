/**
 * The dtype pandas gives a column, decided cell by cell without keeping cells. pandas converts a
 * column by trying whole-column passes in turn (parsers.pyx `_convert_tokens`: int64, then
 * uint64, float64, bool, object); each pass stops at its first failing cell. Here every pass runs
 * at once, one flag per pass, so a reader can stream the column once: the in-memory reader's
 * ColumnBuilder adds the cells' storage, the streaming splitter uses the flags alone.
 */
import { BIG, INT64_MAX, INVALID, MINUS, OVERFLOW, R, TWO_53_BIG, isNa, parseBool, parseFloat64, parseInteger, plainDecimal, plainInteger } from "./numbers.js";

/**
 * What pandas makes of a column: `int` (int64), `uint` (uint64), `intFloat` (integers with gaps:
 * float64), `float`, `bool`, `boolObject` (booleans with gaps: object of True/False/NaN),
 * `string` (object, missing-value tokens as NaN) and `rawString` (object read again without NA
 * filtering, pandas' fallback when a uint64 column also holds negatives or gaps).
 */
export type InferredDtype = "int" | "uint" | "intFloat" | "float" | "bool" | "boolObject" | "string" | "rawString";

/** Which shortcut fits a column now: none, integers so far, floats only, or text (no pass left). */
export const MODE_GENERAL = 0;
export const MODE_INT = 1;
export const MODE_FLOAT = 2;
export const MODE_TEXT = 3;

/** The passes' state for one column. */
export class ColumnInference {
  /** The int64 pass has not failed yet. */
  intAlive = true;
  /** The int64 pass overflowed and pandas' uint64 retry has not failed yet. */
  uintAlive = false;
  floatAlive = true;
  boolAlive = true;
  /** A '-' signed integer was seen (str_to_uint64's seen_sint). */
  minus = false;
  /** A value above int64's range was seen (seen_uint). */
  aboveInt64 = false;
  /** "-0" was read as an integer: stored as -0 for the float pass, to become 0 if the column stays integer. */
  negZero = false;
  /** An integer outside ±2^53 was seen, so an int column needs bigint storage. */
  beyond53 = false;
  /** Every typed pass has failed: an object column of strings. */
  text = false;
  naCount = 0;
  /** Which shortcut fits the column now; updated after every {@link cell}. */
  mode = MODE_INT;

  /** Take a cell for its flags alone, by the shortcuts when the spelling allows. */
  observe(b: Buffer, a: number, z: number): void {
    const mode = this.mode;
    if (mode === MODE_TEXT) return;
    if (mode === MODE_INT) {
      const plain = plainInteger(b, a, z);
      if (plain !== 0) {
        if (plain === 2) this.minus = true;
        this.boolAlive = false;
        return;
      }
    } else if (mode === MODE_FLOAT && plainDecimal(b, a, z)) return;
    this.cell(b, a, z);
  }

  /**
   * One cell through every pass still alive. Returns its value as pandas' float (or bool) pass
   * reads it, NaN for a missing value or when no pass reads it; an integer too long for a double
   * is also handed to {@link bigInteger}. `text` is set by the cell that ends the last pass.
   */
  cell(b: Buffer, a: number, z: number): number {
    const v = this.passes(b, a, z);
    this.mode = this.text
      ? MODE_TEXT
      : this.intAlive
        ? MODE_INT
        : this.floatAlive && !this.uintAlive && !this.boolAlive
          ? MODE_FLOAT
          : MODE_GENERAL;
    return v;
  }

  private passes(b: Buffer, a: number, z: number): number {
    if (isNa(b, a, z)) {
      this.naCount++;
      return NaN;
    }
    if (this.intAlive) {
      const v = parseInteger(b, a, z, false);
      if (v === v) {
        this.integer(v);
        return v;
      }
      if (R.status === BIG) {
        this.integer(R.val);
        this.bigInteger(R.big);
        return R.val;
      }
      this.intAlive = false;
      // pandas retries uint64 only when int64 overflowed, not when a cell was not an integer.
      if (R.status === OVERFLOW) this.uintAlive = true;
    }
    let value = NaN;
    if (this.uintAlive) {
      const v = parseInteger(b, a, z, true);
      if (v === v) value = v;
      else if (R.status === BIG) {
        value = R.val;
        this.bigInteger(R.big);
        if (R.big > INT64_MAX) this.aboveInt64 = true;
      } else if (R.status === MINUS) this.minus = true;
      else if (R.status === INVALID) this.uintAlive = false;
      else {
        // uint64 overflow raises OverflowError, which pandas answers with an object column.
        this.text = true;
        return NaN;
      }
    }
    if (value !== value && this.floatAlive) {
      value = parseFloat64(b, a, z);
      if (value !== value) this.floatAlive = false;
    }
    if (value === value) {
      this.boolAlive = false;
      return value;
    }
    if (this.boolAlive) {
      const v = parseBool(b, a, z);
      if (v >= 0) return v;
      this.boolAlive = false;
    }
    if (!this.uintAlive && !this.floatAlive) this.text = true;
    return NaN;
  }

  /** Note an integer from the int64 pass; its sign matters to pandas' uint64 pass, even for "-0". */
  integer(v: number): void {
    if (v < 0) this.minus = true;
    else if (v === 0 && 1 / v < 0) this.minus = this.negZero = true;
    this.boolAlive = false;
  }

  /** Note the exact value of an integer too long for a double; ColumnBuilder also keeps it. */
  protected bigInteger(v: bigint): void {
    if (v > TWO_53_BIG || v < -TWO_53_BIG) this.beyond53 = true;
  }

  /** The column's dtype once its `rows` cells have been seen (a header-only file gives object columns). */
  dtype(rows: number): InferredDtype {
    if (this.text || rows === 0) return "string";
    if (this.intAlive) return this.naCount > 0 ? "intFloat" : "int";
    if (this.uintAlive) {
      // uint64_conflict: a value above int64 with a negative or a missing value raises ValueError, and
      // pandas then re-reads the column as object *without* NA filtering: "NA" stays the string "NA".
      if (this.aboveInt64 && (this.minus || this.naCount > 0)) return "rawString";
      // Only negatives beyond int64: OverflowError, an ordinary object column.
      return this.minus ? "string" : "uint";
    }
    if (this.floatAlive) return "float";
    return this.naCount === 0 ? "bool" : "boolObject";
  }
}
