/**
 * `pandas.read_csv` → `train_test_split` → `to_csv(index=False)` for CSV files too big to hold in
 * memory (new-york-city-taxi-fare-prediction's train.csv: 5.7 GB, 55M rows), with the same bytes
 * as the in-memory path (readCsv, trainTestSplitTable, writeCsv).
 *
 * Pass 1 ({@link scanCsv}) reads the file once, front to back, with csv-read's tokenizer and chunk
 * loop (src/io/csv/): it infers each column's dtype over the whole column with csv-read's own
 * inference (pandas' int64, uint64, float64, bool, object passes) fed the cells' bytes without
 * keeping any cell, and records where each record ends (4 bytes a row). The split is a
 * permutation of row numbers in an Int32Array (4 bytes a row). {@link writeCsvRows} then writes
 * rows in any order: it takes the output in blocks of a bounded size, sorts a block's rows by
 * position in the file, reads them in runs of nearby records (one read per run, not per row),
 * re-tokenizes each record from its byte range, re-formats each field for its column's dtype
 * into an arena, and writes the arena out in output order.
 *
 * Re-formatting works on bytes: a field already in the form pandas would print (a plain integer,
 * a float with at most 15 significant digits in repr's layout, text needing no quotes) is copied
 * as is, and only the others are parsed and printed again.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { CsvParseError, UserError } from "../core/errors.js";
import { writeFileAtomic } from "../core/atomic.js";
import { drive } from "../io/csv/drive.js";
import { ColumnInference, MODE_TEXT, type InferredDtype } from "../io/csv/inference.js";
import { pandasColumnNames } from "../io/csv/names.js";
import { canonicalFloat, canonicalInt, isNa, parseBool, parseFloat64 } from "../io/csv/numbers.js";
import { NO_CSV_LIMITS } from "../io/csv/options.js";
import { FileSource } from "../io/csv/source.js";
import { CsvWidthError, Tokenizer, type FieldRef } from "../io/csv/tokenizer.js";
import { pyFloatRepr, pyFloatReprFast } from "../pycompat/pyfloat.js";
import { RandomState } from "../rng/random-state.js";
import { validateShuffleSplit } from "../rng/sklearn-split.js";

// Bytes, declared here rather than imported: Node 20 re-reads an imported binding on every use
// (a TDZ check), which slows the byte loops measurably.
const LF = 10;
const CR = 13;
const SP = 32;
const QUOTE = 34;
const PLUS_SIGN = 43;
const COMMA = 44;
const MINUS_SIGN = 45;
const ZERO = 48;

const TWO_32 = 4294967296;

/**
 * What a column prints as: `int` (int64 or uint64, printed as its integer), `intFloat` (integers
 * with gaps: float64), `float`, `bool`, `boolObject` (booleans with gaps: object), `string`
 * (object, missing-value tokens blank) and `rawString` (object read without NA filtering, pandas'
 * fallback when a uint64 column also holds negatives or gaps).
 */
export type StreamKind = Exclude<InferredDtype, "uint">;

/** int64 and uint64 print alike; every other dtype is its own kind. */
function streamKind(dtype: InferredDtype): StreamKind {
  return dtype === "uint" ? "int" : dtype;
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
  let src: FileSource;
  try {
    src = new FileSource(path, file, Infinity);
  } catch (err) {
    throw new UserError(`cannot open ${file}: ${(err as Error).message}`);
  }
  // No bigger than the file: small files are common in tests and cheap to scan.
  const chunk = Math.min(Math.max(1, Math.floor(options.chunkBytes ?? DEFAULT_CHUNK)), src.size() + 1);
  const tok = new Tokenizer(file, NO_CSV_LIMITS, false, chunk);
  const sink = new ScanSink();
  try {
    drive(src, tok, chunk, file, Infinity, (b, used) => sink.consume(tok, b, used));
  } catch (err) {
    throw asUserError(err, file);
  }
  if (tok.header === null) throw new UserError(`${file}: no columns to parse: the file is empty or holds only blank lines`);
  const names = pandasColumnNames(tok.header);
  const kinds = (sink.cols ?? []).map((c) => streamKind(c.dtype(sink.rows)));
  return { path, file, names, kinds, rows: sink.rows, leading: tok.leading, offsets: sink.offsets };
}

/** csv-read's refusals of a malformed file, as the UserError a preparer reports. */
function asUserError(err: unknown, file: string): unknown {
  if (err instanceof CsvWidthError) {
    return new UserError(`${file}: expected ${err.expected} fields in data row ${err.dataRow} (line ${err.line}), saw ${err.saw}`);
  }
  return err instanceof CsvParseError ? new UserError(err.message) : err;
}

/** Pass 1's sink: each column's dtype inference fed from the tokenizer's batches, and where each record ends. */
class ScanSink {
  cols: ColumnInference[] | null = null;
  rows = 0;
  readonly offsets = new OffsetList();
  /** File offset of the start of the tokenizer's last run. */
  private bytesSeen = 0;

  consume(tok: Tokenizer, b: Buffer, used: number): void {
    const base = this.bytesSeen;
    this.bytesSeen += used;
    if (this.cols === null) {
      if (tok.header === null) return;
      this.cols = tok.header.map(() => new ColumnInference());
      this.offsets.push(base + tok.headerEnd);
    }
    const nr = tok.nr;
    if (nr === 0) return;
    const cols = this.cols;
    const { fs, fe, re, cx } = tok;
    const lead = tok.leading;
    // Column by column: a text column is settled for good, and a numeric one stays in one shortcut for long runs.
    for (let j = 0; j < cols.length; j++) {
      const col = cols[j];
      let first = 0;
      for (let r = 0; r < nr && col.mode !== MODE_TEXT; r++) {
        const fi = first + lead + j;
        first = re[r];
        const e = fe[fi];
        if (e >= 0) col.observe(b, fs[fi], e);
        else {
          const x = cx[fs[fi]];
          col.observe(x, 0, x.length);
        }
      }
    }
    const rb = tok.rb;
    for (let r = 0; r < nr; r++) this.offsets.push(base + rb[r]);
    this.rows += nr;
  }
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
  if (b[p] === MINUS_SIGN || b[p] === PLUS_SIGN) neg = b[p++] === MINUS_SIGN;
  while (p < e - 1 && b[p] === ZERO) p++;
  if (neg && !(e - p === 1 && b[p] === ZERO)) out.byte(MINUS_SIGN);
  out.bytes(b, p, e);
  return e - p;
}

/** One field of column kind `kind`, printed as pandas' to_csv prints the parsed cell. */
function writeField(out: ByteSink, kind: StreamKind, b: Buffer, a: number, z: number): void {
  switch (kind) {
    case "string":
      if (!isNa(b, a, z)) writeText(out, b, a, z);
      return;
    case "rawString":
      writeText(out, b, a, z);
      return;
    case "float":
      if (isNa(b, a, z)) return;
      if (canonicalFloat(b, a, z)) out.bytes(b, a, z);
      else if (canonicalInt(b, a, z) && z - a <= 15) {
        out.bytes(b, a, z);
        out.ascii(".0");
      } else out.ascii(pyFloatReprFast(parseFloat64(b, a, z)));
      return;
    case "int":
      if (canonicalInt(b, a, z)) out.bytes(b, a, z);
      else writeInteger(out, b, a, z);
      return;
    case "intFloat":
      if (isNa(b, a, z)) return;
      writeIntAsFloat(out, b, a, z);
      return;
    case "bool":
      out.ascii(parseBool(b, a, z) === 1 ? "True" : "False");
      return;
    case "boolObject":
      if (!isNa(b, a, z)) out.ascii(parseBool(b, a, z) === 1 ? "True" : "False");
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
  /**
   * Source bytes per block of output rows: bounds the arena the block is formatted into. Default:
   * an eighth of the rows' bytes, between 16 and 512 MiB.
   */
  blockBytes?: number;
  /** Most rows per block (default: what the block's bytes hold at the file's mean record size, at most 2^24): 28 bytes each for the bookkeeping. */
  blockRows?: number;
  /** Largest single read when gathering nearby records (default 4 MiB). */
  windowBytes?: number;
  /** Records at most this many bytes apart are read together, the gap included (default 64 KiB). */
  gapBytes?: number;
}

const MAX_BLOCK_ROWS = 1 << 24;
const MIN_BLOCK_BYTES = 16 << 20;
const MAX_BLOCK_BYTES = 512 << 20;

/**
 * Each block costs a sweep over the file (its rows are spread through it), and holds its formatted
 * bytes and bookkeeping in memory; an eighth of the output keeps memory a fraction of the file's
 * size for eight sweeps of reads the page cache mostly serves.
 */
function defaultBlockBytes(meanRecord: number, rows: number): number {
  return Math.round(Math.min(MAX_BLOCK_BYTES, Math.max(MIN_BLOCK_BYTES, (meanRecord * rows) / 8)));
}

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
    if (typeof c !== "string") return { src: -1, kind: "float", constant: Number.isNaN(c.value) ? "" : pyFloatReprFast(c.value) };
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
  readonly tok: Tokenizer;

  constructor(
    private readonly fd: number,
    private readonly scan: CsvScan,
    private readonly windowBytes: number,
    private readonly gapBytes: number,
  ) {
    this.win = Buffer.allocUnsafe(Math.min(windowBytes, 1 << 16));
    this.tok = new Tokenizer(scan.file, NO_CSV_LIMITS);
    this.tok.resume(scan.leading + scan.names.length);
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
    const end = re - this.wStart;
    let used = -1;
    try {
      used = this.tok.run(b, true, rs - this.wStart, 1, end);
    } catch (err) {
      // A record that no longer tokenizes (an unclosed quote, too many fields): the file changed.
      if (!(err instanceof CsvParseError)) throw err;
    }
    if (used !== end || this.tok.nr !== 1) {
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
  const meanRecord = scan.rows > 0 ? Math.max(1, scan.offsets.get(scan.rows) / scan.rows) : 1;
  const blockBytes = Math.max(1, options.blockBytes ?? defaultBlockBytes(meanRecord, total));
  // A little over what the block's bytes hold at the mean record size, so bytes end most blocks.
  const blockRows = Math.max(1, Math.min(options.blockRows ?? Math.ceil((blockBytes / meanRecord) * 1.25) + 16, MAX_BLOCK_ROWS, total));
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
      // A short row's missing fields come as empty ranges: the tokenizer pads rows as pandas does.
      if (col.src < 0) arena.ascii(col.constant);
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
