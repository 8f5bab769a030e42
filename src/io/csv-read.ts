/**
 * CSV input read the way upstream reads submissions and answers:
 * `pandas.read_csv(path, float_precision="round_trip")` with pandas 2.2 defaults (C engine).
 *
 * The tokenizer is a transcription of pandas' C state machine (tokenizer.c) and the dtype
 * inference follows parsers.pyx (`_convert_tokens`: int64, then uint64, float64, bool, object),
 * including its order-dependent corners, which are commented where they happen.
 *
 * It works on UTF-8 bytes, not decoded text: the file is read in chunks of 1 MiB, each checked
 * with `isUtf8`; numbers are parsed straight from the bytes (floats correctly rounded without
 * building strings) and only text cells become JavaScript strings. Records that are one line of
 * plain numbers skip the tokenizer altogether (`InferenceSink.fast`). Memory is the numeric
 * columns (8 bytes a cell) plus the strings; text columns that turn out to be text late are
 * completed by a second pass over the input rather than by keeping every cell's text.
 *
 * Deliberately not replicated:
 * - `low_memory` chunking: pandas infers dtypes per block of rows (2^18 rows for two columns)
 *   and concatenates the blocks, so in files with more rows than one block a column that is
 *   numeric in one block and text in another comes out as an object column mixing numbers and
 *   strings (with a DtypeWarning). The Table type cannot hold such a column; the whole column
 *   is inferred at once here, which is what pandas does with `low_memory=False`.
 * - NUL bytes: pandas silently cuts a field at a NUL byte; here it is an error naming the line.
 * - Error line numbers: pandas counts records (a quoted field's line breaks don't count); the
 *   messages quote pandas' number and add the physical line when the two differ.
 * - Integers beyond the uint64 range stay text (pandas 2.2); pandas 3 turns them into Python ints.
 * - Unbounded shapes: pandas reads a header of any width and pads any number of short rows. Here
 *   a record wider than `maxColumns`, more than `maxCells` cells, a field longer than
 *   `maxFieldBytes` or more padding than `maxPaddedFields` is refused (see CsvReadOptions), so that
 *   no input costs much more time or memory than an ordinary file of its size; NO_CSV_LIMITS
 *   lifts them for trusted files.
 *
 * Replicated although surprising: an implicit index (the first data row has more fields than the
 * header) makes pandas use the extra leading fields of every row as the index; a Table has no
 * index, so those fields are dropped and the header names label the remaining ones.
 */
import { isUtf8 } from "node:buffer";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { CsvParseError } from "../core/errors.js";
import { productError } from "../core/exact-float.js";
import { makeTable, type Column, type Table } from "../core/table.js";

/** Options for {@link readCsv}, {@link parseCsv} and {@link readCsvHeader}. */
export interface CsvReadOptions {
  /** Name used in error messages; defaults to the path (readCsv) or "<input>" (parseCsv). */
  file?: string;
  /** Refuse inputs larger than this many bytes (default 8 GiB). */
  maxBytes?: number;
  /** Bytes read per step (default 1 MiB); tiny values exercise the chunk-boundary code in tests. */
  chunkBytes?: number;
  /** Columns kept as their text, like read_csv's `dtype={name: str}` (missing-value tokens still become null). */
  text?: readonly string[];
  /**
   * Most fields of one record: the header's names, or the first data row's fields when pandas
   * takes the extra ones as an index (default 100,000; competition files have at most about a
   * thousand columns).
   */
  maxColumns?: number;
  /** Most cells, data rows times fields per row (default 1,000,000,000: 8 GB as float64). */
  maxCells?: number;
  /** Longest field, in bytes of the input including its quotes (default 256 MiB). */
  maxFieldBytes?: number;
  /**
   * Most missing fields pandas may add to rows shorter than the header, over the whole input
   * (default: the input's size in bytes, at least 4,194,304). Every other cell takes at least a
   * byte of input, a delimiter or a line end; these take none, so without a bound a short file
   * could ask for any number of cells.
   */
  maxPaddedFields?: number;
}

/** Limits that switch off the shape checks, for trusted inputs such as answers files. */
export const NO_CSV_LIMITS = Object.freeze({
  maxColumns: Infinity,
  maxCells: Infinity,
  maxFieldBytes: Infinity,
  maxPaddedFields: Infinity,
}) satisfies CsvReadOptions;

const DEFAULT_MAX_BYTES = 8 * 1024 ** 3;
const DEFAULT_CHUNK_BYTES = 1024 * 1024;
const DEFAULT_MAX_COLUMNS = 100_000;
const DEFAULT_MAX_CELLS = 1_000_000_000;
const DEFAULT_MAX_FIELD_BYTES = 256 * 1024 * 1024;
const MIN_PADDED_FIELDS = 4 * 1024 * 1024;
/**
 * Fields a batch holds before it is handed on. A chunk of real records never comes near it, but
 * padded short rows would otherwise fill a batch with as many fields as the padding bound allows.
 */
const MAX_BATCH_FIELDS = 4 * 1024 * 1024;

/** The shape limits of one read, defaults filled in. */
interface Limits {
  maxColumns: number;
  maxCells: number;
  maxFieldBytes: number;
  maxPaddedFields: number;
}

/** `size`: the input's size in bytes (0 when unknown), which scales the default bound on padding. */
function resolveLimits(options: CsvReadOptions | undefined, size: number): Limits {
  return {
    maxColumns: options?.maxColumns ?? DEFAULT_MAX_COLUMNS,
    maxCells: options?.maxCells ?? DEFAULT_MAX_CELLS,
    maxFieldBytes: options?.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES,
    maxPaddedFields: options?.maxPaddedFields ?? Math.max(MIN_PADDED_FIELDS, size),
  };
}

/** A refusal of an input whose shape would cost more time or memory than any real file needs. */
function tooLarge(file: string, what: string, limit: number, line: number | undefined): CsvParseError {
  return new CsvParseError(`${file}: too large to grade: ${what} (the limit is ${limit})`, file, line);
}

const LF = 10;
const CR = 13;
const SP = 32;
const TAB = 9;
const QUOTE = 34;
const COMMA = 44;

// ---------------------------------------------------------------------------------------------
// Byte sources and UTF-8 checking.

interface ByteSource {
  /** Read into buf[start, end); returns the count, 0 at the end of the input. */
  readInto(buf: Buffer, start: number, end: number): number;
  /** The input's size in bytes, or 0 when unknown. */
  size(): number;
  close(): void;
}

class FileSource implements ByteSource {
  private readonly fd: number;
  private readonly bytes: number;

  constructor(path: string, file: string, maxBytes: number) {
    this.fd = openSync(path, "r");
    try {
      this.bytes = fstatSync(this.fd).size;
      if (this.bytes > maxBytes) throw tooBig(file, this.bytes, maxBytes);
    } catch (err) {
      closeSync(this.fd);
      throw err;
    }
  }

  size(): number {
    return this.bytes;
  }

  readInto(buf: Buffer, start: number, end: number): number {
    return readSync(this.fd, buf, start, end - start, null);
  }

  close(): void {
    closeSync(this.fd);
  }
}

class ArraySource implements ByteSource {
  private pos = 0;

  constructor(private readonly bytes: Uint8Array) {}

  size(): number {
    return this.bytes.length;
  }

  readInto(buf: Buffer, start: number, end: number): number {
    const n = Math.min(end - start, this.bytes.length - this.pos);
    buf.set(this.bytes.subarray(this.pos, this.pos + n), start);
    this.pos += n;
    return n;
  }

  close(): void {}
}

function tooBig(file: string, size: number, maxBytes: number): CsvParseError {
  return new CsvParseError(
    `${file} is ${size} bytes, more than the limit of ${maxBytes} bytes for a CSV file`,
    file,
    undefined,
  );
}

/** Where the first invalid UTF-8 sequence in b[i, end) starts (WHATWG rules), or null. */
function findUtf8Error(b: Uint8Array, i: number, end: number): { at: number; truncated: boolean } | null {
  while (i < end) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
    } else return { at: i, truncated: false };
    for (let k = 1; k <= need; k++) {
      if (i + k >= end) return { at: i, truncated: true };
      const d = b[i + k];
      if (d < lo || d > hi) return { at: i, truncated: false };
      lo = 0x80;
      hi = 0xbf;
    }
    i += need + 1;
  }
  return null;
}

/** The end of the last complete UTF-8 sequence in b[from, n): a sequence cut by the chunk end waits for more bytes. */
function completeEnd(b: Uint8Array, from: number, n: number): number {
  let j = n - 1;
  while (j > from && j > n - 4 && (b[j] & 0xc0) === 0x80) j--;
  if (j < from) return n;
  const c = b[j];
  const len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
  return j + len > n ? j : n;
}

/** Buffer's own decoder, without toString's argument handling (a measurable share for text-heavy files). */
interface Utf8Slicer {
  utf8Slice(start: number, end: number): string;
}
const HAS_UTF8_SLICE = typeof (Buffer.prototype as unknown as Partial<Utf8Slicer>).utf8Slice === "function";

/** The text of b[a, z), which holds valid UTF-8. */
function utf8Text(b: Buffer, a: number, z: number): string {
  return HAS_UTF8_SLICE ? (b as unknown as Utf8Slicer).utf8Slice(a, z) : b.toString("utf8", a, z);
}

// ---------------------------------------------------------------------------------------------
// Tokenizer: pandas' C state machine over the bytes, record by record.

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

/**
 * Splits bytes into records and fields. `run` handles one chunk and leaves in the batch arrays
 * every complete data record it found; the caller keeps the unconsumed tail (an incomplete
 * record) and puts it in front of the next chunk.
 */
class Tokenizer {
  /** Per field of the batch: start offset, or the index in `cx` when `fe` is -1. */
  fs: Int32Array;
  /** Per field of the batch: end offset, or -1 for a field whose text is in `cx`. */
  fe: Int32Array;
  nf = 0;
  /** Texts of fields that are not a plain byte range (doubled quotes, or quotes mixed with text). */
  cx: string[] = [];
  /** Per record of the batch: index of the field after its last one. */
  re = new Int32Array(256);
  nr = 0;

  /** The raw header names, once the first record has been read. */
  header: string[] | null = null;
  /** Fields per data row: the header's count, or more when the first data row has an implicit index. */
  expected = 0;
  /** Leading fields of each row that pandas takes as an implicit index. */
  leading = 0;
  /** Set when only the header was wanted and it has been read. */
  done = false;
  /** The physical line (1-based) at which the next record starts. */
  physLine = 1;
  /** Bytes of the last `run`, from its start, up to the end of the header if the header ended there; else -1. */
  headerEnd = -1;

  /** Records completed, header included (pandas' `lines`). */
  private lines = 0;
  /** pandas' `file_lines`: records plus skipped blank lines, used in pandas' own messages. */
  private fileLines = 0;
  private atStart = true;
  /**
   * Fields of the current record are stored below this index and only counted above it, so a
   * record far wider than allowed costs no memory while its width is established for the message.
   */
  private recLimit = 0;
  /** min(recLimit, fs.length): the one bound the per-field store checks. */
  private room = 0;
  /** Fields of the current record past `recLimit`. */
  private dropped = 0;
  /** Missing fields added to short rows so far. */
  private padded = 0;
  /**
   * Fields a record stores before it only counts the rest: maxColumns for the header and the first
   * data row, then that row's width (a wider row gets pandas' message, with its full count).
   */
  private rowCap: number;
  /** Bytes of a quoted field with doubled quotes, assembled before decoding it once. */
  private scratch = Buffer.alloc(0);

  constructor(
    private readonly file: string,
    private readonly limits: Limits,
    private readonly stopAfterHeader = false,
    chunkBytes = 0,
  ) {
    // Typical fields take 4+ bytes; sizing for that avoids regrowing during the first chunk.
    const cap = Math.min(Math.max(1024, chunkBytes >> 2), 1 << 22);
    this.fs = new Int32Array(cap);
    this.fe = new Int32Array(cap);
    this.rowCap = limits.maxColumns;
  }

  private pushRange(a: number, z: number): void {
    if (this.nf >= this.room && !this.makeRoom()) return;
    this.fs[this.nf] = a;
    this.fe[this.nf++] = z;
  }

  private pushText(t: string): void {
    if (this.nf >= this.room && !this.makeRoom()) return;
    this.fs[this.nf] = this.cx.length;
    this.fe[this.nf++] = -1;
    this.cx.push(t);
  }

  /** Whether the current record may store one more field (growing the arrays if need be); counts it otherwise. */
  private makeRoom(): boolean {
    if (this.nf >= this.recLimit) {
      this.dropped++;
      return false;
    }
    while (this.nf >= this.fs.length) this.growFields();
    this.room = Math.min(this.recLimit, this.fs.length);
    return true;
  }

  private growFields(): void {
    const fs = new Int32Array(this.fs.length * 2);
    fs.set(this.fs);
    this.fs = fs;
    const fe = new Int32Array(this.fe.length * 2);
    fe.set(this.fe);
    this.fe = fe;
  }

  /** A quoted field's content: the bytes in `scratch[0, sl)` (when sl >= 0), then b[a1, z1), then b[a2, z2). */
  private pushQuoted(b: Buffer, sl: number, a1: number, z1: number, a2: number, z2: number): void {
    if (sl < 0 && a2 === z2) {
      this.pushRange(a1, z1);
      return;
    }
    if (this.nf >= this.recLimit) {
      this.dropped++;
      return;
    }
    let len = this.append(b, Math.max(sl, 0), a1, z1);
    len = this.append(b, len, a2, z2);
    // Quotes are ASCII, so the pieces never split a UTF-8 sequence and decode as the whole would.
    this.pushText(utf8Text(this.scratch, 0, len));
  }

  /** Copy b[a, z) to scratch at `at`; returns the new length. */
  private append(b: Buffer, at: number, a: number, z: number): number {
    const len = at + z - a;
    if (len > this.scratch.length) {
      const bigger = Buffer.allocUnsafe(Math.max(len, this.scratch.length * 2, 256));
      this.scratch.copy(bigger, 0, 0, at);
      this.scratch = bigger;
    }
    const s = this.scratch;
    // Doubled quotes make many short pieces, for which a call to copy costs more than the loop.
    if (z - a < 16) for (let k = a; k < z; k++) s[at++] = b[k];
    else b.copy(s, at, a, z);
    return len;
  }

  /** The text of batch field `i`. */
  fieldText(b: Buffer, i: number): string {
    const e = this.fe[i];
    return e >= 0 ? utf8Text(b, this.fs[i], e) : this.cx[this.fs[i]];
  }

  /**
   * Tokenize `b` from `start` (whole records plus maybe an incomplete one), stopping after
   * `limit` data records; returns the offset after the last complete record or skipped line.
   */
  run(b: Buffer, final: boolean, start = 0, limit = Infinity): number {
    const n = b.length;
    const maxField = this.limits.maxFieldBytes;
    this.nf = 0;
    this.nr = 0;
    this.cx.length = 0;
    this.headerEnd = -1;
    let i = start;
    if (this.atStart) {
      // pandas drops a UTF-8 BOM at the very start of the file only.
      if (n < 3 && !final && b[0] === 0xef && (n < 2 || b[1] === 0xbb)) return 0;
      if (n >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) i = 3;
      this.atStart = false;
    }
    let consumed = i;
    let c = 0;
    records: while (i < n && !this.done && this.nr < limit && this.nf < MAX_BATCH_FIELDS) {
      const recPhys = this.physLine;
      const recFirst = this.nf;
      const recCx = this.cx.length;
      c = b[i];

      // Blank lines, and lines of only spaces and tabs, are skipped (skip_blank_lines).
      if (c === LF) {
        i++;
        this.fileLines++;
        this.physLine++;
        consumed = i;
        continue;
      }
      if (c === CR || c === SP || c === TAB) {
        let j = i;
        if (c !== CR) {
          j++;
          while (j < n && ((c = b[j]) === SP || c === TAB)) j++;
          if (j >= n) {
            if (final) consumed = i = n;
            break;
          }
          c = b[j];
        }
        if (c === LF) {
          i = j + 1;
          this.fileLines++;
          this.physLine++;
          consumed = i;
          continue;
        }
        if (c === CR) {
          if (j + 1 >= n && !final) break;
          i = j + 1;
          this.fileLines++;
          this.physLine++;
          // pandas' EAT_CRNL_NOP swallows the byte after the CR if it is LF *or a delimiter*.
          if (i < n && (b[i] === LF || b[i] === COMMA)) i++;
          consumed = i;
          continue;
        }
        // Otherwise the blanks begin a real record: tokenize it from its start.
      }

      this.recLimit = recFirst + this.rowCap;
      this.room = Math.min(this.recLimit, this.fs.length);
      this.dropped = 0;
      let extraLines = 0;
      for (;;) {
        // START_FIELD
        if (i >= n) {
          if (!final) {
            this.undo(recFirst, recCx, recPhys);
            break records;
          }
          this.pushRange(0, 0); // a delimiter right before EOF ends one more, empty, field
          break;
        }
        c = b[i];
        if (c === QUOTE) {
          const fieldLine = recPhys + extraLines;
          let segStart = i + 1;
          // Length in `scratch` of the content before segStart, once a doubled quote was seen.
          let sl = -1;
          for (;;) {
            // A quote right away (an empty field, or a run of doubled quotes) needs no search.
            const q = b[segStart] === QUOTE ? segStart : b.indexOf(QUOTE, segStart);
            if (q < 0) {
              if (!final) {
                this.suspend(recFirst, recCx, recPhys, n - i, fieldLine);
                break records;
              }
              if (n - i > maxField) throw this.fieldTooLong(fieldLine);
              throw new CsvParseError(
                `${this.file}: EOF inside string starting at row ${this.fileLines}` +
                  ` (a quoted field opened on line ${recPhys + extraLines} is never closed)`,
                this.file,
                recPhys + extraLines,
              );
            }
            if (q > segStart) extraLines += countLineBreaks(b, segStart, q);
            if (q + 1 >= n) {
              if (!final) {
                this.suspend(recFirst, recCx, recPhys, n - i, fieldLine);
                break records;
              }
              if (q + 1 - i > maxField) throw this.fieldTooLong(fieldLine);
              this.pushQuoted(b, sl, segStart, q, 0, 0);
              i = q + 1;
              break;
            }
            const d = b[q + 1];
            if (d === QUOTE) {
              if (q + 2 - i > maxField) throw this.fieldTooLong(fieldLine);
              // A field past the record's limit is only counted, so its text is not needed.
              sl = this.nf < this.recLimit ? this.append(b, Math.max(sl, 0), segStart, q + 1) : 0;
              segStart = q + 2;
              continue;
            }
            if (d === COMMA || d === LF || d === CR) {
              if (q + 1 - i > maxField) throw this.fieldTooLong(fieldLine);
              this.pushQuoted(b, sl, segStart, q, 0, 0);
              i = q + 1;
              break;
            }
            // Text after the closing quote continues the field unquoted; quotes in it are literal.
            let k = q + 1;
            while (k < n && (c = b[k]) !== COMMA && c !== LF && c !== CR) k++;
            if (k >= n && !final) {
              this.suspend(recFirst, recCx, recPhys, n - i, fieldLine);
              break records;
            }
            if (k - i > maxField) throw this.fieldTooLong(fieldLine);
            this.pushQuoted(b, sl, segStart, q, q + 1, k);
            i = k;
            break;
          }
        } else {
          let j = i;
          // Most bytes of most fields (digits, letters, '.', '-') sort above ',' and need one comparison.
          while (j < n && ((c = b[j]) > COMMA || (c !== COMMA && c !== LF && c !== CR))) j++;
          if (j >= n && !final) {
            this.suspend(recFirst, recCx, recPhys, n - i, recPhys + extraLines);
            break records;
          }
          if (j - i > maxField) throw this.fieldTooLong(recPhys + extraLines);
          this.pushRange(i, j);
          i = j;
        }
        // After a field: EOF, a delimiter, or a line end.
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
        // CR: a LF right after it belongs to the same line end, so wait for the next chunk to know.
        if (i + 1 >= n && !final) {
          this.undo(recFirst, recCx, recPhys);
          break records;
        }
        i++;
        if (i < n && b[i] === LF) i++;
        break;
      }
      this.endRecord(b, recFirst, recCx, recPhys);
      if (this.headerEnd < 0 && this.lines === 1) this.headerEnd = i - start;
      this.physLine = recPhys + 1 + extraLines;
      consumed = i;
    }
    return consumed;
  }

  /**
   * Account for `k` one-line data records that the sink's fast path read without the tokenizer.
   * They are whole rows, so only the cell count can exceed its limit; the refusal names the row
   * that crossed it, as the tokenizer would have.
   */
  skipRecords(k: number): void {
    const width = this.expected;
    const maxCells = this.limits.maxCells;
    if ((this.lines - 1 + k) * width > maxCells) {
      const row = Math.floor(maxCells / width) + 1;
      throw this.tooManyCells(row, width, this.physLine + row - this.lines);
    }
    this.lines += k;
    this.fileLines += k;
    this.physLine += k;
  }

  /** Whether the next record is at least the second data row (the first decides the implicit index). */
  pastFirstRow(): boolean {
    return this.lines >= 2;
  }

  private undo(recFirst: number, recCx: number, recPhys: number): void {
    this.nf = recFirst;
    this.cx.length = recCx;
    this.physLine = recPhys;
  }

  /** Undo a record cut by the chunk end inside a field that already has `fieldBytes` bytes; a field already too long is refused now, before more of it is read. */
  private suspend(recFirst: number, recCx: number, recPhys: number, fieldBytes: number, fieldLine: number): void {
    if (fieldBytes > this.limits.maxFieldBytes) throw this.fieldTooLong(fieldLine);
    this.undo(recFirst, recCx, recPhys);
  }

  private fieldTooLong(line: number): CsvParseError {
    const max = this.limits.maxFieldBytes;
    return tooLarge(this.file, `a field in line ${line} has more than ${max} bytes`, max, line);
  }

  private tooManyCells(rows: number, width: number, line: number): CsvParseError {
    const what = `${rows * width} cells (${rows} rows of ${width} fields) by line ${line}`;
    return tooLarge(this.file, what, this.limits.maxCells, line);
  }

  /** pandas' end_line: check the field count, pad short rows with empty (missing) fields. */
  private endRecord(b: Buffer, first: number, recCx: number, recPhys: number): void {
    const stored = this.nf - first;
    const fields = stored + this.dropped;
    if (this.lines === 0) {
      if (fields > this.limits.maxColumns) {
        throw tooLarge(this.file, `${fields} columns in the header`, this.limits.maxColumns, recPhys);
      }
      // The header is not a data record: keep its names and drop it from the batch.
      const names: string[] = new Array(fields);
      for (let k = 0; k < fields; k++) names[k] = this.fieldText(b, first + k);
      this.header = names;
      this.nf = first;
      this.cx.length = recCx;
      this.expected = fields;
      this.lines = 1;
      this.fileLines++;
      if (this.stopAfterHeader) this.done = true;
      return;
    }
    if (this.lines === 1) {
      // pandas doesn't check the first data row: extra fields there become an implicit index.
      if (fields > this.expected) {
        if (fields > this.limits.maxColumns) {
          throw tooLarge(this.file, `${fields} fields in line ${recPhys}`, this.limits.maxColumns, recPhys);
        }
        this.leading = fields - this.expected;
        this.expected = fields;
      }
      this.rowCap = this.expected;
    } else if (fields > this.expected) {
      const pandasLine = this.fileLines + 1;
      let msg = `${this.file}: Expected ${this.expected} fields in line ${pandasLine}, saw ${fields}`;
      if (pandasLine !== recPhys) msg += ` (line ${recPhys} counting line breaks inside quoted fields)`;
      if (this.leading > 0) {
        msg +=
          `; the header has ${this.expected - this.leading} names but the first data row had` +
          ` ${this.expected} fields, so pandas read its first ${this.leading} as an index`;
      }
      throw new CsvParseError(msg, this.file, recPhys);
    }
    const width = this.expected;
    if (this.lines * width > this.limits.maxCells) throw this.tooManyCells(this.lines, width, recPhys);
    if (stored < width) {
      this.padded += width - stored;
      if (this.padded > this.limits.maxPaddedFields) {
        const what = `${this.padded} missing fields added to short rows by line ${recPhys}`;
        throw tooLarge(this.file, what, this.limits.maxPaddedFields, recPhys);
      }
      while (first + width > this.fs.length) this.growFields();
      this.fs.fill(0, first + stored, first + width);
      this.fe.fill(0, first + stored, first + width);
      this.nf = first + width;
    }
    if (this.nr >= this.re.length) {
      const re = new Int32Array(this.re.length * 2);
      re.set(this.re);
      this.re = re;
    }
    this.re[this.nr++] = this.nf;
    this.lines++;
    this.fileLines++;
  }
}

// ---------------------------------------------------------------------------------------------
// Decimal to double without building strings.

const POW10 = new Float64Array(23);
for (let k = 0; k <= 22; k++) POW10[k] = Number(`1e${k}`);

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** ulp(q) for a positive normal double q (every q this module asks about is far from subnormal). */
function ulpOf(q: number): number {
  f64[0] = q;
  const e = (u32[HI] >>> 20) & 0x7ff;
  u32[HI] = (e - 52) << 20;
  u32[1 - HI] = 0;
  return f64[0];
}

/** Whether the positive normal double q is a power of two (its lower neighbour is half an ulp away). */
function isPow2(q: number): boolean {
  f64[0] = q;
  return u32[1 - HI] === 0 && (u32[HI] & 0xfffff) === 0;
}

/**
 * The double nearest to w·10^e10 where w = m1·10^n2 + m2 (m1 < 10^15, m2 < 10^n2, n2 <= 4), for
 * -44 <= e10 <= 22: round, then check the residual, computed exactly with error-free
 * transformations, against half an ulp and step to the neighbour if needed. NaN when the value is
 * too close to halfway between two doubles to decide this way (the caller then uses Number()).
 */
function roundDecimal(m1: number, n2: number, m2: number, e10: number): number {
  // w = s + wl exactly: s = fl(w); wl, the rounding errors, are integers below 2^12.
  const scale = POW10[n2];
  const p = m1 * scale;
  const pe = productError(m1, scale, p);
  const s = p + m2;
  const bv = s - p;
  const wl = p - (s - bv) + (m2 - bv) + pe;
  let q: number;
  if (e10 < 0) {
    const k = -e10;
    const d1 = k <= 22 ? POW10[k] : 1e22;
    const d2 = k <= 22 ? 1 : POW10[k - 22];
    q = (s + wl) / d1 / d2;
    for (let iter = 0; iter < 4; iter++) {
      // R = w - q·d1·d2, with q·d1·d2 expanded into exact terms; s - (q·d1·d2) is exact (Sterbenz).
      const a = q * d1;
      const ae = productError(q, d1, a);
      let r: number;
      if (d2 === 1) r = s - a + (wl - ae);
      else {
        const bb = a * d2;
        const be = productError(a, d2, bb);
        const c = ae * d2;
        r = s - bb + (wl - be - c - productError(ae, d2, c));
      }
      // Half an ulp of q is more than q·2^-54: below that (with room for error) q is right, no ulp needed.
      const ar = r < 0 ? -r : r;
      if (ar < q * d1 * d2 * 5.551115123125783e-17 * 0.999999) return q;
      const ulp = ulpOf(q);
      const half = (r < 0 && isPow2(q) ? ulp / 4 : ulp / 2) * d1 * d2;
      const dist = Math.abs(r) - half;
      if (Math.abs(dist) <= half * 1e-6) return NaN;
      if (dist < 0) return q;
      q = r > 0 ? q + ulp : q - (isPow2(q) ? ulp / 2 : ulp);
    }
    return NaN;
  }
  const mul = POW10[e10];
  q = (s + wl) * mul;
  const a = s * mul;
  const ae = productError(s, mul, a);
  const c = wl * mul;
  const ce = productError(wl, mul, c);
  for (let iter = 0; iter < 4; iter++) {
    // R = (s + wl)·mul - q; a - q is exact (Sterbenz).
    const r = a - q + (ae + c + ce);
    const ar = r < 0 ? -r : r;
    if (ar < q * 5.551115123125783e-17 * 0.999999) return q;
    const ulp = ulpOf(q);
    const half = r < 0 && isPow2(q) ? ulp / 4 : ulp / 2;
    const dist = Math.abs(r) - half;
    if (Math.abs(dist) <= half * 1e-6) return NaN;
    if (dist < 0) return q;
    q = r > 0 ? q + ulp : q - (isPow2(q) ? ulp / 2 : ulp);
  }
  return NaN;
}

// ---------------------------------------------------------------------------------------------
// Cell parsers, following pandas' C helpers. The common outcome is the return value; the rare
// ones are reported through `R`, so the hot loops make no allocations and few stores.

/** Not an integer (pandas' ERROR_NO_DIGITS / ERROR_INVALID_CHARS). */
const INVALID = 1;
/** Out of range while reading the digits (ERROR_OVERFLOW). */
const OVERFLOW = 2;
/** str_to_uint64 saw a leading '-': it records a signed value and does not look further. */
const MINUS = 3;
/** A valid integer of more than 15 digits: exact value in R.big, nearest double in R.val. */
const BIG = 4;

/** Side results of the integer parsers when they return NaN. */
const R = { status: 0, val: 0, big: 0n };

const INT64_MAX_DIGITS = "9223372036854775807";
const INT64_MIN_DIGITS = "9223372036854775808";
const UINT64_MAX_DIGITS = "18446744073709551615";
const INT64_MAX = 9223372036854775807n;
const TWO_53_BIG = 9007199254740992n;

/** pandas 2.2's default missing-value tokens, grouped by byte length. */
const NA_BY_LEN: Uint8Array[][] = [];
for (const t of [
  "#N/A",
  "#N/A N/A",
  "#NA",
  "-1.#IND",
  "-1.#QNAN",
  "-NaN",
  "-nan",
  "1.#IND",
  "1.#QNAN",
  "<NA>",
  "N/A",
  "NA",
  "NULL",
  "NaN",
  "None",
  "n/a",
  "nan",
  "null",
]) {
  (NA_BY_LEN[t.length] ??= []).push(Buffer.from(t, "latin1"));
}

/** Whether b[a, z) is a missing-value token ("" or one of pandas' list; whole field, unstripped). */
function isNa(b: Uint8Array, a: number, z: number): boolean {
  const len = z - a;
  if (len === 0) return true;
  if (len > 8) return false;
  const c = b[a];
  // Cheap rejections first: numbers are the common case and only a few tokens start with a digit or '-'.
  if (c === 49 /* 1 */) {
    if (len < 6 || b[a + 1] !== 46) return false;
  } else if (c === 45 /* - */) {
    const d = b[a + 1];
    if (d !== 78 && d !== 110 && !(d === 49 && b[a + 2] === 46)) return false;
  } else if (c !== 78 /* N */ && c !== 110 /* n */ && c !== 35 /* # */ && c !== 60 /* < */) return false;
  const cands = NA_BY_LEN[len];
  if (cands === undefined) return false;
  outer: for (const t of cands) {
    for (let k = 0; k < len; k++) if (b[a + k] !== t[k]) continue outer;
    return true;
  }
  return false;
}

/** Integers of more than 15 digits: the exact value and its range check, the slow path. */
function longInteger(b: Buffer, ds: number, de: number, neg: boolean, unsigned: boolean): number {
  let lz = ds;
  while (lz < de && b[lz] === 48) lz++;
  const nd = de - lz;
  const digits = b.toString("latin1", lz, de);
  const limit = unsigned ? UINT64_MAX_DIGITS : neg ? INT64_MIN_DIGITS : INT64_MAX_DIGITS;
  if (nd > limit.length || (nd === limit.length && digits > limit)) return OVERFLOW;
  R.big = nd === 0 ? 0n : neg ? -BigInt(digits) : BigInt(digits);
  // Number(bigint) rounds to nearest-even like numpy's int64 -> float64 cast, for columns that end up float.
  R.val = Number(R.big);
  return BIG;
}

/**
 * pandas' str_to_int64 (and, with `unsigned`, str_to_uint64, tried only after int64 overflowed):
 * optional spaces, sign, digits, optional spaces. Returns the value, or NaN with R.status set.
 * Overflow is detected while reading digits, before trailing junk, so "99999999999999999999.5"
 * overflows rather than being invalid — which decides whether pandas tries uint64 next. "-0"
 * returns -0, so callers can see the sign pandas' uint64 pass looks for; the uint64 pass itself
 * rejects any minus sign.
 */
function parseInteger(b: Buffer, a: number, z: number, unsigned: boolean): number {
  let p = a;
  let c = b[p];
  while (c === SP || (c >= 9 && c <= 13)) {
    if (++p >= z) return invalid();
    c = b[p];
  }
  let neg = false;
  if (unsigned && c === 45) {
    R.status = MINUS;
    return NaN;
  }
  if (c === 45 || c === 43) {
    neg = c === 45;
    if (++p >= z) return invalid();
    c = b[p];
  }
  const ds = p;
  let v = 0;
  while (c >= 48 && c <= 57) {
    v = v * 10 + (c - 48);
    if (++p >= z) break;
    c = b[p];
  }
  const de = p;
  if (de === ds) return invalid();
  let status = 0;
  if (de - ds > 15) {
    status = longInteger(b, ds, de, neg, unsigned);
    if (status === OVERFLOW) {
      R.status = OVERFLOW;
      return NaN;
    }
  }
  while (p < z) {
    c = b[p];
    if (!(c === SP || (c >= 9 && c <= 13))) return invalid();
    p++;
  }
  if (status === BIG) {
    R.status = BIG;
    return NaN;
  }
  return neg ? -v : v;
}

function invalid(): number {
  R.status = INVALID;
  return NaN;
}

/** The inf spellings pandas accepts, any case, nothing around them: inf, +inf, -inf, infinity, +infinity, -infinity. */
function parseInfWord(b: Buffer, a: number, z: number): number {
  let p = a;
  let neg = false;
  if (b[p] === 45 || b[p] === 43) neg = b[p++] === 45;
  const len = z - p;
  if (len !== 3 && len !== 8) return NaN;
  const word = "infinity";
  for (let k = 0; k < len; k++) if ((b[p + k] | 32) !== word.charCodeAt(k)) return NaN;
  return neg ? -Infinity : Infinity;
}

/** Where floatCore stopped. */
const SCAN = { end: 0 };

/**
 * A decimal number [sign]digits[.digits][(e|E)[sign]digits] starting at b[p], read no further than
 * z: its correctly rounded value, with SCAN.end set to the byte after it; NaN when there are no
 * digits or the exponent has none.
 */
function floatCore(b: Buffer, p: number, z: number): number {
  let c = b[p];
  let neg = false;
  if (c === 45 || c === 43) {
    neg = c === 45;
    if (++p >= z) return NaN;
    c = b[p];
  }
  const ns = p;
  // Significant digits: the first 15 exactly in m1, up to 4 more in m2 (n2 of them), then only
  // counted; leading zeros are not significant. `c` is -1 past the end. Separate loops per stage
  // keep the per-digit work to a compare and a multiply-add.
  let m1 = 0;
  let m2 = 0;
  let n2 = 0;
  let sig = 0;
  while (c === 48) c = ++p < z ? b[p] : -1;
  let digits = p - ns;
  let frac = 0;
  let fs = -1;
  for (let part = 0; part < 2; part++) {
    const from = p;
    if (part === 1) {
      if (c !== 46) break;
      c = ++p < z ? b[p] : -1;
      fs = p;
      if (sig === 0) while (c === 48) c = ++p < z ? b[p] : -1;
    }
    while (sig < 15 && c >= 48 && c <= 57) {
      m1 = m1 * 10 + (c - 48);
      sig++;
      c = ++p < z ? b[p] : -1;
    }
    while (sig < 19 && c >= 48 && c <= 57) {
      m2 = m2 * 10 + (c - 48);
      n2++;
      sig++;
      c = ++p < z ? b[p] : -1;
    }
    while (c >= 48 && c <= 57) {
      sig++;
      c = ++p < z ? b[p] : -1;
    }
    digits += part === 1 ? p - fs : p - from;
    if (part === 1) frac = p - fs;
  }
  if (digits === 0) return NaN;
  let exp = 0;
  if (c === 101 || c === 69) {
    c = ++p < z ? b[p] : -1;
    let eneg = false;
    if (c === 45 || c === 43) {
      eneg = c === 45;
      c = ++p < z ? b[p] : -1;
    }
    const es = p;
    while (c >= 48 && c <= 57) {
      if (exp < 100000) exp = exp * 10 + (c - 48);
      c = ++p < z ? b[p] : -1;
    }
    if (p === es) return NaN;
    if (eneg) exp = -exp;
  }
  SCAN.end = p;
  let v: number;
  if (sig === 0) v = 0;
  else {
    // Beyond 19 digits the dropped ones only matter to the slow path, which re-reads the text.
    const e10 = exp - frac + (sig > 19 ? sig - 19 : 0);
    // w, the significant digits as an integer, if it is at most 2^53 (so exact as a double).
    const w =
      sig <= 15
        ? m1
        : sig === 16 && (m1 < 900719925474099 || (m1 === 900719925474099 && m2 <= 2))
          ? m1 * 10 + m2
          : Infinity;
    if (w <= 9007199254740992 && e10 >= -22 && e10 <= 22) {
      // Clinger's fast path: an exact integer below 2^53 and an exact power of ten round once, correctly.
      v = e10 < 0 ? w / POW10[-e10] : w * POW10[e10];
    } else if (sig <= 19 && e10 >= -44 && e10 <= 22) {
      v = roundDecimal(m1, n2, m2, e10);
      if (v !== v) v = Number(b.toString("latin1", ns, p));
    } else v = Number(b.toString("latin1", ns, p));
  }
  return neg ? -v : v;
}

/**
 * pandas' round_trip converter, returning NaN if the word is not a float: the word must be
 * [spaces][sign]digits[.digits][e[sign]digits][spaces] with at least one mantissa digit, and is then
 * parsed by Python's correctly rounded PyOS_string_to_double. A result of +inf (overflow) counts
 * as a failure in pandas (it compares with HUGE_VAL), so "1e400" is text while "-1e400" is -inf.
 * Failing that, the word may be one of the inf spellings pandas checks for afterwards.
 */
function parseFloat64(b: Buffer, a: number, z: number): number {
  let p = a;
  let c = b[p];
  while (c === SP || (c >= 9 && c <= 13)) {
    if (++p >= z) return NaN;
    c = b[p];
  }
  const v = floatCore(b, p, z);
  if (v !== v || v === Infinity) return parseInfWord(b, a, z);
  for (p = SCAN.end; p < z; p++) {
    c = b[p];
    if (!(c === SP || (c >= 9 && c <= 13))) return parseInfWord(b, a, z);
  }
  return v;
}

/** pandas' bool parsing: True/TRUE/true, False/FALSE/false and (to_boolean) any other casing. 1, 0 or -1. */
function parseBool(b: Buffer, a: number, z: number): number {
  const len = z - a;
  if (len === 4) {
    if ((b[a] | 32) === 116 && (b[a + 1] | 32) === 114 && (b[a + 2] | 32) === 117 && (b[a + 3] | 32) === 101) {
      return 1;
    }
  } else if (len === 5) {
    if (
      (b[a] | 32) === 102 &&
      (b[a + 1] | 32) === 97 &&
      (b[a + 2] | 32) === 108 &&
      (b[a + 3] | 32) === 115 &&
      (b[a + 4] | 32) === 101
    ) {
      return 0;
    }
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Column inference. pandas converts a column by trying whole-column passes in turn; each pass
// stops at its first failing cell. Here every pass runs at once, cell by cell, with one flag per
// pass, and the numeric value of each cell is kept in a Float64Array as it is read.

/** A string column whose first `upto` rows must be re-read from the input. */
interface Backfill {
  upto: number;
  /** Whether missing-value tokens become null (false only for pandas' uint64-conflict fallback). */
  naFilter: boolean;
  /** The strings already collected for rows `upto` onward. */
  tail: (string | null)[];
}

function isBackfill(x: Column | Backfill): x is Backfill {
  return (x as Backfill).upto !== undefined;
}

const MODE_GENERAL = 0;
const MODE_INT = 1;
const MODE_FLOAT = 2;

class ColumnBuilder {
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
  naCount = 0;
  /** Exact values of integers too long for a double, by row. */
  big: Map<number, bigint> | null = null;
  /** Each cell's value as pandas' float (or bool) pass reads it; NaN for missing values. */
  vals: Float64Array;
  /** Once every typed pass has failed: the strings from row `strFrom` on (earlier rows come from a second pass). */
  strs: (string | null)[] | null = null;
  strFrom = 0;
  /** Which fast loop fits the column now (see InferenceSink.consume); updated after every general add. */
  mode = MODE_INT;

  constructor(capacity: number) {
    this.vals = new Float64Array(capacity);
  }

  grow(capacity: number): void {
    if (this.strs !== null) return;
    const vals = new Float64Array(capacity);
    vals.set(this.vals);
    this.vals = vals;
  }

  private toStrings(row: number): void {
    this.strs = [];
    this.strFrom = row;
    this.vals = new Float64Array(0);
    this.big = null;
  }

  private keepBig(row: number, v: bigint): void {
    if (this.big === null) this.big = new Map();
    this.big.set(row, v);
    if (v > TWO_53_BIG || v < -TWO_53_BIG) this.beyond53 = true;
  }

  add(row: number, b: Buffer, a: number, z: number): void {
    this.addCell(row, b, a, z);
    this.mode =
      this.strs !== null
        ? MODE_GENERAL
        : this.intAlive
          ? MODE_INT
          : this.floatAlive && !this.uintAlive && !this.boolAlive
            ? MODE_FLOAT
            : MODE_GENERAL;
  }

  private addCell(row: number, b: Buffer, a: number, z: number): void {
    if (this.strs !== null) {
      this.strs.push(isNa(b, a, z) ? null : this.text(b, a, z));
      return;
    }
    if (isNa(b, a, z)) {
      this.naCount++;
      this.vals[row] = NaN;
      return;
    }
    if (this.intAlive) {
      const v = parseInteger(b, a, z, false);
      if (v === v || R.status === BIG) {
        this.setInt(row, v === v ? v : R.val);
        if (v !== v) this.keepBig(row, R.big);
        return;
      }
      this.intAlive = false;
      // pandas retries uint64 only when int64 overflowed, not when a cell was not an integer.
      if (R.status === OVERFLOW) this.uintAlive = true;
    }
    let numeric = false;
    if (this.uintAlive) {
      const v = parseInteger(b, a, z, true);
      if (v === v) {
        this.vals[row] = v;
        numeric = true;
      } else if (R.status === BIG) {
        this.vals[row] = R.val;
        this.keepBig(row, R.big);
        if (R.big > INT64_MAX) this.aboveInt64 = true;
        numeric = true;
      } else if (R.status === MINUS) this.minus = true;
      else if (R.status === INVALID) this.uintAlive = false;
      else {
        // uint64 overflow raises OverflowError, which pandas answers with an object column.
        this.toStrings(row);
        this.strs!.push(utf8Text(b, a, z));
        return;
      }
    }
    if (!numeric && this.floatAlive) {
      const v = parseFloat64(b, a, z);
      if (v === v) {
        this.vals[row] = v;
        numeric = true;
      } else this.floatAlive = false;
    }
    if (numeric) {
      this.boolAlive = false;
      return;
    }
    if (this.boolAlive) {
      const v = parseBool(b, a, z);
      if (v >= 0) {
        this.vals[row] = v;
        return;
      }
      this.boolAlive = false;
    }
    if (!this.uintAlive && !this.floatAlive) {
      this.toStrings(row);
      this.strs!.push(utf8Text(b, a, z));
    }
  }

  /**
   * Recently seen short ASCII strings by hash: label-like columns repeat a few values a million
   * times. Made on first use (undefined before), so numeric columns of a wide file pay nothing.
   */
  private cache: Map<number, string> | null | undefined = undefined;
  private lookups = 0;
  private hits = 0;

  /** The text of a cell in a string column, shared with an earlier equal cell when one is cached. */
  private text(b: Buffer, a: number, z: number): string {
    let cache = this.cache;
    if (cache === undefined) cache = this.cache = new Map();
    if (cache === null || z - a > 32) return utf8Text(b, a, z);
    let h = 0x811c9dc5;
    for (let k = a; k < z; k++) {
      const c = b[k];
      if (c >= 0x80) return utf8Text(b, a, z);
      h = Math.imul(h ^ c, 0x01000193);
    }
    this.lookups++;
    const hit = cache.get(h);
    if (hit !== undefined && hit.length === z - a) {
      let same = true;
      for (let k = 0; k < hit.length; k++) {
        if (hit.charCodeAt(k) !== b[a + k]) {
          same = false;
          break;
        }
      }
      if (same) {
        this.hits++;
        return hit;
      }
    }
    const t = utf8Text(b, a, z);
    if (cache.size < 4096) cache.set(h, t);
    // Give up on columns of mostly distinct values (ids): hashing them only costs time.
    if (this.lookups >= 20_000 && this.hits < this.lookups / 2) this.cache = null;
    return t;
  }

  /** Record an integer from the int64 pass; its sign matters to pandas' uint64 pass, even for "-0". */
  setInt(row: number, v: number): void {
    this.vals[row] = v;
    if (v < 0) this.minus = true;
    else if (v === 0 && 1 / v < 0) this.minus = this.negZero = true;
    this.boolAlive = false;
  }

  /** The finished column, or what a second pass must collect for it. */
  finish(rows: number): Column | Backfill {
    if (this.strs !== null) return { upto: this.strFrom, naFilter: true, tail: this.strs };
    // A header-only file gives object columns.
    if (rows === 0) return { kind: "string", values: [] };
    // A view when the capacity guess was near enough (copying 8 bytes a row costs more than the
    // slack), a copy when most of the buffer would be wasted.
    const vals =
      rows === this.vals.length
        ? this.vals
        : this.vals.length - rows <= rows / 2
          ? this.vals.subarray(0, rows)
          : this.vals.slice(0, rows);
    this.vals = new Float64Array(0);
    if (this.intAlive) {
      // Integer columns never hold -0 (int64 has none, and the upcast to float keeps +0).
      if (this.negZero) for (let i = 0; i < rows; i++) if (vals[i] === 0) vals[i] = 0;
      if (this.naCount > 0) return { kind: "float", values: vals };
      if (this.beyond53) return { kind: "bigint", values: this.bigints(vals, rows) };
      return { kind: "int", values: vals };
    }
    if (this.uintAlive) {
      // uint64_conflict: a value above int64 with a negative or a missing value raises ValueError, and
      // pandas then re-reads the column as object *without* NA filtering: "NA" stays the string "NA".
      if (this.aboveInt64 && (this.minus || this.naCount > 0)) return { upto: rows, naFilter: false, tail: [] };
      // Only negatives beyond int64: OverflowError, an ordinary object column.
      if (this.minus) return { upto: rows, naFilter: true, tail: [] };
      return { kind: "bigint", values: this.bigints(vals, rows) };
    }
    if (this.floatAlive) return { kind: "float", values: vals };
    if (this.naCount === 0) return { kind: "bool", values: Uint8Array.from(vals) };
    // Booleans with gaps: pandas makes an object column of True/False/NaN.
    const out: (boolean | null)[] = new Array(rows);
    for (let i = 0; i < rows; i++) out[i] = vals[i] !== vals[i] ? null : vals[i] === 1;
    return { kind: "object", values: out };
  }

  private bigints(vals: Float64Array, rows: number): bigint[] {
    const out: bigint[] = new Array(rows);
    const big = this.big;
    for (let i = 0; i < rows; i++) out[i] = big?.get(i) ?? BigInt(vals[i]);
    return out;
  }
}

/** Builds the columns from the tokenizer's batches, or straight from the bytes (`fast`). */
class InferenceSink {
  cols: ColumnBuilder[] | null = null;
  rows = 0;
  private capacity = 0;
  private bytesSeen = 0;
  /** Bytes up to the end of the header (blank lines before it included), once it has been read. */
  private headerBytes = 0;

  /** `totalBytes`: the input's size when known, to size the columns once instead of growing them. */
  constructor(private readonly totalBytes: number) {}

  /** Whether `fast` may take the next records: every column still reads as int or as float. */
  fastReady = false;

  private updateFastReady(tok: Tokenizer): void {
    this.fastReady =
      this.cols !== null &&
      tok.leading === 0 &&
      tok.pastFirstRow() &&
      this.cols.every((c) => c.mode === MODE_INT || c.mode === MODE_FLOAT);
  }

  /**
   * The common case without the tokenizer: records that are one line of unquoted numbers (or
   * empty fields) for columns that still read as int or as float, ending in "\n" or "\r\n".
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
        if (c === COMMA || ((c === LF || c === CR) && j > 0)) {
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
    this.rows = row;
    tok.skipRecords(done);
    return p;
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
      for (let j = 0; j < ncols; j++) this.cols.push(new ColumnBuilder(this.capacity));
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
          // Rare: quotes that had to be rewritten; parse the rewritten text's bytes.
          const t = Buffer.from(tok.cx[fs[fi]], "utf8");
          col.add(row, t, 0, t.length);
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

interface BackfillTarget {
  j: number;
  upto: number;
  naFilter: boolean;
  out: (string | null)[];
}

/** Collects, in a second pass, the text of the rows that a column had already read as numbers. */
class BackfillSink {
  rows = 0;
  finished: boolean;
  private readonly maxUpto: number;

  private readonly targets: BackfillTarget[];

  constructor(targets: BackfillTarget[]) {
    // Longest first, so each row visits only the columns that still need it.
    this.targets = [...targets].sort((a, b) => b.upto - a.upto);
    this.maxUpto = this.targets.length > 0 ? this.targets[0].upto : 0;
    this.finished = this.maxUpto === 0;
  }

  consume(tok: Tokenizer, b: Buffer): void {
    const nr = tok.nr;
    const lead = tok.leading;
    const targets = this.targets;
    let first = 0;
    for (let r = 0; r < nr && this.rows < this.maxUpto; r++) {
      const base = first + lead;
      for (const t of targets) {
        if (this.rows >= t.upto) break;
        const fi = base + t.j;
        const e = tok.fe[fi];
        if (e >= 0) t.out.push(t.naFilter && isNa(b, tok.fs[fi], e) ? null : utf8Text(b, tok.fs[fi], e));
        else {
          const text = tok.cx[tok.fs[fi]];
          t.out.push(t.naFilter && isNaText(text) ? null : text);
        }
      }
      first = tok.re[r];
      this.rows++;
    }
    if (this.rows >= this.maxUpto) this.finished = true;
  }
}

function isNaText(t: string): boolean {
  const bytes = Buffer.from(t, "utf8");
  return isNa(bytes, 0, bytes.length);
}

// ---------------------------------------------------------------------------------------------
// Driver and public API.

/**
 * Feed `src` through `tok` chunk by chunk, handing each batch of records to `consume` (which
 * returns true to stop early). Each chunk is the unconsumed tail of the previous one followed by
 * fresh bytes; only fresh bytes are checked for UTF-8 and NUL.
 */
function drive(
  src: ByteSource,
  tok: Tokenizer,
  chunkBytes: number,
  file: string,
  maxBytes: number,
  consume: (b: Buffer, used: number) => boolean | void,
  fast?: (b: Buffer, pos: number, n: number) => number,
): void {
  let buf = Buffer.allocUnsafe(chunkBytes);
  let carry = 0;
  // buf[0, valid) is known to be complete, valid UTF-8.
  let valid = 0;
  // File offset of buf[0], for error messages.
  let offset = 0;
  let total = 0;
  try {
    for (;;) {
      // Read at least as much as is carried over, so a record longer than a chunk costs linear time.
      const want = carry + Math.max(chunkBytes, carry);
      if (buf.length < want) {
        const bigger = Buffer.allocUnsafe(want);
        buf.copy(bigger, 0, 0, carry);
        buf = bigger;
      }
      let n = carry;
      let eof = false;
      while (n < want) {
        const r = src.readInto(buf, n, want);
        if (r === 0) {
          eof = true;
          break;
        }
        n += r;
      }
      total += n - carry;
      // A file that grows while being read, or a pipe, has no trustworthy size up front.
      if (total > maxBytes) throw tooBig(file, total, maxBytes);
      const end = eof ? n : completeEnd(buf, valid, n);
      if (!isUtf8(buf.subarray(valid, end))) {
        const bad = findUtf8Error(buf, valid, end) ?? { at: valid, truncated: false };
        const at = offset + bad.at;
        throw new CsvParseError(
          `${file} is not UTF-8 text: ` +
            (bad.truncated
              ? `it ends inside a multi-byte character that starts at byte offset ${at}`
              : `invalid byte 0x${buf[bad.at].toString(16).padStart(2, "0")} at byte offset ${at}`),
          file,
          undefined,
        );
      }
      const nul = buf.indexOf(0, carry);
      if (nul >= 0 && nul < n) {
        const line = tok.physLine + countLineBreaks(buf, 0, nul);
        throw new CsvParseError(`${file}: line ${line} contains a NUL byte; a CSV file must be UTF-8 text`, file, line);
      }
      valid = end;
      const data = buf.subarray(0, n);
      // Alternate between the fast path (when given) and the tokenizer, which takes what the
      // fast path can't, in batches that grow while the fast path keeps declining.
      let pos = 0;
      // A first batch of some size also gives the sink a fair sample to size its columns from.
      let limit = fast === undefined ? Infinity : 256;
      let stop: boolean | void = false;
      for (;;) {
        if (fast !== undefined) {
          const taken = fast(data, pos, n);
          if (taken > pos) {
            pos = taken;
            limit = 1;
          } else limit = Math.min(limit * 2, 1 << 20);
        }
        const used = tok.run(data, eof, pos, limit);
        stop = consume(data, used - pos);
        const progress = used > pos;
        pos = used;
        if (stop === true || tok.done || !progress || pos >= n) break;
      }
      if (eof || tok.done || stop === true) return;
      buf.copy(buf, 0, pos, n);
      carry = n - pos;
      valid -= pos;
      offset += pos;
    }
  } finally {
    src.close();
  }
}

/** pandas' header clean-up: "Unnamed: i" for empty names, then ".1", ".2" suffixes for duplicates. */
function pandasColumnNames(raw: string[]): string[] {
  const names = raw.map((n, i) => (n === "" ? `Unnamed: ${i}` : n));
  // How often each name occurs in the list as it is being rewritten (pandas checks `col in this_header`).
  const present = new Map<string, number>();
  for (const n of names) present.set(n, (present.get(n) ?? 0) + 1);
  if (present.size === names.length) return names;
  // Named columns first, so that given names keep their spelling and unnamed ones get mangled.
  const order: number[] = [];
  for (let i = 0; i < raw.length; i++) if (raw[i] !== "") order.push(i);
  for (let i = 0; i < raw.length; i++) if (raw[i] === "") order.push(i);
  const counts = new Map<string, number>();
  for (const i of order) {
    const old = names[i];
    let col = old;
    let cur = counts.get(col) ?? 0;
    while (cur > 0) {
      counts.set(old, cur + 1);
      col = `${old}.${cur}`;
      if ((present.get(col) ?? 0) > 0) cur += 1;
      else cur = counts.get(col) ?? 0;
    }
    if (col !== old) {
      present.set(old, present.get(old)! - 1);
      present.set(col, (present.get(col) ?? 0) + 1);
      names[i] = col;
    }
    counts.set(col, cur + 1);
  }
  return names;
}

function noColumns(file: string): CsvParseError {
  return new CsvParseError(
    `No columns to parse from file ${file}: it is empty or holds only blank lines`,
    file,
    undefined,
  );
}

interface Input {
  open: () => ByteSource;
  file: string;
  maxBytes: number;
  chunkBytes: number;
  text?: readonly string[];
  options?: CsvReadOptions;
}

function parseInput(input: Input): Table {
  const { file, maxBytes, chunkBytes } = input;
  const src = input.open();
  const limits = resolveLimits(input.options, src.size());
  const tok = new Tokenizer(file, limits, false, chunkBytes);
  const sink = new InferenceSink(src.size());
  drive(
    src,
    tok,
    chunkBytes,
    file,
    maxBytes,
    (b, used) => sink.consume(tok, b, used),
    csvReadInternals.fastPath ? (b, pos, n) => (sink.fastReady ? sink.fast(tok, b, pos, n) : pos) : undefined,
  );
  if (tok.header === null) throw noColumns(file);
  const names = pandasColumnNames(tok.header);
  const rows = sink.rows;
  const textNames = new Set(input.text);
  const results = names.map((name, j): Column | Backfill => {
    if (sink.cols === null) return { kind: "string", values: [] };
    const r = sink.cols[j].finish(rows);
    // A text column's cells all come from the second pass, whatever they parsed as.
    const asText = textNames.has(name) && rows > 0 && !(isBackfill(r) && r.naFilter);
    return asText ? { upto: rows, naFilter: true, tail: [] } : r;
  });
  sink.cols = null;

  const targets: BackfillTarget[] = [];
  // Per column, its target's place in `targets` (-1: none).
  const targetOf = new Int32Array(names.length).fill(-1);
  results.forEach((r, j) => {
    if (isBackfill(r) && r.upto > 0) {
      targetOf[j] = targets.length;
      targets.push({ j, upto: r.upto, naFilter: r.naFilter, out: [] });
    }
  });
  if (targets.length > 0) {
    const back = new BackfillSink(targets);
    const tok2 = new Tokenizer(file, limits, false, chunkBytes);
    drive(input.open(), tok2, chunkBytes, file, maxBytes, (b) => {
      back.consume(tok2, b);
      return back.finished;
    });
    if (!back.finished) throw new CsvParseError(`${file} changed while it was being read`, file, undefined);
  }

  const columns = names.map((name, j): [string, Column] => {
    const r = results[j];
    if (!isBackfill(r)) return [name, r];
    const head = targetOf[j] >= 0 ? targets[targetOf[j]].out : undefined;
    return [name, { kind: "string", values: head === undefined ? r.tail : head.concat(r.tail) }];
  });
  return makeTable(columns);
}

/** Not API: a switch for tests that compare the fast path with the tokenizer-only path. */
export const csvReadInternals = { fastPath: true };

function chunkOption(options: CsvReadOptions | undefined): number {
  return Math.max(1, Math.floor(options?.chunkBytes ?? DEFAULT_CHUNK_BYTES));
}

/** Read a CSV file like `pandas.read_csv(path, float_precision="round_trip")` (pandas 2.2). */
export function readCsv(path: string, options?: CsvReadOptions): Table {
  const file = options?.file ?? path;
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BYTES;
  return parseInput({
    open: () => new FileSource(path, file, maxBytes),
    file,
    maxBytes,
    chunkBytes: chunkOption(options),
    text: options?.text,
    options,
  });
}

/** Parse CSV text or UTF-8 bytes like {@link readCsv} does a file. */
export function parseCsv(text: string | Uint8Array, options?: CsvReadOptions): Table {
  const file = options?.file ?? "<input>";
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BYTES;
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  if (bytes.length > maxBytes) throw tooBig(file, bytes.length, maxBytes);
  return parseInput({
    open: () => new ArraySource(bytes),
    file,
    maxBytes,
    chunkBytes: chunkOption(options),
    text: options?.text,
    options,
  });
}

/** The column names `readCsv` would give the file, reading only its first record. */
export function readCsvHeader(path: string, options?: CsvReadOptions): string[] {
  const file = options?.file ?? path;
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BYTES;
  // Small reads: the header is normally near the start of a possibly huge file.
  const chunk = Math.min(chunkOption(options), 64 * 1024);
  const src = new FileSource(path, file, maxBytes);
  const tok = new Tokenizer(file, resolveLimits(options, src.size()), true);
  drive(src, tok, chunk, file, maxBytes, () => tok.done);
  if (tok.header === null) throw noColumns(file);
  return pandasColumnNames(tok.header);
}

/** Not API: pandas' cell parsers and header naming, for readers that stream a file instead of building a Table. */
export const csvCellParsers = {
  isNa,
  parseInteger,
  parseFloat64,
  parseBool,
  pandasColumnNames,
  /** Side results of parseInteger when it returns NaN. */
  result: R,
  INVALID,
  OVERFLOW,
  MINUS,
  BIG,
} as const;
