/**
 * `pandas.read_csv` → `train_test_split` → `to_csv(index=False)` for CSV files too big to hold in
 * memory (new-york-city-taxi-fare-prediction's train.csv: 5.7 GB, 55M rows), with the same bytes
 * as the in-memory path (readCsv, trainTestSplitTable, writeCsv).
 *
 * Pass 1 ({@link scanCsv}) reads the file once, front to back: it splits records the way pandas'
 * C tokenizer does, infers each column's dtype over the whole column (pandas' int64, uint64,
 * float64, bool, object passes, using csv-read's cell parsers) without keeping any cell, and
 * records where each record ends (4 bytes a row). The split is a permutation of row numbers in an
 * Int32Array (4 bytes a row). {@link writeCsvRows} then writes rows in any order: it takes the
 * output in blocks of a bounded size, sorts a block's rows by position in the file, reads them in
 * runs of nearby records (one read per run, not per row), re-formats each field for its column's
 * dtype into an arena, and writes the arena out in output order.
 *
 * Re-formatting works on bytes: a field already in the form pandas would print (a plain integer,
 * a float with at most 15 significant digits in repr's layout, text needing no quotes) is copied
 * as is, and only the others are parsed and printed again.
 */
import { isUtf8 } from "node:buffer";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { UserError } from "../core/errors.js";
import { csvCellParsers as P } from "../io/csv-read.js";
import { writeFileAtomic } from "../core/atomic.js";
import { pyFloatRepr } from "../pycompat/pyfloat.js";
import { RandomState } from "../rng/random-state.js";
import { validateShuffleSplit } from "../rng/sklearn-split.js";

const LF = 10;
const CR = 13;
const SP = 32;
const TAB = 9;
const QUOTE = 34;
const COMMA = 44;
const MINUS_SIGN = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

const TWO_32 = 4294967296;
const INT64_MAX = 9223372036854775807n;

// ---------------------------------------------------------------------------------------------
// Record tokenizer: pandas' C state machine (as csv-read transcribes it), one record at a time,
// so a record can be re-read on its own from its byte range.

/** Returned by {@link RecordTokenizer.next} when the bytes end inside a record and more may follow. */
const MORE = -1;

class RecordTokenizer {
  /** Per field: start offset, or the index in `cx` when `fe` is -1. */
  fs = new Int32Array(64);
  /** Per field: end offset, or -1 for a field whose bytes are in `cx` (doubled quotes, text after a quote). */
  fe = new Int32Array(64);
  nf = 0;
  cx: Buffer[] = [];
  /** Physical lines (line breaks) consumed by the last successful call. */
  lines = 0;
  /** Line breaks inside quoted fields of the record being read. */
  private quotedLines = 0;
  /** The physical line on which the last record read starts. */
  startLine = 0;

  constructor(private readonly file: string) {}

  private push(a: number, z: number): void {
    if (this.nf >= this.fs.length) {
      const fs = new Int32Array(this.fs.length * 2);
      fs.set(this.fs);
      this.fs = fs;
      const fe = new Int32Array(this.fe.length * 2);
      fe.set(this.fe);
      this.fe = fe;
    }
    this.fs[this.nf] = a;
    this.fe[this.nf++] = z;
  }

  private pushBytes(parts: Buffer[]): void {
    this.push(this.cx.length, -1);
    this.cx.push(parts.length === 1 ? parts[0] : Buffer.concat(parts));
  }

  /**
   * Skip blank lines from b[i] and read one record of b[i, n). Returns the offset after it, with
   * the fields in fs/fe (nf is 0 when only blank lines were left), or MORE when the record may
   * continue past n and `final` is false. `line` is the physical line at i, for messages.
   */
  next(b: Buffer, i: number, n: number, final: boolean, line: number): number {
    this.nf = 0;
    // Only reset when used: setting an array's length is not free, and most records have no such field.
    if (this.cx.length > 0) this.cx.length = 0;
    this.quotedLines = 0;
    let lines = 0;
    let c = 0;
    // Blank lines, and lines of only spaces and tabs, hold no record.
    for (;;) {
      if (i >= n) {
        if (!final) return MORE;
        this.lines = lines;
        return n;
      }
      c = b[i];
      if (c === LF) {
        i++;
        lines++;
        continue;
      }
      if (c !== CR && c !== SP && c !== TAB) break;
      let j = i;
      if (c !== CR) {
        j++;
        while (j < n && ((c = b[j]) === SP || c === TAB)) j++;
        if (j >= n) {
          if (!final) return MORE;
          this.lines = lines;
          return n;
        }
        c = b[j];
      }
      if (c === LF) {
        i = j + 1;
        lines++;
        continue;
      }
      if (c !== CR) break; // the blanks begin a record
      if (j + 1 >= n && !final) return MORE;
      i = j + 1;
      lines++;
      // pandas swallows the byte after a blank line's CR when it is LF or a delimiter.
      if (i < n && (b[i] === LF || b[i] === COMMA)) i++;
    }
    const start = line + lines;
    this.startLine = start;
    for (;;) {
      if (i >= n) {
        if (!final) return MORE;
        this.push(0, 0); // a delimiter right before the end ends one more, empty, field
        break;
      }
      c = b[i];
      if (c === QUOTE) {
        const end = this.quoted(b, i, n, final, start + this.quotedLines);
        if (end === MORE) return MORE;
        i = end;
      } else {
        let j = i;
        while (j < n && ((c = b[j]) > COMMA || (c !== COMMA && c !== LF && c !== CR))) j++;
        if (j >= n && !final) return MORE;
        this.push(i, j);
        i = j;
      }
      if (i >= n) break;
      c = b[i];
      if (c === COMMA) {
        i++;
        continue;
      }
      if (c === LF) {
        i++;
        break;
      }
      // CR: a LF right after it belongs to the same line end.
      if (i + 1 >= n && !final) return MORE;
      i++;
      if (i < n && b[i] === LF) i++;
      break;
    }
    this.lines = lines + 1 + this.quotedLines;
    return i;
  }

  /** A field opening with a quote at b[i]: pushes it and returns the offset after it, or MORE. */
  private quoted(b: Buffer, i: number, n: number, final: boolean, line: number): number {
    let seg = i + 1;
    let parts: Buffer[] | null = null;
    for (;;) {
      const q = b.indexOf(QUOTE, seg);
      if (q < 0 || q >= n) {
        if (!final) return MORE;
        throw new UserError(`${this.file}: a quoted field opened on line ${line} is never closed`);
      }
      this.quotedLines += countLineBreaks(b, seg, q);
      if (q + 1 >= n && !final) return MORE;
      const d = q + 1 < n ? b[q + 1] : COMMA;
      if (d === QUOTE) {
        (parts ??= []).push(b.subarray(seg, q + 1));
        seg = q + 2;
        continue;
      }
      if (d === COMMA || d === LF || d === CR) {
        if (parts === null) this.push(seg, q);
        else this.pushBytes([...parts, b.subarray(seg, q)]);
        return q + 1;
      }
      // Text after the closing quote continues the field unquoted; quotes in it are literal.
      let k = q + 1;
      let c = 0;
      while (k < n && (c = b[k]) !== COMMA && c !== LF && c !== CR) k++;
      if (k >= n && !final) return MORE;
      this.pushBytes([...(parts ?? []), b.subarray(seg, q), b.subarray(q + 1, k)]);
      return k;
    }
  }

  /** The bytes of field `k` as (buffer, start, end). */
  field(b: Buffer, k: number, out: FieldRef): void {
    const e = this.fe[k];
    if (e >= 0) {
      out.b = b;
      out.a = this.fs[k];
      out.z = e;
    } else {
      const x = this.cx[this.fs[k]];
      out.b = x;
      out.a = 0;
      out.z = x.length;
    }
  }
}

interface FieldRef {
  b: Buffer;
  a: number;
  z: number;
}

/** Physical line breaks (LF, CRLF or lone CR) in b[a, z). */
function countLineBreaks(b: Uint8Array, a: number, z: number): number {
  let k = 0;
  for (let i = a; i < z; i++) {
    const c = b[i];
    if (c === LF) k++;
    else if (c === CR && b[i + 1] !== LF) k++;
  }
  return k;
}

// ---------------------------------------------------------------------------------------------
// dtype inference without keeping cells: csv-read's ColumnBuilder passes, as flags only.

/**
 * What a column prints as: `int` (int64 or uint64, printed as its integer), `intFloat` (integers
 * with gaps: float64), `float`, `bool`, `boolObject` (booleans with gaps: object), `string`
 * (object, missing-value tokens blank) and `rawString` (object read without NA filtering, pandas'
 * fallback when a uint64 column also holds negatives or gaps).
 */
export type StreamKind = "int" | "intFloat" | "float" | "bool" | "boolObject" | "string" | "rawString";

const MODE_GENERAL = 0;
const MODE_INT = 1;
const MODE_FLOAT = 2;
const MODE_TEXT = 3;

class ColumnState {
  intAlive = true;
  uintAlive = false;
  floatAlive = true;
  boolAlive = true;
  minus = false;
  aboveInt64 = false;
  text = false;
  naCount = 0;
  mode = MODE_INT;

  observe(b: Buffer, a: number, z: number): void {
    const mode = this.mode;
    if (mode === MODE_TEXT) return;
    if (mode === MODE_INT) {
      // The common case inline: [-]digits, at most 15 of them (beyond that parseInteger decides).
      let p = a;
      const neg = b[p] === MINUS_SIGN;
      if (neg) p++;
      const ds = p;
      while (p < z && b[p] >= ZERO && b[p] <= NINE) p++;
      if (p === z && p > ds && p - ds <= 15) {
        // "-0" counts as signed too, which is what pandas' uint64 pass looks at.
        if (neg) this.minus = true;
        this.boolAlive = false;
        return;
      }
    } else if (mode === MODE_FLOAT && plainDecimal(b, a, z)) return;
    this.general(b, a, z);
    this.mode = this.text
      ? MODE_TEXT
      : this.intAlive
        ? MODE_INT
        : this.floatAlive && !this.uintAlive && !this.boolAlive
          ? MODE_FLOAT
          : MODE_GENERAL;
  }

  private general(b: Buffer, a: number, z: number): void {
    const R = P.result;
    if (P.isNa(b, a, z)) {
      this.naCount++;
      return;
    }
    if (this.intAlive) {
      const v = P.parseInteger(b, a, z, false);
      if (v === v || R.status === P.BIG) {
        const val = v === v ? v : R.val;
        if (val < 0 || (val === 0 && 1 / val < 0)) this.minus = true;
        this.boolAlive = false;
        return;
      }
      this.intAlive = false;
      // pandas retries uint64 only when int64 overflowed, not when a cell was not an integer.
      if (R.status === P.OVERFLOW) this.uintAlive = true;
    }
    let numeric = false;
    if (this.uintAlive) {
      const v = P.parseInteger(b, a, z, true);
      if (v === v) numeric = true;
      else if (R.status === P.BIG) {
        if (R.big > INT64_MAX) this.aboveInt64 = true;
        numeric = true;
      } else if (R.status === P.MINUS) this.minus = true;
      else if (R.status === P.INVALID) this.uintAlive = false;
      else {
        // A uint64 overflow makes pandas give up on numbers: an object column.
        this.text = true;
        return;
      }
    }
    if (!numeric && this.floatAlive) {
      const v = P.parseFloat64(b, a, z);
      if (v === v) numeric = true;
      else this.floatAlive = false;
    }
    if (numeric) {
      this.boolAlive = false;
      return;
    }
    if (this.boolAlive) {
      if (P.parseBool(b, a, z) >= 0) return;
      this.boolAlive = false;
    }
    if (!this.uintAlive && !this.floatAlive) this.text = true;
  }

  /** The column's dtype once every row has been seen (csv-read's ColumnBuilder.finish). */
  kind(rows: number): StreamKind {
    if (this.text || rows === 0) return "string";
    if (this.intAlive) return this.naCount > 0 ? "intFloat" : "int";
    if (this.uintAlive) {
      if (this.aboveInt64 && (this.minus || this.naCount > 0)) return "rawString";
      return this.minus ? "string" : "int";
    }
    if (this.floatAlive) return "float";
    return this.naCount === 0 ? "bool" : "boolObject";
  }
}

/** [-]digits[.digits] with no exponent and under 300 bytes: a finite float64 whatever the digits. */
function plainDecimal(b: Buffer, a: number, z: number): boolean {
  if (z - a >= 300) return false;
  let p = a;
  if (b[p] === MINUS_SIGN) p++;
  let digits = 0;
  while (p < z && b[p] >= ZERO && b[p] <= NINE) {
    p++;
    digits++;
  }
  if (p < z && b[p] === DOT) {
    p++;
    while (p < z && b[p] >= ZERO && b[p] <= NINE) {
      p++;
      digits++;
    }
  }
  return p === z && digits > 0;
}

// ---------------------------------------------------------------------------------------------
// Record end offsets: 4 bytes a row, in pages so that growing never copies.

const PAGE_BITS = 16;
const PAGE_MASK = (1 << PAGE_BITS) - 1;

/** Monotone file offsets, stored modulo 2^32 with the rows at which each 4 GiB boundary is crossed. */
class OffsetList {
  private readonly pages: Uint32Array[] = [];
  /** wraps[w]: the first index whose offset is at least (w + 1) · 2^32. */
  private readonly wraps: number[] = [];
  length = 0;

  push(off: number): void {
    const hi = Math.floor(off / TWO_32);
    while (this.wraps.length < hi) this.wraps.push(this.length);
    const page = this.length >>> PAGE_BITS;
    if (page === this.pages.length) this.pages.push(new Uint32Array(1 << PAGE_BITS));
    this.pages[page][this.length & PAGE_MASK] = off % TWO_32;
    this.length++;
  }

  get(i: number): number {
    const lo = this.pages[i >>> PAGE_BITS][i & PAGE_MASK];
    let hi = 0;
    const wraps = this.wraps;
    while (hi < wraps.length && wraps[hi] <= i) hi++;
    return hi * TWO_32 + lo;
  }
}

// ---------------------------------------------------------------------------------------------
// Pass 1.

/** What {@link scanCsv} learns about a CSV file: enough to write any of its rows as pandas would. */
export interface CsvScan {
  path: string;
  /** Name used in messages. */
  file: string;
  /** Column names as pandas gives them ("Unnamed: i" for blanks, ".1" suffixes for duplicates). */
  names: string[];
  /** Each column's dtype over the whole file. */
  kinds: StreamKind[];
  /** Data rows. */
  rows: number;
  /** Leading fields of each record that pandas takes as an implicit index (dropped). */
  leading: number;
  /** offsets.get(i) is where record i's bytes start (after the previous record), get(rows) where the last ends. */
  offsets: OffsetList;
}

/** Options for {@link scanCsv} and {@link writeCsvRows}; the sizes exist so tests can cross every boundary. */
export interface StreamCsvOptions {
  /** Name used in error messages; defaults to the path. */
  file?: string;
  /** Bytes read per step in pass 1 (default 4 MiB). */
  chunkBytes?: number;
}

const DEFAULT_CHUNK = 4 << 20;

/** Read a CSV file once, as `pandas.read_csv(path, float_precision="round_trip")` would, keeping only dtypes and record offsets. */
export function scanCsv(path: string, options: StreamCsvOptions = {}): CsvScan {
  const file = options.file ?? path;
  const chunk = Math.max(1, Math.floor(options.chunkBytes ?? DEFAULT_CHUNK));
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (err) {
    throw new UserError(`cannot open ${file}: ${(err as Error).message}`);
  }
  try {
    return scanFd(fd, path, file, chunk);
  } finally {
    closeSync(fd);
  }
}

/** Pass 1's state between records. */
class Scanner {
  header: string[] | null = null;
  expected = 0;
  leading = 0;
  rows = 0;
  line = 1;
  cols: ColumnState[] = [];
  readonly offsets = new OffsetList();
  readonly tok: RecordTokenizer;
  private readonly ref: FieldRef = { b: Buffer.alloc(0), a: 0, z: 0 };

  constructor(private readonly file: string) {
    this.tok = new RecordTokenizer(file);
  }

  /** Take the record the tokenizer just read from b, which ends at file offset `end`. */
  record(b: Buffer, end: number): void {
    const tok = this.tok;
    const fields = tok.nf;
    if (this.header === null) {
      this.header = [];
      for (let k = 0; k < fields; k++) {
        tok.field(b, k, this.ref);
        this.header.push(this.ref.b.toString("utf8", this.ref.a, this.ref.z));
      }
      this.expected = fields;
      for (let k = 0; k < fields; k++) this.cols.push(new ColumnState());
      this.offsets.push(end);
      return;
    }
    if (this.rows === 0) {
      // pandas doesn't check the first data row: extra fields there become an implicit index.
      if (fields > this.expected) {
        this.leading = fields - this.expected;
        this.expected = fields;
      }
    } else if (fields > this.expected) {
      throw new UserError(
        `${this.file}: expected ${this.expected} fields in data row ${this.rows + 1} (line ${tok.startLine}), saw ${fields}`,
      );
    }
    const cols = this.cols;
    const lead = this.leading;
    const ref = this.ref;
    for (let j = 0; j < cols.length; j++) {
      const k = lead + j;
      if (k >= fields) cols[j].observe(b, 0, 0);
      else if (tok.fe[k] >= 0) cols[j].observe(b, tok.fs[k], tok.fe[k]);
      else {
        tok.field(b, k, ref);
        cols[j].observe(ref.b, ref.a, ref.z);
      }
    }
    this.rows++;
    this.offsets.push(end);
  }
}

function scanFd(fd: number, path: string, file: string, chunk: number): CsvScan {
  // No bigger than the file: small files are common in tests and cheap to scan.
  chunk = Math.min(chunk, fstatSync(fd).size + 1);
  const sc = new Scanner(file);
  let buf = Buffer.allocUnsafe(chunk);
  let carry = 0;
  let base = 0; // file offset of buf[0]
  let first = true;
  for (;;) {
    const want = carry + Math.max(chunk, carry);
    if (buf.length < want) {
      const bigger = Buffer.allocUnsafe(want);
      buf.copy(bigger, 0, 0, carry);
      buf = bigger;
    }
    let n = carry;
    let eof = false;
    while (n < want) {
      const r = readSync(fd, buf, n, want - n, base + n);
      if (r === 0) {
        eof = true;
        break;
      }
      n += r;
    }
    const data = buf.subarray(0, n);
    let pos = 0;
    if (first) {
      // A UTF-8 BOM is dropped at the very start of the file only.
      if (!eof && n < 3) {
        carry = n;
        continue;
      }
      if (n >= 3 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) pos = 3;
      first = false;
    }
    const from = pos;
    for (;;) {
      const end = sc.tok.next(data, pos, n, eof, sc.line);
      if (end === MORE) break;
      if (sc.tok.nf > 0) {
        sc.line += sc.tok.lines;
        sc.record(data, base + end);
      }
      pos = end;
      if (pos >= n) break;
    }
    checkText(data, from, pos, base, file);
    if (eof) break;
    buf.copy(buf, 0, pos, n);
    carry = n - pos;
    base += pos;
  }
  if (sc.header === null) throw new UserError(`${file}: no columns to parse: the file is empty or holds only blank lines`);
  const names = P.pandasColumnNames(sc.header);
  const kinds = sc.cols.map((c) => c.kind(sc.rows));
  return { path, file, names, kinds, rows: sc.rows, leading: sc.leading, offsets: sc.offsets };
}

/** pandas decodes UTF-8 strictly; csv-read refuses NUL bytes. The same checks on the bytes just consumed. */
function checkText(b: Buffer, a: number, z: number, base: number, file: string): void {
  if (a >= z) return;
  const nul = b.indexOf(0, a);
  if (nul >= 0 && nul < z) throw new UserError(`${file}: NUL byte at byte offset ${base + nul}; a CSV file must be UTF-8 text`);
  if (isUtf8(b.subarray(a, z))) return;
  // Records end at ASCII line breaks, so the bad bytes lie within one line: find it for the message.
  let s = a;
  while (s < z) {
    let e = b.indexOf(LF, s);
    if (e < 0 || e >= z) e = z;
    if (!isUtf8(b.subarray(s, e))) {
      throw new UserError(`${file} is not UTF-8 text: invalid bytes in the line starting at byte offset ${base + s}`);
    }
    s = e + 1;
  }
  throw new UserError(`${file} is not UTF-8 text`);
}

// ---------------------------------------------------------------------------------------------
// The split.

/** sklearn 1.2's `train_test_split(df, test_size, train_size, random_state)` row indices, as Int32Arrays. */
export function splitRows(
  rows: number,
  opts: { testSize?: number; trainSize?: number; randomState: number },
): { train: Int32Array; test: Int32Array } {
  if (rows > 0x7fffffff) throw new UserError(`${rows} rows are more than this splitter handles (2^31 - 1)`);
  let sizes: { nTrain: number; nTest: number };
  try {
    sizes = validateShuffleSplit(rows, opts.testSize, opts.trainSize, 0.25);
  } catch (err) {
    throw new UserError(`cannot split ${rows} rows: ${(err as Error).message}`);
  }
  // ShuffleSplit: test is the head of one permutation of every row, train the slice after it.
  const perm = new Int32Array(rows);
  for (let i = 0; i < rows; i++) perm[i] = i;
  new RandomState(opts.randomState).shuffle(perm);
  return { test: perm.subarray(0, sizes.nTest), train: perm.subarray(sizes.nTest, sizes.nTest + sizes.nTrain) };
}

// ---------------------------------------------------------------------------------------------
// Pass 2: formatting.

/** A growable byte buffer. */
class ByteSink {
  buf: Buffer;
  pos = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(Math.max(16, size));
  }

  reserve(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + extra));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  bytes(b: Buffer, a: number, z: number): void {
    this.reserve(z - a);
    if (z - a < 256) {
      const out = this.buf;
      let p = this.pos;
      for (let i = a; i < z; i++) out[p++] = b[i];
      this.pos = p;
    } else this.pos += b.copy(this.buf, this.pos, a, z);
  }

  byte(c: number): void {
    this.reserve(1);
    this.buf[this.pos++] = c;
  }

  ascii(s: string): void {
    this.reserve(s.length);
    this.pos += this.buf.write(s, this.pos, "latin1");
  }
}

/** A text field as Python's csv writer puts it with QUOTE_MINIMAL: quoted when it holds a delimiter, quote, CR or LF. */
function writeText(out: ByteSink, b: Buffer, a: number, z: number): void {
  // Copy while checking, and start over with quotes in the rare case that they are needed.
  out.reserve(z - a);
  const dst = out.buf;
  let p = out.pos;
  let i = a;
  for (; i < z; i++) {
    const c = b[i];
    if (c <= COMMA && (c === COMMA || c === QUOTE || c === LF || c === CR)) break;
    dst[p++] = c;
  }
  if (i === z) {
    out.pos = p;
    return;
  }
  out.byte(QUOTE);
  let s = a;
  for (let q = a; q < z; q++) {
    if (b[q] === QUOTE) {
      out.bytes(b, s, q + 1);
      out.byte(QUOTE);
      s = q + 1;
    }
  }
  out.bytes(b, s, z);
  out.byte(QUOTE);
}

/**
 * An integer field's digits as int64/uint64 print them: no spaces, no '+', no leading zeros, and
 * "-0" as "0". Returns the significant digit count; the text goes to `out`.
 */
function writeInteger(out: ByteSink, b: Buffer, a: number, z: number): number {
  let p = a;
  while (p < z && (b[p] === SP || (b[p] >= 9 && b[p] <= 13))) p++;
  let e = z;
  while (e > p && (b[e - 1] === SP || (b[e - 1] >= 9 && b[e - 1] <= 13))) e--;
  let neg = false;
  if (b[p] === MINUS_SIGN || b[p] === 43) neg = b[p++] === MINUS_SIGN;
  while (p < e - 1 && b[p] === ZERO) p++;
  if (neg && !(e - p === 1 && b[p] === ZERO)) out.byte(MINUS_SIGN);
  out.bytes(b, p, e);
  return e - p;
}

/** Whether b[a, z) is exactly how Python prints its int: [-]digits, no leading zero, not "-0". */
function canonicalInt(b: Buffer, a: number, z: number): boolean {
  let p = a;
  if (b[p] === MINUS_SIGN) p++;
  if (p >= z) return false;
  if (b[p] === ZERO) return z - p === 1 && p === a;
  for (; p < z; p++) if (b[p] < ZERO || b[p] > NINE) return false;
  return true;
}

/**
 * Whether b[a, z) is already the repr of the float it parses to: repr's fixed layout
 * ([-]int.frac, no superfluous zeros, 1e-4 <= |x| < 1e16) with at most 15 significant digits.
 * Any decimal of at most 15 significant digits survives the round trip through a double, so its
 * shortest round-tripping digits are its own.
 */
function canonicalFloat(b: Buffer, a: number, z: number): boolean {
  let p = a;
  if (b[p] === MINUS_SIGN) p++;
  const is = p;
  while (p < z && b[p] >= ZERO && b[p] <= NINE) p++;
  const intLen = p - is;
  if (intLen === 0 || intLen > 16 || (intLen > 1 && b[is] === ZERO) || p >= z || b[p] !== DOT) return false;
  const fs = ++p;
  while (p < z && b[p] >= ZERO && b[p] <= NINE) p++;
  const fracLen = p - fs;
  if (p !== z || fracLen === 0) return false;
  const intZero = b[is] === ZERO;
  if (fracLen === 1 && b[fs] === ZERO) {
    // "x.0": integral; its significant digits are the integer's without trailing zeros.
    if (intZero) return true;
    let t = p - 2;
    while (t > is && b[t] === ZERO) t--;
    return t - is + 1 <= 15;
  }
  if (b[z - 1] === ZERO) return false;
  if (intZero) {
    let lz = fs;
    while (b[lz] === ZERO) lz++;
    // More than three zeros after the point and repr switches to exponent notation.
    return lz - fs <= 3 && z - lz <= 15;
  }
  return intLen + fracLen <= 15;
}

/** Python's repr of a double, as pandas' to_csv writes float64 cells (NaN is handled by the caller). */
function floatRepr(v: number): string {
  const s = String(v);
  const x = v < 0 ? -v : v;
  if (x >= 1e-4 && s.indexOf("e") < 0) {
    if (s.indexOf(".") >= 0) return s;
    if (x < 1e16) return `${s}.0`;
  }
  return pyFloatRepr(v);
}

/** One field of column kind `kind`, printed as pandas' to_csv prints the parsed cell. */
function writeField(out: ByteSink, kind: StreamKind, b: Buffer, a: number, z: number): void {
  switch (kind) {
    case "string":
      if (!P.isNa(b, a, z)) writeText(out, b, a, z);
      return;
    case "rawString":
      writeText(out, b, a, z);
      return;
    case "float":
      if (P.isNa(b, a, z)) return;
      if (canonicalFloat(b, a, z)) out.bytes(b, a, z);
      else if (canonicalInt(b, a, z) && z - a <= 15) {
        out.bytes(b, a, z);
        out.ascii(".0");
      } else out.ascii(floatRepr(P.parseFloat64(b, a, z)));
      return;
    case "int":
      if (canonicalInt(b, a, z)) out.bytes(b, a, z);
      else writeInteger(out, b, a, z);
      return;
    case "intFloat":
      if (P.isNa(b, a, z)) return;
      writeIntAsFloat(out, b, a, z);
      return;
    case "bool":
      out.ascii(P.parseBool(b, a, z) === 1 ? "True" : "False");
      return;
    case "boolObject":
      if (!P.isNa(b, a, z)) out.ascii(P.parseBool(b, a, z) === 1 ? "True" : "False");
      return;
  }
}

/** An int64 cell of a column that has gaps, so pandas holds it as float64. */
function writeIntAsFloat(out: ByteSink, b: Buffer, a: number, z: number): void {
  const mark = out.pos;
  const digits = writeInteger(out, b, a, z);
  if (digits <= 15) {
    // Exact as a double and below 1e16: repr is the integer and ".0" (-0 printed as 0 above: int64 has no -0).
    out.ascii(".0");
    return;
  }
  const text = out.buf.toString("latin1", mark, out.pos);
  out.pos = mark;
  // BigInt → Number rounds to nearest even, like numpy's int64 → float64 cast and pandas' parser.
  out.ascii(pyFloatRepr(Number(BigInt(text))));
}

// ---------------------------------------------------------------------------------------------
// Pass 2: reading rows in blocks.

/** An output column: a column of the scanned file, or one holding the same float or text in every row. */
export type OutputColumn = string | { name: string; value: number } | { name: string; text: string };

/** Options for {@link writeCsvRows}. */
export interface WriteRowsOptions {
  /** Output columns in order (default: every column of the file). */
  columns?: OutputColumn[];
  /** Source bytes per block of output rows (default 512 MiB): bounds the arena the block is formatted into. */
  blockBytes?: number;
  /** Most rows per block (default 2^22, at most 2^24): 28 bytes each for the bookkeeping. */
  blockRows?: number;
  /** Largest single read when gathering nearby records (default 4 MiB). */
  windowBytes?: number;
  /** Records at most this many bytes apart are read together, the gap included (default 64 KiB). */
  gapBytes?: number;
}

const DEFAULT_BLOCK_ROWS = 1 << 22;
const MAX_BLOCK_ROWS = 1 << 24;

interface ColumnPlan {
  /** Field index in the source record, or -1 for a constant. */
  src: number;
  kind: StreamKind;
  constant: string;
}

function quoteName(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function planColumns(scan: CsvScan, columns: OutputColumn[] | undefined): { plan: ColumnPlan[]; header: string } {
  const wanted = columns ?? scan.names;
  const plan = wanted.map((c): ColumnPlan => {
    // Text constants are kept as their UTF-8 bytes spelled in latin1, which is how the arena copies strings out.
    if (typeof c !== "string" && "text" in c) return { src: -1, kind: "string", constant: Buffer.from(quoteName(c.text), "utf8").toString("latin1") };
    if (typeof c !== "string") return { src: -1, kind: "float", constant: Number.isNaN(c.value) ? "" : floatRepr(c.value) };
    const j = scan.names.indexOf(c);
    if (j < 0) throw new UserError(`${scan.file}: no column "${c}" (columns: ${scan.names.join(", ")})`);
    return { src: scan.leading + j, kind: scan.kinds[j], constant: "" };
  });
  const names = wanted.map((c) => quoteName(typeof c === "string" ? c : c.name));
  // A lone empty field is written as "" so the line does not read back as blank.
  const header = names.length === 1 && names[0] === "" ? '""' : names.join(",");
  return { plan, header: header + "\n" };
}

/** Reads records of the scanned file by row number, batching nearby ones into one read. */
class RecordReader {
  private win: Buffer;
  private wStart = 0;
  private wEnd = 0;
  readonly tok: RecordTokenizer;

  constructor(
    private readonly fd: number,
    private readonly scan: CsvScan,
    private readonly windowBytes: number,
    private readonly gapBytes: number,
  ) {
    this.win = Buffer.allocUnsafe(Math.min(windowBytes, 1 << 16));
    this.tok = new RecordTokenizer(scan.file);
  }

  /**
   * Tokenize record `rows[idx]`, where `rows[0, count)` ascend: a read takes in the records that
   * follow too, while they are near. Returns the buffer the fields point into.
   */
  load(rows: Int32Array, idx: number, count: number): Buffer {
    const off = this.scan.offsets;
    const row = rows[idx];
    const rs = off.get(row);
    const re = off.get(row + 1);
    if (rs < this.wStart || re > this.wEnd) this.refill(rs, re, rows, idx, count);
    const b = this.win;
    const end = this.tok.next(b, rs - this.wStart, re - this.wStart, true, 0);
    if (end !== re - this.wStart || this.tok.nf === 0) {
      throw new UserError(`${this.scan.file} changed since it was scanned (row ${row + 1} no longer parses the same)`);
    }
    return b;
  }

  private refill(rs: number, re: number, rows: Int32Array, idx: number, count: number): void {
    const off = this.scan.offsets;
    let end = re;
    for (let k = idx + 1; k < count; k++) {
      const r = rows[k];
      const s = off.get(r);
      const e = off.get(r + 1);
      if (s - end > this.gapBytes || e - rs > this.windowBytes) break;
      end = e;
    }
    const len = end - rs;
    if (this.win.length < len) this.win = Buffer.allocUnsafe(Math.max(len, Math.min(this.windowBytes, this.win.length * 4)));
    let got = 0;
    while (got < len) {
      const r = readSync(this.fd, this.win, got, len - got, rs + got);
      if (r === 0) throw new UserError(`${this.scan.file} is shorter than when it was scanned`);
      got += r;
    }
    this.wStart = rs;
    this.wEnd = end;
  }
}

/**
 * Write rows `rows` (in that order) of a scanned CSV file to `out` as pandas'
 * `df.iloc[rows][columns].to_csv(out, index=False)` would, atomically.
 */
export function writeCsvRows(scan: CsvScan, rows: ArrayLike<number>, out: string, options: WriteRowsOptions = {}): void {
  const { plan, header } = planColumns(scan, options.columns);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (!(r >= 0 && r < scan.rows && Number.isInteger(r))) throw new RangeError(`row ${r} is not a row of ${scan.file}`);
  }
  const fd = openSync(scan.path, "r");
  try {
    writeFileAtomic(out, outputChunks(fd, scan, rows, plan, header, options));
  } finally {
    closeSync(fd);
  }
}

/**
 * One block of output rows. `rows`/`pos` hold the block's rows and their output positions,
 * sorted by row (`rows2`/`pos2` are the radix sort's other half); record k of the output is
 * arena[starts[k], starts[k] + lens[k]).
 */
interface Block {
  rows: Int32Array;
  pos: Int32Array;
  rows2: Int32Array;
  pos2: Int32Array;
  count: number;
  arena: ByteSink;
  starts: Float64Array;
  lens: Uint32Array;
}

function newBlock(capacity: number): Block {
  return {
    rows: new Int32Array(capacity),
    pos: new Int32Array(capacity),
    rows2: new Int32Array(capacity),
    pos2: new Int32Array(capacity),
    count: 0,
    arena: new ByteSink(1 << 16),
    starts: new Float64Array(capacity),
    lens: new Uint32Array(capacity),
  };
}

const RADIX = new Int32Array(257);

/** Sort the block's (row, position) pairs by row: LSD radix, a byte a pass, so the cost is linear. */
function sortBlock(block: Block, maxRow: number): void {
  const n = block.count;
  for (let shift = 0; shift === 0 || maxRow >>> shift > 0; shift += 8) {
    const { rows, pos, rows2, pos2 } = block;
    RADIX.fill(0);
    for (let i = 0; i < n; i++) RADIX[((rows[i] >>> shift) & 255) + 1]++;
    for (let d = 1; d <= 256; d++) RADIX[d] += RADIX[d - 1];
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      const at = RADIX[(r >>> shift) & 255]++;
      rows2[at] = r;
      pos2[at] = pos[i];
    }
    block.rows = rows2;
    block.pos = pos2;
    block.rows2 = rows;
    block.pos2 = pos;
    if (shift >= 24) break;
  }
}

function* outputChunks(
  fd: number,
  scan: CsvScan,
  rows: ArrayLike<number>,
  plan: ColumnPlan[],
  header: string,
  options: WriteRowsOptions,
): Generator<Uint8Array, void, undefined> {
  yield Buffer.from(header, "utf8");
  const total = rows.length;
  if (total === 0) return;
  const blockBytes = Math.max(1, options.blockBytes ?? 512 << 20);
  const blockRows = Math.max(1, Math.min(options.blockRows ?? DEFAULT_BLOCK_ROWS, MAX_BLOCK_ROWS, total));
  const windowBytes = Math.max(1, options.windowBytes ?? 4 << 20);
  const reader = new RecordReader(fd, scan, windowBytes, Math.max(0, options.gapBytes ?? 64 << 10));
  const block = newBlock(blockRows);
  const off = scan.offsets;
  const chunk = Buffer.allocUnsafe(1 << 20);
  for (let s = 0; s < total; ) {
    let e = s;
    let bytes = 0;
    let maxRow = 0;
    while (e < total && e - s < blockRows) {
      const r = rows[e];
      const len = off.get(r + 1) - off.get(r);
      if (e > s && bytes + len > blockBytes) break;
      bytes += len;
      block.rows[e - s] = r;
      block.pos[e - s] = e - s;
      if (r > maxRow) maxRow = r;
      e++;
    }
    block.count = e - s;
    sortBlock(block, maxRow);
    // Formatting rarely adds more than an eighth; the arena grows if it does.
    block.arena.pos = 0;
    block.arena.reserve(bytes + (bytes >> 3) + 16);
    formatBlock(reader, plan, block);
    yield* emitBlock(block, chunk);
    s = e;
  }
}

/** Read and format the block's records in file order, each into the arena. */
function formatBlock(reader: RecordReader, plan: ColumnPlan[], block: Block): void {
  const { arena, starts, lens, rows, pos, count } = block;
  arena.pos = 0;
  const tok = reader.tok;
  const ref: FieldRef = { b: Buffer.alloc(0), a: 0, z: 0 };
  const last = plan.length - 1;
  for (let idx = 0; idx < count; idx++) {
    const b = reader.load(rows, idx, count);
    const from = arena.pos;
    for (let j = 0; j <= last; j++) {
      const col = plan[j];
      if (col.src < 0) arena.ascii(col.constant);
      else if (col.src >= tok.nf) writeField(arena, col.kind, b, 0, 0); // a short row's missing fields
      else if (tok.fe[col.src] >= 0) writeField(arena, col.kind, b, tok.fs[col.src], tok.fe[col.src]);
      else {
        tok.field(b, col.src, ref);
        writeField(arena, col.kind, ref.b, ref.a, ref.z);
      }
      if (j < last) arena.byte(COMMA);
    }
    // A lone empty field is written as "" so the line does not read back as blank.
    if (last === 0 && arena.pos === from) arena.ascii('""');
    arena.byte(LF);
    const k = pos[idx];
    starts[k] = from;
    lens[k] = arena.pos - from;
  }
}

/** The block's records in output order, gathered into chunks of about 1 MiB. */
function* emitBlock(block: Block, chunk: Buffer): Generator<Uint8Array, void, undefined> {
  const { starts, lens, count } = block;
  const src = block.arena.buf;
  let p = 0;
  for (let k = 0; k < count; k++) {
    const start = starts[k];
    const len = lens[k];
    if (p + len > chunk.length) {
      if (p > 0) yield chunk.subarray(0, p);
      p = 0;
      if (len > chunk.length) {
        yield src.subarray(start, start + len);
        continue;
      }
    }
    // Records sit at random places in a large arena, so each costs a cache miss or two; a native
    // copy (set) beats a byte loop here, and beats Buffer.copy, which costs more to call.
    if (len < 16) for (let i = 0; i < len; i++) chunk[p + i] = src[start + i];
    else chunk.set(src.subarray(start, start + len), p);
    p += len;
  }
  if (p > 0) yield chunk.subarray(0, p);
}
