/**
 * Parquet for flat tables of numbers, booleans and text, on top of hyparquet (reading) and
 * hyparquet-writer (writing).
 *
 * Reading takes whatever hyparquet decodes (data pages v1 and v2, every encoding, Snappy built in;
 * gzip, Brotli and, where Node has it, zstd through node:zlib), one bounded row range at a time, so
 * a file of a hundred million rows never has to be decoded whole. Columns come back as typed
 * arrays with a null mask, the shape pandas' dtypes need.
 *
 * Writing produces one fixed layout, chosen so that another implementation (the Python oracle in
 * scripts/golden/preparer_cases/_parquet.py) can write the same bytes: required columns, PLAIN
 * encoding, no compression, one data page (v1) per column chunk, row groups of `rowGroupRows`
 * rows. hyparquet-writer's own `ParquetWriter` always writes v2 pages, column orders and Snappy by
 * default, none of which that oracle reproduces, so only its byte writer, PLAIN encoder and Thrift
 * serializer are used here.
 */
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import zlib from "node:zlib";
import { cachedAsyncBuffer, parquetMetadataAsync, parquetRead, type AsyncBuffer, type ColumnData, type Compressors, type DecodedArray, type FileMetaData, type SchemaElement } from "hyparquet";
import { ByteWriter } from "hyparquet-writer";
import { writePlain } from "hyparquet-writer/src/plain.js";
import { serializeTCompactProtocol } from "hyparquet-writer/src/thrift.js";
import { UserError } from "../core/errors.js";

/** A column's value type as pandas would see it. */
export type ParquetType = "boolean" | "int32" | "int64" | "float" | "double" | "string";

/** A column of a Parquet file. */
export interface ParquetField {
  name: string;
  type: ParquetType;
  /** Whether the column may hold nulls (OPTIONAL in the schema). */
  optional: boolean;
}

/** Values of one column for a run of rows; `nulls[i]` is 1 where the row is null (its value is then 0 or ""). */
export type ParquetValues =
  | { type: "boolean"; values: Uint8Array; nulls: Uint8Array | null }
  | { type: "int32"; values: Int32Array; nulls: Uint8Array | null }
  | { type: "int64"; values: BigInt64Array; nulls: Uint8Array | null }
  | { type: "float"; values: Float32Array; nulls: Uint8Array | null }
  | { type: "double"; values: Float64Array; nulls: Uint8Array | null }
  | { type: "string"; values: string[]; nulls: Uint8Array | null };

/** Rows of the named columns, from `rowStart` (inclusive) to `rowEnd` (exclusive) of the file. */
export interface ParquetPart {
  rowStart: number;
  rowEnd: number;
  columns: Map<string, ParquetValues>;
}

/** Rows decoded at a time by {@link ParquetReader.parts}: bounded memory even when a writer made one huge row group. */
export const DEFAULT_READ_ROWS = 1 << 20;

// ---------------------------------------------------------------------------------------------
// Reading.

const zstdDecompressSync = (zlib as unknown as { zstdDecompressSync?: (b: Uint8Array) => Uint8Array }).zstdDecompressSync;

// Snappy is built into hyparquet; these cover the other codecs pyarrow offers without another dependency.
const COMPRESSORS: Compressors = {
  GZIP: (input) => zlib.gunzipSync(input),
  BROTLI: (input) => zlib.brotliDecompressSync(input),
  ...(zstdDecompressSync ? { ZSTD: (input: Uint8Array) => zstdDecompressSync(input) } : {}),
};

// pandas refuses text that is not UTF-8; hyparquet's default decoder would substitute U+FFFD.
const UTF8 = new TextDecoder("utf-8", { fatal: true });
const PARSERS = { stringFromBytes: (bytes: Uint8Array) => bytes && UTF8.decode(bytes) };

/** A Parquet file opened for reading in row ranges. */
export class ParquetReader {
  /** Every column, index columns of pandas metadata included. */
  readonly fields: ParquetField[];
  /** Columns pandas stored its index in (they are not data columns). */
  readonly indexColumns: string[];
  readonly numRows: number;
  /** Each row group's rows, as [rowStart, rowEnd) of the file. */
  readonly rowGroups: readonly { rowStart: number; rowEnd: number }[];

  private constructor(
    private readonly handle: fs.promises.FileHandle,
    private readonly buffer: AsyncBuffer,
    private readonly metadata: FileMetaData,
    /** The path, for messages. */
    readonly file: string,
  ) {
    this.fields = readSchema(metadata.schema, file);
    this.indexColumns = pandasIndexColumns(metadata);
    this.numRows = Number(metadata.num_rows);
    let start = 0;
    this.rowGroups = metadata.row_groups.map((g) => {
      const rows = { rowStart: start, rowEnd: start + Number(g.num_rows) };
      start = rows.rowEnd;
      return rows;
    });
    if (start !== this.numRows) throw new UserError(`${file}: row groups hold ${start} rows, the footer says ${this.numRows}`);
  }

  /** Open `file` and read its footer. */
  static async open(file: string): Promise<ParquetReader> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, "r");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new UserError(`${file} does not exist`);
      throw e;
    }
    try {
      const buffer = fileBuffer(handle, (await handle.stat()).size, file);
      const metadata = await named(file, () => parquetMetadataAsync(buffer, { parsers: PARSERS }));
      return new ParquetReader(handle, buffer, metadata, file);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  /** The named columns (all when omitted) of rows [rowStart, rowEnd). */
  async read(rowStart: number, rowEnd: number, names?: readonly string[]): Promise<Map<string, ParquetValues>> {
    return this.readFrom(this.buffer, rowStart, rowEnd, this.pick(names));
  }

  /**
   * The named columns in consecutive parts of at most `maxRows` rows, never straddling a row
   * group. A row group's column chunks are fetched once however many parts it is cut into.
   */
  async *parts(names?: readonly string[], maxRows = DEFAULT_READ_ROWS): AsyncGenerator<ParquetPart> {
    const fields = this.pick(names);
    for (const g of this.rowGroups) {
      // hyparquet fetches whole column chunks for any range of a group; the cache lives for one group only.
      const buffer = cachedAsyncBuffer(this.buffer);
      for (let rowStart = g.rowStart; rowStart < g.rowEnd; rowStart += maxRows) {
        const rowEnd = Math.min(g.rowEnd, rowStart + maxRows);
        yield { rowStart, rowEnd, columns: await this.readFrom(buffer, rowStart, rowEnd, fields) };
      }
    }
  }

  /** Release the file. */
  async close(): Promise<void> {
    await this.handle.close();
  }

  private pick(names: readonly string[] | undefined): ParquetField[] {
    if (!names) return this.fields;
    return names.map((n) => {
      const f = this.fields.find((x) => x.name === n);
      if (!f) throw new UserError(`${this.file}: no column "${n}" (columns: ${this.fields.map((x) => x.name).join(", ")})`);
      return f;
    });
  }

  private async readFrom(buffer: AsyncBuffer, rowStart: number, rowEnd: number, fields: ParquetField[]): Promise<Map<string, ParquetValues>> {
    if (!(Number.isSafeInteger(rowStart) && Number.isSafeInteger(rowEnd) && 0 <= rowStart && rowStart <= rowEnd && rowEnd <= this.numRows)) {
      throw new RangeError(`${this.file}: rows [${rowStart}, ${rowEnd}) are outside the file's ${this.numRows} rows`);
    }
    const chunks = new Map<string, ColumnData[]>(fields.map((f) => [f.name, []]));
    if (fields.length > 0 && rowEnd > rowStart) {
      await named(this.file, () =>
        parquetRead({
          file: buffer,
          metadata: this.metadata,
          columns: fields.map((f) => f.name),
          rowStart,
          rowEnd,
          compressors: COMPRESSORS,
          parsers: PARSERS,
          onChunk: (c) => chunks.get(c.columnName)?.push(c),
        }),
      );
    }
    return new Map(fields.map((f) => [f.name, gather(f, chunks.get(f.name)!, rowStart, rowEnd, this.file)]));
  }
}

/** An AsyncBuffer over an open file: hyparquet asks for byte ranges, nothing more is read. */
function fileBuffer(handle: fs.promises.FileHandle, byteLength: number, file: string): AsyncBuffer {
  return {
    byteLength,
    async slice(start: number, end = byteLength): Promise<ArrayBuffer> {
      const out = new ArrayBuffer(Math.max(0, end - start));
      const bytes = new Uint8Array(out);
      for (let got = 0; got < bytes.length; ) {
        const { bytesRead } = await handle.read(bytes, got, bytes.length - got, start + got);
        if (bytesRead === 0) throw new UserError(`${file}: ends at byte ${start + got}, before the data its footer points to`);
        got += bytesRead;
      }
      return out;
    },
  };
}

/** Run a hyparquet call, turning its errors (which do not say which file) into ones that do. */
async function named<T>(file: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof UserError) throw e;
    const why = e instanceof TypeError && /encoded data was not valid/i.test(e.message) ? "a text value is not valid UTF-8" : (e as Error).message;
    throw new UserError(`${file}: not a readable Parquet file (${why})`);
  }
}

/** Copy the decoded pages of one column that overlap [rowStart, rowEnd) into one typed array. */
function gather(f: ParquetField, chunks: ColumnData[], rowStart: number, rowEnd: number, file: string): ParquetValues {
  const n = rowEnd - rowStart;
  const out = emptyValues(f.type, n);
  const target = out.values as unknown as { [i: number]: unknown; set?: (a: ArrayLike<unknown>, at: number) => void };
  const nulls = new Uint8Array(n);
  let anyNull = false;
  let filled = 0;
  for (const c of chunks) {
    const from = Math.max(c.rowStart, rowStart);
    const to = Math.min(c.rowEnd, rowEnd);
    if (to <= from) continue;
    const src = c.columnData as ArrayLike<unknown>;
    const skip = from - c.rowStart;
    const at = from - rowStart;
    if (sameArrayType(out, src)) {
      target.set!((src as Int32Array).subarray(skip, skip + to - from) as ArrayLike<unknown>, at);
    } else {
      for (let i = 0; i < to - from; i++) {
        const v = src[skip + i];
        if (v === null || v === undefined) {
          nulls[at + i] = 1;
          anyNull = true;
        } else target[at + i] = out.type === "boolean" ? (v ? 1 : 0) : v;
      }
    }
    filled += to - from;
  }
  if (filled !== n) throw new UserError(`${file}: column "${f.name}" has ${filled} values for rows [${rowStart}, ${rowEnd})`);
  if (anyNull) out.nulls = nulls;
  return out;
}

function sameArrayType(out: ParquetValues, src: ArrayLike<unknown>): boolean {
  return !Array.isArray(src) && out.type !== "string" && out.type !== "boolean" && Object.getPrototypeOf(src) === Object.getPrototypeOf(out.values);
}

function emptyValues(type: ParquetType, rows: number): ParquetValues {
  switch (type) {
    case "boolean":
      return { type, values: new Uint8Array(rows), nulls: null };
    case "int32":
      return { type, values: new Int32Array(rows), nulls: null };
    case "int64":
      return { type, values: new BigInt64Array(rows), nulls: null };
    case "float":
      return { type, values: new Float32Array(rows), nulls: null };
    case "double":
      return { type, values: new Float64Array(rows), nulls: null };
    case "string":
      return { type, values: new Array<string>(rows).fill(""), nulls: null };
  }
}

/** The flat schema: every leaf a direct child of the root, required or optional. */
function readSchema(schema: SchemaElement[], file: string): ParquetField[] {
  if (schema.length === 0) throw new UserError(`${file}: Parquet footer has no schema`);
  if ((schema[0].num_children ?? 0) !== schema.length - 1) throw new UserError(`${file}: nested Parquet schemas are not supported (only flat tables)`);
  return schema.slice(1).map((e) => {
    const where = `${file}: column "${e.name}"`;
    if (e.num_children) throw new UserError(`${where} is a nested group; only flat tables are supported`);
    if (e.repetition_type === "REPEATED") throw new UserError(`${where} is a repeated (list) column; only flat tables are supported`);
    return { name: e.name, type: valueType(e, where), optional: e.repetition_type === "OPTIONAL" };
  });
}

/** Map a physical type (and its annotation) to the dtype pandas would give; refuse what we cannot carry over faithfully. */
function valueType(e: SchemaElement, where: string): ParquetType {
  const logical = e.logical_type?.type;
  if (e.type === "BYTE_ARRAY") {
    if (e.converted_type === "UTF8" || logical === "STRING") return "string";
    throw new UserError(`${where} holds raw bytes; only UTF-8 text columns are supported`);
  }
  if (e.type === "INT32" || e.type === "INT64") {
    // An INTEGER annotation is fine when it says what the physical type already does (signed, full width).
    const width = e.type === "INT64" ? 64 : 32;
    const int = e.logical_type?.type === "INTEGER" ? e.logical_type : undefined;
    const plain = (!e.logical_type || (int && int.bitWidth === width && int.isSigned)) && (!e.converted_type || e.converted_type === `INT_${width}`);
    if (!plain) throw new UserError(`${where} carries a logical type (${logical ?? e.converted_type}); only plain int32/int64 are supported`);
    return e.type === "INT64" ? "int64" : "int32";
  }
  if (e.converted_type || e.logical_type) throw new UserError(`${where} carries a logical type (${logical ?? e.converted_type}); only plain numbers, booleans and text are supported`);
  switch (e.type) {
    case "BOOLEAN":
      return "boolean";
    case "FLOAT":
      return "float";
    case "DOUBLE":
      return "double";
    default:
      throw new UserError(`${where} has Parquet physical type ${e.type}, which is not supported`);
  }
}

/** Names pandas recorded as index columns in its "pandas" key-value metadata (a RangeIndex is stored as a description, not a column). */
function pandasIndexColumns(meta: FileMetaData): string[] {
  const kv = meta.key_value_metadata?.find((m) => m.key === "pandas");
  if (!kv?.value) return [];
  try {
    const parsed = JSON.parse(kv.value) as { index_columns?: unknown[] };
    return (parsed.index_columns ?? []).filter((c): c is string => typeof c === "string");
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Writing.

/** Rows per row group in our output: pyarrow's default, small enough to buffer. */
export const DEFAULT_ROW_GROUP_ROWS = 1 << 20;

// Parquet's codes for the fields of our layout.
const PHYSICAL: Record<ParquetType, number> = { boolean: 0, int32: 1, int64: 2, float: 4, double: 5, string: 6 };
const PLAIN = 0;
const RLE = 3;
const DATA_PAGE = 0;
const REQUIRED = 0;
const CONVERTED_UTF8 = 0;
const MAGIC = Buffer.from("PAR1", "ascii");

interface WrittenChunk {
  field: ParquetField;
  offset: number;
  size: number;
}

/**
 * Writes a Parquet file in our fixed layout, streaming: rows are appended in batches and flushed
 * as row groups of exactly `rowGroupRows` rows (the last one shorter). The file appears under its
 * name only on {@link close}; until then it is a temporary file beside it.
 */
export class ParquetWriter {
  private readonly tmp: string;
  private fd: number | null;
  private offset = 0;
  private pending: ParquetValues[][];
  private pendingRows = 0;
  private readonly groups: { rows: number; chunks: WrittenChunk[] }[] = [];
  private totalRows = 0;

  constructor(
    private readonly file: string,
    readonly fields: ParquetField[],
    private readonly rowGroupRows = DEFAULT_ROW_GROUP_ROWS,
  ) {
    for (const f of fields) if (f.optional) throw new Error(`ParquetWriter writes required columns only ("${f.name}" is optional)`);
    if (!(Number.isSafeInteger(rowGroupRows) && rowGroupRows > 0)) throw new Error(`rowGroupRows must be a positive integer, got ${rowGroupRows}`);
    // Same directory so the final rename never crosses a filesystem.
    this.tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
    this.fd = fs.openSync(this.tmp, "wx", 0o666);
    this.pending = fields.map(() => []);
    this.write(MAGIC);
  }

  /** Append rows: one values object per field, same order and length, no nulls. */
  append(columns: ParquetValues[]): void {
    if (columns.length !== this.fields.length) throw new Error(`expected ${this.fields.length} columns, got ${columns.length}`);
    const n = columns[0]?.values.length ?? 0;
    columns.forEach((c, k) => {
      const f = this.fields[k];
      if (c.type !== f.type) throw new Error(`column "${f.name}" is ${f.type}, got ${c.type} values`);
      if (c.values.length !== n) throw new Error(`column "${f.name}" has ${c.values.length} rows, expected ${n}`);
      if (c.nulls && c.nulls.some((x) => x === 1)) throw new UserError(`${this.file}: column "${f.name}" has missing values, which this writer cannot store`);
    });
    let start = 0;
    while (start < n) {
      const take = Math.min(n - start, this.rowGroupRows - this.pendingRows);
      columns.forEach((c, k) => this.pending[k].push(sliceValues(c, start, start + take)));
      this.pendingRows += take;
      start += take;
      if (this.pendingRows === this.rowGroupRows) this.flush();
    }
  }

  /** Flush the last row group, write the footer, and move the file into place. */
  close(): void {
    try {
      this.flush();
      const footer = new ByteWriter();
      serializeTCompactProtocol(footer, fileMetadata(this.fields, this.groups, this.totalRows));
      this.write(footer.getBytes());
      const len = Buffer.alloc(4);
      len.writeUInt32LE(footer.offset);
      this.write(len);
      this.write(MAGIC);
      fs.fsyncSync(this.fd!);
      fs.closeSync(this.fd!);
      this.fd = null;
      fs.renameSync(this.tmp, this.file);
    } catch (e) {
      this.abort();
      throw e;
    }
  }

  /** Give up: remove the temporary file; `file` is left as it was. */
  abort(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
    fs.rmSync(this.tmp, { force: true });
  }

  private write(bytes: Uint8Array): void {
    if (this.fd === null) throw new Error(`${this.file}: the Parquet writer is closed`);
    for (let done = 0; done < bytes.length; ) done += fs.writeSync(this.fd, bytes, done, bytes.length - done);
    this.offset += bytes.length;
  }

  private flush(): void {
    if (this.pendingRows === 0) return;
    const rows = this.pendingRows;
    const chunks = this.fields.map((field, k): WrittenChunk => {
      // Sized up front: growing a buffer of a million values by doubling copies it twenty times.
      const values = new ByteWriter(field.type === "string" || field.type === "boolean" ? 1 << 16 : rows * 8);
      writePlain(values, plainValues(field.type, this.pending[k], rows), PHYSICAL_NAME[field.type], undefined);
      const header = new ByteWriter();
      serializeTCompactProtocol(header, {
        field_1: DATA_PAGE,
        field_2: values.offset,
        field_3: values.offset,
        field_5: { field_1: rows, field_2: PLAIN, field_3: RLE, field_4: RLE },
      });
      const offset = this.offset;
      this.write(header.getBytes());
      this.write(values.getBytes());
      return { field, offset, size: header.offset + values.offset };
    });
    this.pending = this.fields.map(() => []);
    this.groups.push({ rows, chunks });
    this.totalRows += rows;
    this.pendingRows = 0;
  }
}

const PHYSICAL_NAME = { boolean: "BOOLEAN", int32: "INT32", int64: "INT64", float: "FLOAT", double: "DOUBLE", string: "BYTE_ARRAY" } as const;

/** One row group's values of a column, as hyparquet-writer's PLAIN encoder takes them (booleans as booleans, so one page packs their bits contiguously). */
function plainValues(type: ParquetType, parts: ParquetValues[], rows: number): DecodedArray {
  if (type === "string") return parts.flatMap((p) => p.values as string[]);
  if (type === "boolean") {
    const out = new Array<boolean>(rows);
    let i = 0;
    for (const p of parts) for (const b of p.values as Uint8Array) out[i++] = b !== 0;
    return out;
  }
  if (parts.length === 1) return parts[0].values as Exclude<DecodedArray, unknown[]>;
  const out = emptyValues(type, rows).values as Int32Array;
  let at = 0;
  for (const p of parts) {
    out.set(p.values as Int32Array, at);
    at += p.values.length;
  }
  return out;
}

/** The footer of our layout; numbers are Thrift i32 and bigints i64, as the format's fields are typed. */
function fileMetadata(fields: ParquetField[], groups: { rows: number; chunks: WrittenChunk[] }[], totalRows: number): Record<`field_${number}`, unknown> {
  const schema = [
    { field_4: "schema", field_5: fields.length },
    ...fields.map((f) => ({ field_1: PHYSICAL[f.type], field_3: REQUIRED, field_4: f.name, field_6: f.type === "string" ? CONVERTED_UTF8 : undefined })),
  ];
  const rowGroups = groups.map((g) => ({
    field_1: g.chunks.map((c) => ({
      field_2: BigInt(c.offset),
      field_3: {
        field_1: PHYSICAL[c.field.type],
        field_2: [PLAIN],
        field_3: [c.field.name],
        field_4: 0, // UNCOMPRESSED
        field_5: BigInt(g.rows),
        field_6: BigInt(c.size),
        field_7: BigInt(c.size),
        field_9: BigInt(c.offset),
      },
    })),
    field_2: BigInt(g.chunks.reduce((s, c) => s + c.size, 0)),
    field_3: BigInt(g.rows),
  }));
  return { field_1: 1, field_2: schema, field_3: BigInt(totalRows), field_4: rowGroups, field_6: "mlebench-ts" };
}

/** Rows [start, end) of a values object (a view for typed arrays). */
export function sliceValues(v: ParquetValues, start: number, end: number): ParquetValues {
  const nulls = v.nulls ? v.nulls.subarray(start, end) : null;
  switch (v.type) {
    case "string":
      return { type: v.type, values: v.values.slice(start, end), nulls };
    case "boolean":
      return { type: v.type, values: v.values.subarray(start, end), nulls };
    case "int32":
      return { type: v.type, values: v.values.subarray(start, end), nulls };
    case "int64":
      return { type: v.type, values: v.values.subarray(start, end), nulls };
    case "float":
      return { type: v.type, values: v.values.subarray(start, end), nulls };
    case "double":
      return { type: v.type, values: v.values.subarray(start, end), nulls };
  }
}

/** Rows `rows` (in that order) of a values object. */
export function takeValues(v: ParquetValues, rows: readonly number[]): ParquetValues {
  const nulls = v.nulls ? Uint8Array.from(rows, (i) => v.nulls![i]) : null;
  switch (v.type) {
    case "string":
      return { type: v.type, values: rows.map((i) => v.values[i]), nulls };
    case "boolean":
      return { type: v.type, values: Uint8Array.from(rows, (i) => v.values[i]), nulls };
    case "int32":
      return { type: v.type, values: Int32Array.from(rows, (i) => v.values[i]), nulls };
    case "int64":
      return { type: v.type, values: BigInt64Array.from(rows, (i) => v.values[i]), nulls };
    case "float":
      return { type: v.type, values: Float32Array.from(rows, (i) => v.values[i]), nulls };
    case "double":
      return { type: v.type, values: Float64Array.from(rows, (i) => v.values[i]), nulls };
  }
}
