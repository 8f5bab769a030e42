/**
 * A small Parquet reader and writer for flat tables of numbers, booleans and text.
 *
 * The reader takes what pyarrow, fastparquet and Spark write by default: data pages v1 and v2,
 * PLAIN and dictionary encodings, optional (nullable) columns, and Snappy, gzip or Brotli
 * compression (zstd too where the Node runtime has it). It reads one row group at a time so a
 * multi-gigabyte file never has to fit in memory.
 *
 * The writer produces one fixed layout, chosen to be easy to reproduce elsewhere: required
 * columns, PLAIN encoding, no compression, one data page per column chunk, and a new row group
 * every `rowGroupRows` rows. Its bytes are not those of fastparquet or pyarrow (which compress and
 * add library-specific metadata), but every Parquet reader gets the same table back.
 */
import fs from "node:fs";
import os from "node:os";
import zlib from "node:zlib";
import { UserError } from "../core/errors.js";
import { snappyDecompress } from "./snappy.js";
import { ThriftReader, ThriftWriter, type ThriftOut, type ThriftStruct, type ThriftValue } from "./thrift-compact.js";

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

// Parquet's physical type codes.
const PT = { BOOLEAN: 0, INT32: 1, INT64: 2, INT96: 3, FLOAT: 4, DOUBLE: 5, BYTE_ARRAY: 6, FIXED: 7 } as const;
const PHYSICAL: Record<ParquetType, number> = { boolean: PT.BOOLEAN, int32: PT.INT32, int64: PT.INT64, float: PT.FLOAT, double: PT.DOUBLE, string: PT.BYTE_ARRAY };
const ENC = { PLAIN: 0, PLAIN_DICTIONARY: 2, RLE: 3, RLE_DICTIONARY: 8 } as const;
const PAGE = { DATA: 0, INDEX: 1, DICTIONARY: 2, DATA_V2: 3 } as const;
const CODEC_NAMES = ["UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"];
const UTF8 = 0; // converted_type
const MAGIC = Buffer.from("PAR1", "ascii");

// ---------------------------------------------------------------------------------------------
// Thrift field access.

function field(s: ThriftStruct, id: number): ThriftValue | undefined {
  return s.get(id);
}

function num(s: ThriftStruct, id: number, where: string): number {
  const v = s.get(id);
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  throw new UserError(`${where}: Parquet metadata lacks field ${id}`);
}

function optNum(s: ThriftStruct, id: number): number | undefined {
  const v = s.get(id);
  return typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : undefined;
}

function struct(v: ThriftValue | undefined): ThriftStruct | undefined {
  return v instanceof Map ? v : undefined;
}

function text(v: ThriftValue | undefined): string | undefined {
  return v instanceof Uint8Array ? Buffer.from(v).toString("utf8") : undefined;
}

// ---------------------------------------------------------------------------------------------
// Reading.

interface ChunkMeta {
  codec: number;
  numValues: number;
  start: number;
  length: number;
}

interface LeafColumn extends ParquetField {
  physical: number;
  index: number;
}

/** A Parquet file opened for reading row group by row group. */
export class ParquetReader {
  /** Every column, index columns of pandas metadata included. */
  readonly fields: ParquetField[];
  /** Columns pandas stored its index in (they are not data columns). */
  readonly indexColumns: string[];
  readonly numRows: number;
  private readonly leaves: LeafColumn[];
  private readonly rowGroups: ThriftStruct[];

  private constructor(
    private readonly fd: number,
    private readonly file: string,
    meta: ThriftStruct,
  ) {
    this.leaves = readSchema(meta, file);
    this.fields = this.leaves.map(({ name, type, optional }) => ({ name, type, optional }));
    this.numRows = num(meta, 3, file);
    const groups = field(meta, 4);
    this.rowGroups = Array.isArray(groups) ? groups.map((g) => struct(g)!).filter(Boolean) : [];
    this.indexColumns = pandasIndexColumns(meta);
  }

  /** Open `file` and read its footer. */
  static open(file: string): ParquetReader {
    let fd: number;
    try {
      fd = fs.openSync(file, "r");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new UserError(`${file} does not exist`);
      throw e;
    }
    try {
      const size = fs.fstatSync(fd).size;
      const notParquet = (): never => {
        throw new UserError(`${file} is not a Parquet file (no PAR1 marks)`);
      };
      if (size < 12) notParquet();
      const head = readAt(fd, 0, 4);
      const tail = readAt(fd, size - 8, 8);
      if (!Buffer.from(head).equals(MAGIC) || !Buffer.from(tail.subarray(4)).equals(MAGIC)) notParquet();
      const footerLen = new DataView(tail.buffer, tail.byteOffset).getUint32(0, true);
      if (footerLen > size - 12) throw new UserError(`${file}: Parquet footer length ${footerLen} exceeds the file`);
      const footer = readAt(fd, size - 8 - footerLen, footerLen);
      const meta = decodeThrift(() => new ThriftReader(footer, 0, `${file} footer`).struct(), file);
      return new ParquetReader(fd, file, meta);
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
  }

  /** How many row groups the file holds. */
  get rowGroupCount(): number {
    return this.rowGroups.length;
  }

  /** Rows in row group `i`. */
  rowGroupRows(i: number): number {
    return num(this.rowGroups[i], 3, `${this.file} row group ${i}`);
  }

  /** The named columns (all when omitted) of row group `i`. */
  readRowGroup(i: number, names?: readonly string[]): Map<string, ParquetValues> {
    const group = this.rowGroups[i];
    const where = `${this.file} row group ${i}`;
    const rows = this.rowGroupRows(i);
    const chunks = field(group, 1);
    if (!Array.isArray(chunks) || chunks.length !== this.leaves.length) throw new UserError(`${where}: column chunks do not match the schema`);
    const out = new Map<string, ParquetValues>();
    for (const leaf of this.leaves) {
      if (names && !names.includes(leaf.name)) continue;
      const meta = chunkMeta(struct(chunks[leaf.index]), `${where} column ${leaf.name}`);
      const bytes = readAt(this.fd, meta.start, meta.length);
      out.set(leaf.name, decodeChunk(bytes, leaf, meta, rows, `${where} column "${leaf.name}"`));
    }
    for (const n of names ?? []) if (!out.has(n)) throw new UserError(`${this.file}: no column "${n}" (columns: ${this.leaves.map((l) => l.name).join(", ")})`);
    return out;
  }

  /** Release the file. */
  close(): void {
    fs.closeSync(this.fd);
  }
}

function decodeThrift<T>(f: () => T, file: string): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`${file}: corrupt Parquet metadata (${(e as Error).message})`);
  }
}

function readAt(fd: number, offset: number, length: number): Uint8Array {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buf, got, length - got, offset + got);
    if (n === 0) throw new UserError(`unexpected end of Parquet file at byte ${offset + got}`);
    got += n;
  }
  return buf;
}

/** The flat schema: every leaf a direct child of the root, required or optional. */
function readSchema(meta: ThriftStruct, file: string): LeafColumn[] {
  const schema = field(meta, 2);
  if (!Array.isArray(schema) || schema.length === 0) throw new UserError(`${file}: Parquet footer has no schema`);
  const elems = schema.map((e) => struct(e)!);
  const root = elems[0];
  const children = optNum(root, 5) ?? 0;
  if (children !== elems.length - 1) throw new UserError(`${file}: nested Parquet schemas are not supported (only flat tables)`);
  return elems.slice(1).map((e, index) => {
    const name = text(field(e, 4)) ?? `column ${index}`;
    const where = `${file}: column "${name}"`;
    if (optNum(e, 5)) throw new UserError(`${where} is a nested group; only flat tables are supported`);
    const repetition = optNum(e, 3) ?? 0;
    if (repetition === 2) throw new UserError(`${where} is a repeated (list) column; only flat tables are supported`);
    const physical = num(e, 1, where);
    return { name, physical, index, optional: repetition === 1, type: valueType(e, physical, where) };
  });
}

/** Map a physical type (and its annotation) to the dtype pandas would give; refuse what we cannot carry over faithfully. */
function valueType(e: ThriftStruct, physical: number, where: string): ParquetType {
  const converted = optNum(e, 6);
  const logical = struct(field(e, 10));
  if (physical === PT.BYTE_ARRAY) {
    if (converted === UTF8 || (logical && logical.has(1))) return "string";
    throw new UserError(`${where} holds raw bytes; only UTF-8 text columns are supported`);
  }
  const plainInt = logical && logical.has(10) && !converted;
  if ((converted !== undefined || logical) && !plainInt) {
    throw new UserError(`${where} carries a logical type (converted_type ${converted ?? "none"}); only plain numbers, booleans and text are supported`);
  }
  if (plainInt) {
    const int = struct(logical!.get(10))!;
    const bits = optNum(int, 1);
    const signed = int.get(2);
    const width = physical === PT.INT64 ? 64 : 32;
    if (bits !== width || signed !== true) throw new UserError(`${where} is a ${bits}-bit ${signed ? "signed" : "unsigned"} integer; only plain int32/int64 are supported`);
  }
  switch (physical) {
    case PT.BOOLEAN:
      return "boolean";
    case PT.INT32:
      return "int32";
    case PT.INT64:
      return "int64";
    case PT.FLOAT:
      return "float";
    case PT.DOUBLE:
      return "double";
    default:
      throw new UserError(`${where} has Parquet physical type ${physical}, which is not supported`);
  }
}

/** Names pandas recorded as index columns in its "pandas" key-value metadata. */
function pandasIndexColumns(meta: ThriftStruct): string[] {
  const kv = field(meta, 5);
  if (!Array.isArray(kv)) return [];
  for (const item of kv) {
    const s = struct(item);
    if (!s || text(s.get(1)) !== "pandas") continue;
    try {
      const parsed = JSON.parse(text(s.get(2)) ?? "{}") as { index_columns?: unknown[] };
      return (parsed.index_columns ?? []).filter((c): c is string => typeof c === "string");
    } catch {
      return [];
    }
  }
  return [];
}

function chunkMeta(chunk: ThriftStruct | undefined, where: string): ChunkMeta {
  const m = chunk && struct(chunk.get(3));
  if (!m) throw new UserError(`${where}: column chunk metadata is missing (external column files are not supported)`);
  const dataOffset = num(m, 9, where);
  const dictOffset = optNum(m, 11);
  // Some writers put 0 here for "no dictionary"; a real dictionary page always precedes the data.
  const start = dictOffset !== undefined && dictOffset > 0 && dictOffset < dataOffset ? dictOffset : dataOffset;
  return { codec: num(m, 4, where), numValues: num(m, 5, where), start, length: num(m, 7, where) };
}

function decompress(codec: number, data: Uint8Array, size: number, where: string): Uint8Array {
  let out: Uint8Array;
  try {
    switch (codec) {
      case 0:
        return data;
      case 1:
        out = snappyDecompress(data, where);
        break;
      case 2:
        out = zlib.gunzipSync(data);
        break;
      case 4:
        out = zlib.brotliDecompressSync(data);
        break;
      case 6: {
        const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Uint8Array) => Uint8Array }).zstdDecompressSync;
        if (!zstd) throw new UserError(`${where}: zstd-compressed Parquet needs a Node.js with zlib.zstdDecompressSync (22.15 or later)`);
        out = zstd(data);
        break;
      }
      default:
        throw new UserError(`${where}: ${CODEC_NAMES[codec] ?? `codec ${codec}`} compression is not supported`);
    }
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`${where}: cannot decompress a page (${(e as Error).message})`);
  }
  if (out.length !== size) throw new UserError(`${where}: page decompressed to ${out.length} bytes, header says ${size}`);
  return out;
}

/** Growing output for one column chunk. */
class Sink {
  filled = 0;
  readonly nulls: Uint8Array;
  readonly values: ParquetValues;
  anyNull = false;

  constructor(type: ParquetType, rows: number) {
    this.nulls = new Uint8Array(rows);
    this.values = emptyValues(type, rows);
  }
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

function decodeChunk(bytes: Uint8Array, leaf: LeafColumn, meta: ChunkMeta, rows: number, where: string): ParquetValues {
  if (meta.numValues !== rows) throw new UserError(`${where}: ${meta.numValues} values for ${rows} rows`);
  const sink = new Sink(leaf.type, rows);
  let dictionary: ParquetValues | null = null;
  let pos = 0;
  while (sink.filled < rows) {
    if (pos >= bytes.length) throw new UserError(`${where}: column chunk ends after ${sink.filled} of ${rows} values`);
    const reader = new ThriftReader(bytes, pos, where);
    const header = decodeThrift(() => reader.struct(), where);
    const size = num(header, 3, where);
    const rawSize = num(header, 2, where);
    const body = bytes.subarray(reader.pos, reader.pos + size);
    if (body.length !== size) throw new UserError(`${where}: page runs past the column chunk`);
    pos = reader.pos + size;
    const type = num(header, 1, where);
    if (type === PAGE.DICTIONARY) {
      const h = struct(header.get(7));
      if (!h) throw new UserError(`${where}: dictionary page without its header`);
      const n = num(h, 1, where);
      const data = decompress(meta.codec, body, rawSize, where);
      dictionary = emptyValues(leaf.type, n);
      decodePlain(data, 0, dictionary, 0, n, leaf.physical, where);
    } else if (type === PAGE.DATA) {
      readPageV1(header, decompress(meta.codec, body, rawSize, where), leaf, dictionary, sink, where);
    } else if (type === PAGE.DATA_V2) {
      readPageV2(header, body, rawSize, meta.codec, leaf, dictionary, sink, where);
    } else if (type !== PAGE.INDEX) {
      throw new UserError(`${where}: unknown page type ${type}`);
    }
  }
  return sink.anyNull ? { ...sink.values, nulls: sink.nulls } as ParquetValues : sink.values;
}

function readPageV1(header: ThriftStruct, data: Uint8Array, leaf: LeafColumn, dict: ParquetValues | null, sink: Sink, where: string): void {
  const h = struct(header.get(5));
  if (!h) throw new UserError(`${where}: data page without its header`);
  const n = num(h, 1, where);
  let pos = 0;
  let defs: Uint32Array | null = null;
  if (leaf.optional) {
    if (pos + 4 > data.length) throw new UserError(`${where}: truncated definition levels`);
    const len = new DataView(data.buffer, data.byteOffset + pos).getUint32(0, true);
    defs = decodeHybrid(data.subarray(pos + 4, pos + 4 + len), 1, n, where);
    pos += 4 + len;
  }
  readValues(data, pos, num(h, 2, where), n, defs, leaf, dict, sink, where);
}

function readPageV2(header: ThriftStruct, body: Uint8Array, rawSize: number, codec: number, leaf: LeafColumn, dict: ParquetValues | null, sink: Sink, where: string): void {
  const h = struct(header.get(8));
  if (!h) throw new UserError(`${where}: data page v2 without its header`);
  const n = num(h, 1, where);
  const defLen = num(h, 5, where);
  const repLen = num(h, 6, where);
  if (repLen !== 0) throw new UserError(`${where}: repetition levels in a flat column`);
  const defs = leaf.optional ? decodeHybrid(body.subarray(0, defLen), 1, n, where) : null;
  const compressed = h.get(7) !== false;
  const rest = body.subarray(defLen + repLen);
  const values = compressed ? decompress(codec, rest, rawSize - defLen - repLen, where) : rest;
  readValues(values, 0, num(h, 4, where), n, defs, leaf, dict, sink, where);
}

/** Scatter one page's non-null values into the sink, nulls where the definition level is 0. */
function readValues(data: Uint8Array, pos: number, encoding: number, n: number, defs: Uint32Array | null, leaf: LeafColumn, dict: ParquetValues | null, sink: Sink, where: string): void {
  if (sink.filled + n > sink.nulls.length) throw new UserError(`${where}: pages hold more values than the row group has rows`);
  let present = n;
  if (defs) {
    present = 0;
    for (let i = 0; i < n; i++) present += defs[i];
  }
  if (present === n) {
    // No gaps: decode straight into place.
    decodeInto(data, pos, encoding, sink.values, sink.filled, n, leaf, dict, where);
    sink.filled += n;
    return;
  }
  const dense = emptyValues(leaf.type, present);
  decodeInto(data, pos, encoding, dense, 0, present, leaf, dict, where);
  const out = sink.values.values as unknown as unknown[];
  const src = dense.values as unknown as unknown[];
  let k = 0;
  for (let i = 0; i < n; i++) {
    const at = sink.filled + i;
    if (defs && defs[i] === 0) {
      sink.nulls[at] = 1;
      sink.anyNull = true;
    } else out[at] = src[k++];
  }
  sink.filled += n;
}

function decodeInto(data: Uint8Array, pos: number, encoding: number, into: ParquetValues, at: number, n: number, leaf: LeafColumn, dict: ParquetValues | null, where: string): void {
  if (encoding === ENC.PLAIN) return decodePlain(data, pos, into, at, n, leaf.physical, where);
  if (encoding !== ENC.PLAIN_DICTIONARY && encoding !== ENC.RLE_DICTIONARY) {
    throw new UserError(`${where}: page encoding ${encoding} is not supported (only PLAIN and dictionary)`);
  }
  if (!dict) throw new UserError(`${where}: dictionary-encoded page before any dictionary page`);
  const idx = decodeHybrid(data.subarray(pos + 1), data[pos], n, where);
  const size = dict.values.length;
  const out = into.values as unknown as unknown[];
  const src = dict.values as unknown as unknown[];
  for (let i = 0; i < n; i++) {
    if (idx[i] >= size) throw new UserError(`${where}: dictionary index ${idx[i]} out of range (${size} entries)`);
    out[at + i] = src[idx[i]];
  }
}

const LITTLE_ENDIAN = os.endianness() === "LE";

/** PLAIN-encoded values: little-endian fixed width, bit-packed booleans, length-prefixed text. */
function decodePlain(data: Uint8Array, pos: number, into: ParquetValues, at: number, n: number, physical: number, where: string): void {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const width = { [PT.INT32]: 4, [PT.INT64]: 8, [PT.FLOAT]: 4, [PT.DOUBLE]: 8 }[physical as 1 | 2 | 4 | 5];
  if (width !== undefined && pos + n * width > data.length) throw new UserError(`${where}: page holds fewer values than it claims`);
  if (width !== undefined && LITTLE_ENDIAN && into.type !== "boolean" && into.type !== "string") {
    // Same byte order as Parquet: one copy into the typed array's memory.
    new Uint8Array(into.values.buffer, into.values.byteOffset + at * width, n * width).set(data.subarray(pos, pos + n * width));
    return;
  }
  switch (into.type) {
    case "int32":
      for (let i = 0; i < n; i++) into.values[at + i] = view.getInt32(pos + 4 * i, true);
      return;
    case "int64":
      for (let i = 0; i < n; i++) into.values[at + i] = view.getBigInt64(pos + 8 * i, true);
      return;
    case "float":
      for (let i = 0; i < n; i++) into.values[at + i] = view.getFloat32(pos + 4 * i, true);
      return;
    case "double":
      for (let i = 0; i < n; i++) into.values[at + i] = view.getFloat64(pos + 8 * i, true);
      return;
    case "boolean":
      if (pos + Math.ceil(n / 8) > data.length) throw new UserError(`${where}: page holds fewer values than it claims`);
      for (let i = 0; i < n; i++) into.values[at + i] = (data[pos + (i >>> 3)] >>> (i & 7)) & 1;
      return;
    case "string": {
      const decoder = new TextDecoder("utf-8", { fatal: true });
      for (let i = 0; i < n; i++) {
        if (pos + 4 > data.length) throw new UserError(`${where}: page holds fewer values than it claims`);
        const len = view.getUint32(pos, true);
        if (pos + 4 + len > data.length) throw new UserError(`${where}: text value runs past the page`);
        try {
          into.values[at + i] = decoder.decode(data.subarray(pos + 4, pos + 4 + len));
        } catch {
          throw new UserError(`${where}: a text value is not valid UTF-8`);
        }
        pos += 4 + len;
      }
      return;
    }
  }
}

/** Parquet's RLE / bit-packing hybrid: `count` values of `width` bits. */
export function decodeHybrid(data: Uint8Array, width: number, count: number, where = "RLE data"): Uint32Array {
  if (width > 32) throw new UserError(`${where}: bit width ${width} is too large`);
  const out = new Uint32Array(count);
  const bytesPerValue = Math.ceil(width / 8);
  let pos = 0;
  let filled = 0;
  while (filled < count) {
    let header = 0;
    for (let shift = 0; ; shift += 7) {
      if (pos >= data.length) throw new UserError(`${where}: levels or indices end early`);
      const b = data[pos++];
      header += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
    }
    if (header % 2 === 1) {
      // Bit-packed: groups of 8 values, least significant bit first.
      const groups = Math.floor(header / 2);
      // Some writers leave off the padding of the last group, so only the bytes needed must be there.
      const needed = Math.ceil((Math.min(groups * 8, count - filled) * width) / 8);
      if (pos + needed > data.length) throw new UserError(`${where}: bit-packed run ends early`);
      filled = unpackBits(data, pos, width, groups * 8, out, filled, count);
      pos += groups * width;
    } else {
      const run = Math.floor(header / 2);
      let v = 0;
      for (let b = 0; b < bytesPerValue; b++) v += data[pos + b] * 2 ** (8 * b);
      pos += bytesPerValue;
      for (let i = 0; i < run && filled < count; i++) out[filled++] = v;
    }
  }
  return out;
}

/** Unpack `values` little-endian bit fields of `width` bits from `data[pos..]` into `out` from `filled`, stopping at `count`. */
function unpackBits(data: Uint8Array, pos: number, width: number, values: number, out: Uint32Array, filled: number, count: number): number {
  const stop = Math.min(count, filled + values);
  if (width <= 24) {
    // An accumulator of at most 31 live bits keeps every step in 32-bit integer arithmetic.
    const mask = width === 0 ? 0 : 0xffffffff >>> (32 - width);
    let acc = 0;
    let bits = 0;
    while (filled < stop) {
      while (bits < width) {
        acc |= data[pos++] << bits;
        bits += 8;
      }
      out[filled++] = (acc & mask) >>> 0;
      acc >>>= width;
      bits -= width;
    }
    return filled;
  }
  let bit = pos * 8;
  while (filled < stop) {
    let v = 0;
    for (let b = 0; b < width; b++, bit++) if ((data[bit >>> 3] >>> (bit & 7)) & 1) v += 2 ** b;
    out[filled++] = v;
  }
  return filled;
}

// ---------------------------------------------------------------------------------------------
// Writing.

/** Rows per row group in our output: pyarrow's default, small enough to buffer. */
export const DEFAULT_ROW_GROUP_ROWS = 1 << 20;

interface PendingColumn {
  field: ParquetField;
  parts: ParquetValues[];
}

interface WrittenChunk {
  field: ParquetField;
  offset: number;
  size: number;
  rows: number;
}

/**
 * Writes a Parquet file in our fixed layout, streaming: rows are appended in batches and flushed
 * as row groups of exactly `rowGroupRows` rows (the last one shorter).
 */
export class ParquetWriter {
  private readonly fd: number;
  private offset = 0;
  private readonly pending: PendingColumn[];
  private pendingRows = 0;
  private readonly groups: { rows: number; chunks: WrittenChunk[] }[] = [];
  private totalRows = 0;

  constructor(
    private readonly file: string,
    readonly fields: ParquetField[],
    private readonly rowGroupRows = DEFAULT_ROW_GROUP_ROWS,
  ) {
    for (const f of fields) if (f.optional) throw new Error(`ParquetWriter writes required columns only ("${f.name}" is optional)`);
    this.fd = fs.openSync(file, "w");
    this.pending = fields.map((field) => ({ field, parts: [] }));
    this.write(MAGIC);
  }

  private write(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.length) done += fs.writeSync(this.fd, bytes, done, bytes.length - done);
    this.offset += bytes.length;
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
      columns.forEach((c, k) => this.pending[k].parts.push(sliceValues(c, start, start + take)));
      this.pendingRows += take;
      start += take;
      if (this.pendingRows === this.rowGroupRows) this.flush();
    }
  }

  private flush(): void {
    if (this.pendingRows === 0) return;
    const chunks: WrittenChunk[] = [];
    for (const p of this.pending) {
      const values = encodePlain(p.field.type, p.parts, this.pendingRows);
      const header = new ThriftWriter()
        .struct([
          [1, { t: "i32", v: PAGE.DATA }],
          [2, { t: "i32", v: values.length }],
          [3, { t: "i32", v: values.length }],
          [
            5,
            {
              t: "struct",
              v: [
                [1, { t: "i32", v: this.pendingRows }],
                [2, { t: "i32", v: ENC.PLAIN }],
                [3, { t: "i32", v: ENC.RLE }],
                [4, { t: "i32", v: ENC.RLE }],
              ],
            },
          ],
        ])
        .bytes();
      const offset = this.offset;
      this.write(header);
      this.write(values);
      chunks.push({ field: p.field, offset, size: header.length + values.length, rows: this.pendingRows });
      p.parts = [];
    }
    this.groups.push({ rows: this.pendingRows, chunks });
    this.totalRows += this.pendingRows;
    this.pendingRows = 0;
  }

  /** Flush the last row group, write the footer and close the file. */
  close(): void {
    try {
      this.flush();
      const footer = new ThriftWriter().struct(fileMetadata(this.fields, this.groups, this.totalRows)).bytes();
      this.write(footer);
      const len = Buffer.alloc(4);
      len.writeUInt32LE(footer.length);
      this.write(len);
      this.write(MAGIC);
    } finally {
      fs.closeSync(this.fd);
    }
  }
}

function fileMetadata(fields: ParquetField[], groups: { rows: number; chunks: WrittenChunk[] }[], totalRows: number): [number, ThriftOut][] {
  const schema: ThriftOut[] = [
    { t: "struct", v: [[4, { t: "binary", v: "schema" }], [5, { t: "i32", v: fields.length }]] },
    ...fields.map((f): ThriftOut => {
      const elem: [number, ThriftOut][] = [
        [1, { t: "i32", v: PHYSICAL[f.type] }],
        [3, { t: "i32", v: 0 }],
        [4, { t: "binary", v: f.name }],
      ];
      if (f.type === "string") elem.push([6, { t: "i32", v: UTF8 }]);
      return { t: "struct", v: elem };
    }),
  ];
  const rowGroups = groups.map((g): ThriftOut => {
    const columns = g.chunks.map((c): ThriftOut => ({
      t: "struct",
      v: [
        [2, { t: "i64", v: c.offset }],
        [
          3,
          {
            t: "struct",
            v: [
              [1, { t: "i32", v: PHYSICAL[c.field.type] }],
              [2, { t: "list", elem: "i32", v: [{ t: "i32", v: ENC.PLAIN }] }],
              [3, { t: "list", elem: "binary", v: [{ t: "binary", v: c.field.name }] }],
              [4, { t: "i32", v: 0 }],
              [5, { t: "i64", v: c.rows }],
              [6, { t: "i64", v: c.size }],
              [7, { t: "i64", v: c.size }],
              [9, { t: "i64", v: c.offset }],
            ],
          },
        ],
      ],
    }));
    const bytes = g.chunks.reduce((s, c) => s + c.size, 0);
    return {
      t: "struct",
      v: [
        [1, { t: "list", elem: "struct", v: columns }],
        [2, { t: "i64", v: bytes }],
        [3, { t: "i64", v: g.rows }],
      ],
    };
  });
  return [
    [1, { t: "i32", v: 1 }],
    [2, { t: "list", elem: "struct", v: schema }],
    [3, { t: "i64", v: totalRows }],
    [4, { t: "list", elem: "struct", v: rowGroups }],
    [6, { t: "binary", v: "mlebench-ts" }],
  ];
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

function encodePlain(type: ParquetType, parts: ParquetValues[], rows: number): Uint8Array {
  if (type === "string") {
    const pieces: Buffer[] = [];
    for (const p of parts) {
      for (const s of p.values as string[]) {
        const b = Buffer.from(s, "utf8");
        const len = Buffer.alloc(4);
        len.writeUInt32LE(b.length);
        pieces.push(len, b);
      }
    }
    return Buffer.concat(pieces);
  }
  if (type === "boolean") {
    const out = new Uint8Array(Math.ceil(rows / 8));
    let i = 0;
    for (const p of parts) for (const b of p.values as Uint8Array) out[i >>> 3] |= (b & 1) << (i++ & 7);
    return out;
  }
  const width = type === "int32" || type === "float" ? 4 : 8;
  const out = new Uint8Array(rows * width);
  if (LITTLE_ENDIAN) {
    let at = 0;
    for (const p of parts) {
      const v = p.values as Int32Array | BigInt64Array | Float32Array | Float64Array;
      out.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), at);
      at += v.byteLength;
    }
    return out;
  }
  const view = new DataView(out.buffer);
  let at = 0;
  for (const p of parts) {
    for (let i = 0; i < p.values.length; i++, at += width) {
      if (type === "int32") view.setInt32(at, (p.values as Int32Array)[i], true);
      else if (type === "int64") view.setBigInt64(at, (p.values as BigInt64Array)[i], true);
      else if (type === "float") view.setFloat32(at, (p.values as Float32Array)[i], true);
      else view.setFloat64(at, (p.values as Float64Array)[i], true);
    }
  }
  return out;
}
