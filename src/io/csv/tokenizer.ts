/**
 * pandas' C tokenizer (tokenizer.c) over UTF-8 bytes: records and fields, skip_blank_lines, the
 * implicit index, short-row padding and the shape limits. Fields are byte ranges into the chunk;
 * only fields whose quotes had to be rewritten are copied.
 */
import { CsvParseError } from "../../core/errors.js";
import { tooLarge, type Limits } from "./options.js";
import { utf8Text } from "./source.js";

// Bytes, declared here rather than imported: Node 20 re-reads an imported binding on every use
// (a TDZ check), which slows the byte loops measurably.
const TAB = 9;
const LF = 10;
const CR = 13;
const SP = 32;
const QUOTE = 34;
const COMMA = 44;

/**
 * Fields a batch holds before it is handed on. A chunk of real records never comes near it, but
 * padded short rows would otherwise fill a batch with as many fields as the padding bound allows.
 */
const MAX_BATCH_FIELDS = 4 * 1024 * 1024;

/** Physical line breaks (LF, CRLF or lone CR) in b[a, z). */
export function countLineBreaks(b: Uint8Array, a: number, z: number): number {
  let k = 0;
  for (let i = a; i < z; i++) {
    const c = b[i];
    if (c === LF) k++;
    else if (c === CR && b[i + 1] !== LF) k++;
  }
  return k;
}

/** A copy of `a` in an array twice its length. */
function doubled(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** A data row wider than the rows before it, which pandas refuses; the numbers let other readers word it their way. */
export class CsvWidthError extends CsvParseError {
  constructor(
    message: string,
    file: string,
    line: number,
    /** Fields a row may have. */
    readonly expected: number,
    /** Fields the row has. */
    readonly saw: number,
    /** The row's place among the data rows, 1-based. */
    readonly dataRow: number,
  ) {
    super(message, file, line);
  }
}

/** Where a field's bytes are: b[a, z). */
export interface FieldRef {
  b: Buffer;
  a: number;
  z: number;
}

/**
 * Splits bytes into records and fields. `run` handles one chunk and leaves in the batch arrays
 * every complete data record it found; the caller keeps the unconsumed tail (an incomplete
 * record) and puts it in front of the next chunk.
 */
export class Tokenizer {
  /** Per field of the batch: start offset, or the index in `cx` when `fe` is -1. */
  fs: Int32Array;
  /** Per field of the batch: end offset, or -1 for a field whose bytes are in `cx`. */
  fe: Int32Array;
  nf = 0;
  /** Bytes of fields that are not a plain byte range (doubled quotes, or quotes mixed with text). */
  cx: Buffer[] = [];
  /** Per record of the batch: index of the field after its last one. */
  re: Int32Array = new Int32Array(256);
  /** Per record of the batch: bytes from the start of the run to the end of the record. */
  rb: Int32Array = new Int32Array(256);
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

  private pushBytes(x: Buffer): void {
    if (this.nf >= this.room && !this.makeRoom()) return;
    this.fs[this.nf] = this.cx.length;
    this.fe[this.nf++] = -1;
    this.cx.push(x);
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
    this.fs = doubled(this.fs);
    this.fe = doubled(this.fe);
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
    const x = Buffer.allocUnsafe(len);
    this.scratch.copy(x, 0, 0, len);
    this.pushBytes(x);
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
    if (e >= 0) return utf8Text(b, this.fs[i], e);
    // Quotes are ASCII, so the pieces never split a UTF-8 sequence and decode as the whole would.
    const x = this.cx[this.fs[i]];
    return utf8Text(x, 0, x.length);
  }

  /** Where the bytes of batch field `i` are. */
  field(b: Buffer, i: number, out: FieldRef): void {
    const e = this.fe[i];
    if (e >= 0) {
      out.b = b;
      out.a = this.fs[i];
      out.z = e;
    } else {
      const x = this.cx[this.fs[i]];
      out.b = x;
      out.a = 0;
      out.z = x.length;
    }
  }

  /**
   * Continue as if the header and a first data row of `fields` fields had been read, so that
   * `run` takes single data records of a file tokenized once already (re-read from their offsets).
   */
  resume(fields: number): void {
    this.expected = fields;
    this.rowCap = fields;
    this.lines = this.fileLines = 2;
    this.atStart = false;
  }

  /**
   * Tokenize b[start, end) (whole records plus maybe an incomplete one), stopping after `limit`
   * data records; returns the offset after the last complete record or skipped line.
   */
  run(b: Buffer, final: boolean, start = 0, limit = Infinity, end = b.length): number {
    const n = end;
    const maxField = this.limits.maxFieldBytes;
    this.nf = 0;
    this.nr = 0;
    // Only reset when used: setting an array's length is not free, and most batches have no such field.
    if (this.cx.length > 0) this.cx.length = 0;
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
            let q = segStart < n && b[segStart] === QUOTE ? segStart : b.indexOf(QUOTE, segStart);
            if (q >= n) q = -1;
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
      this.endRecord(b, recFirst, recCx, recPhys, i - start);
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

  /**
   * pandas' end_line: check the field count, pad short rows with empty (missing) fields. `bytes`:
   * from the run's start to the record's end. The rare cases are methods of their own, so this
   * stays small enough to be inlined into `run`.
   */
  private endRecord(b: Buffer, first: number, recCx: number, recPhys: number, bytes: number): void {
    const stored = this.nf - first;
    const fields = stored + this.dropped;
    if (this.lines < 2) {
      if (this.lines === 0) {
        this.takeHeader(b, first, recCx, recPhys, fields);
        return;
      }
      this.takeFirstRow(fields, recPhys);
    } else if (fields > this.expected) throw this.tooWide(fields, recPhys);
    const width = this.expected;
    if (this.lines * width > this.limits.maxCells) throw this.tooManyCells(this.lines, width, recPhys);
    if (stored < width) this.pad(first, stored, width, recPhys);
    if (this.nr >= this.re.length) {
      this.re = doubled(this.re);
      this.rb = doubled(this.rb);
    }
    this.rb[this.nr] = bytes;
    this.re[this.nr++] = this.nf;
    this.lines++;
    this.fileLines++;
  }

  /** The header is not a data record: keep its names and drop it from the batch. */
  private takeHeader(b: Buffer, first: number, recCx: number, recPhys: number, fields: number): void {
    if (fields > this.limits.maxColumns) {
      throw tooLarge(this.file, `${fields} columns in the header`, this.limits.maxColumns, recPhys);
    }
    const names: string[] = new Array(fields);
    for (let k = 0; k < fields; k++) names[k] = this.fieldText(b, first + k);
    this.header = names;
    this.nf = first;
    this.cx.length = recCx;
    this.expected = fields;
    this.lines = 1;
    this.fileLines++;
    if (this.stopAfterHeader) this.done = true;
  }

  /** pandas doesn't check the first data row: extra fields there become an implicit index. */
  private takeFirstRow(fields: number, recPhys: number): void {
    if (fields > this.expected) {
      if (fields > this.limits.maxColumns) {
        throw tooLarge(this.file, `${fields} fields in line ${recPhys}`, this.limits.maxColumns, recPhys);
      }
      this.leading = fields - this.expected;
      this.expected = fields;
    }
    this.rowCap = this.expected;
  }

  /** pandas' refusal of a data row wider than the first. */
  private tooWide(fields: number, recPhys: number): CsvWidthError {
    const pandasLine = this.fileLines + 1;
    let msg = `${this.file}: Expected ${this.expected} fields in line ${pandasLine}, saw ${fields}`;
    if (pandasLine !== recPhys) msg += ` (line ${recPhys} counting line breaks inside quoted fields)`;
    if (this.leading > 0) {
      msg +=
        `; the header has ${this.expected - this.leading} names but the first data row had` +
        ` ${this.expected} fields, so pandas read its first ${this.leading} as an index`;
    }
    return new CsvWidthError(msg, this.file, recPhys, this.expected, fields, this.lines);
  }

  /** Fill a short row up to `width` with empty fields, within the padding limit. */
  private pad(first: number, stored: number, width: number, recPhys: number): void {
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
}
