/**
 * The first pass of the in-memory reader: columns built from the tokenizer's batches, or straight
 * from the bytes for records of plain numbers (`fast`).
 */
import type { TextArena } from "../../core/text-bytes.js";
import { ColumnBuilder } from "./builder.js";
import { SCAN, floatCore } from "./decimal.js";
import { MODE_FLOAT, MODE_INT, MODE_TEXT } from "./inference.js";
import { isNa, parseFloat64, parseInteger } from "./numbers.js";
import type { Tokenizer } from "./tokenizer.js";

// Bytes, declared here rather than imported: Node 20 re-reads an imported binding on every use
// (a TDZ check), which slows the byte loops measurably.
const LF = 10;
const CR = 13;
const COMMA = 44;
const QUOTE = 34;
const SPACE = 32;
const TAB = 9;

/** Builds the columns from the tokenizer's batches, or straight from the bytes (`fast`). */
export class InferenceSink {
  cols: ColumnBuilder[] | null = null;
  rows = 0;
  private capacity = 0;
  private bytesSeen = 0;
  /** Bytes up to the end of the header (blank lines before it included), once it has been read. */
  private headerBytes = 0;

  /**
   * `totalBytes`: the input's size when known, to size the columns once instead of growing them;
   * `arena`: where text cells' bytes go.
   */
  constructor(
    private readonly totalBytes: number,
    private readonly arena: TextArena,
  ) {}

  /** Whether `fast` may take the next records: every column still reads as int or as float, or is settled as text. */
  fastReady = false;

  private updateFastReady(tok: Tokenizer): void {
    this.fastReady =
      this.cols !== null &&
      tok.leading === 0 &&
      tok.pastFirstRow() &&
      this.cols.every((c) => c.mode === MODE_INT || c.mode === MODE_FLOAT || (c.mode === MODE_TEXT && c.strs !== null));
  }

  /**
   * The common case without the tokenizer: records that are one line of unquoted fields, numbers
   * (or empty) for columns that still read as int or as float and any text without quotes for
   * columns settled as text, ending in "\n" or "\r\n".
   * Parses them straight from b[p, n) into the columns and stops at the first record that needs
   * anything more, leaving it to the tokenizer. Returns the offset after the records it took.
   */
  fast(tok: Tokenizer, b: Buffer, p: number, n: number): number {
    const cols = this.cols!;
    const ncols = cols.length;
    const last = ncols - 1;
    let row = this.rows;
    let done = 0;
    records: while (p < n) {
      if (row >= this.capacity) {
        this.capacity = Math.ceil(this.capacity * 1.5);
        for (const col of cols) col.grow(this.capacity);
      }
      let q = p;
      let gaps = false;
      for (let j = 0; j < ncols; j++) {
        const col = cols[j];
        let c = b[q];
        const text = col.strs;
        if (text !== null) {
          // Blank lines, and lines that may hold only spaces and tabs, are the tokenizer's to skip.
          if (j === 0 && (c === LF || c === CR || c === SPACE || c === TAB)) break records;
          let e = q;
          while (e < n && (c = b[e]) !== COMMA && c !== LF && c !== CR) {
            if (c === QUOTE) break records;
            e++;
          }
          if (e >= n) break records;
          if (isNa(b, q, e)) text.appendNa();
          else text.append(b, q, e);
          q = e;
        } else if (c === COMMA || ((c === LF || c === CR) && j > 0)) {
          // An empty field: missing. Counted once the whole record has been taken.
          col.vals[row] = NaN;
          gaps = true;
        } else if (c === 78 || c === 110 || c === 35 || c === 60) {
          // Maybe a missing-value token (NA, nan, NaN, NULL, null, None, #N/A, <NA>, ...).
          let e = q;
          while (e < n && (c = b[e]) !== COMMA && c !== LF && c !== CR) e++;
          if (e >= n || !isNa(b, q, e)) break records;
          col.vals[row] = NaN;
          gaps = true;
          q = e;
        } else if (col.mode === MODE_INT) {
          let neg = false;
          if (c === 45) {
            neg = true;
            if (++q >= n) break records;
            c = b[q];
          }
          const ds = q;
          let v = 0;
          while (c >= 48 && c <= 57) {
            v = v * 10 + (c - 48);
            if (++q >= n) break records;
            c = b[q];
          }
          if (q === ds || q - ds > 15) break records;
          col.setInt(row, neg ? -v : v);
        } else {
          const v = floatCore(b, q, n);
          if (v !== v || v === Infinity) break records;
          q = SCAN.end;
          if (q >= n) break records;
          c = b[q];
          col.vals[row] = v;
        }
        if (j < last) {
          if (c !== COMMA) break records;
          q++;
        } else if (c === LF) q++;
        else if (c === CR && q + 1 < n && b[q + 1] === LF) q += 2;
        else break records;
      }
      if (gaps) for (let j = 0; j < ncols; j++) if (cols[j].vals[row] !== cols[j].vals[row]) cols[j].naCount++;
      p = q;
      row++;
      done++;
    }
    // A record given up half way may have added text cells: the tokenizer takes it whole.
    this.dropText(cols, row);
    this.rows = row;
    tok.skipRecords(done);
    return p;
  }

  /** Drop text cells past the first `row` records. */
  private dropText(cols: ColumnBuilder[], row: number): void {
    for (const col of cols) col.strs?.truncate(row - col.strFrom);
  }

  consume(tok: Tokenizer, b: Buffer, used: number): void {
    const nr = tok.nr;
    if (tok.headerEnd >= 0) this.headerBytes = this.bytesSeen + tok.headerEnd;
    this.bytesSeen += used;
    if (nr === 0) {
      this.updateFastReady(tok);
      return;
    }
    if (this.cols === null) {
      const ncols = tok.header!.length;
      // Rows in the whole input, extrapolated from the first batch's data rows (a wide header
      // would make them look sparse), with a little slack.
      const rest = this.totalBytes - this.headerBytes;
      const seen = this.bytesSeen - this.headerBytes;
      const guess = rest > seen && seen > 0 ? Math.ceil((nr * rest * 1.1) / seen) : nr;
      // A row of ncols fields takes at least ncols bytes unless pandas pads it; more rows than
      // that are padding, which growing covers, and a guess alone must not reserve more.
      const most = Math.ceil(rest / ncols) + 16;
      this.capacity = Math.max(nr, Math.min(guess, most, 1 << 30), 16);
      this.cols = [];
      for (let j = 0; j < ncols; j++) this.cols.push(new ColumnBuilder(this.capacity, this.arena));
    }
    const cols = this.cols;
    const ncols = cols.length;
    if (this.rows + nr > this.capacity) {
      while (this.rows + nr > this.capacity) this.capacity = Math.ceil(this.capacity * 1.5);
      for (const col of cols) col.grow(this.capacity);
    }
    const fs = tok.fs;
    const fe = tok.fe;
    const re = tok.re;
    const lead = tok.leading;
    // Column by column: each column's state is stable over long runs, so the settled cases
    // (all integers so far, floats only) get a tight loop and everything else the general path.
    for (let j = 0; j < ncols; j++) {
      const col = cols[j];
      let row = this.rows;
      let first = 0;
      for (let r = 0; r < nr; r++, row++) {
        const fi = first + lead + j;
        first = re[r];
        const e = fe[fi];
        if (e < 0) {
          // Rare: quotes that had to be rewritten; parse the rewritten bytes.
          const x = tok.cx[fs[fi]];
          col.add(row, x, 0, x.length);
          continue;
        }
        const a = fs[fi];
        if (col.mode === MODE_FLOAT) {
          if (isNa(b, a, e)) {
            col.naCount++;
            col.vals[row] = NaN;
          } else {
            const v = parseFloat64(b, a, e);
            if (v === v) col.vals[row] = v;
            else col.add(row, b, a, e);
          }
        } else if (col.mode === MODE_INT) {
          if (isNa(b, a, e)) {
            col.naCount++;
            col.vals[row] = NaN;
          } else {
            const v = parseInteger(b, a, e, false);
            if (v === v) col.setInt(row, v);
            else col.add(row, b, a, e);
          }
        } else col.add(row, b, a, e);
      }
    }
    this.rows += nr;
    this.updateFastReady(tok);
  }
}
