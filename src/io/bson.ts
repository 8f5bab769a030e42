/**
 * BSON files (a plain concatenation of documents, as mongodump and Kaggle's Cdiscount data ship
 * them), read as a stream and written back the way pymongo's `bson.BSON.encode(bson.decode(doc))`
 * would.
 *
 * pymongo's round trip is nearly the identity, but not quite, and preparers that filter BSON
 * through it must reproduce the differences: "_id" moves to the front of a top-level document,
 * array keys are renumbered "0", "1", ..., a repeated key keeps its first position and last
 * value, `undefined` becomes null, a symbol becomes a string, a DBPointer becomes a
 * {"$ref", "$id"} document, regex flags are rewritten in "ilmsux" order (unknown ones dropped),
 * and a sub-document that looks like a DBRef is reordered "$ref", "$id", "$db" first (a null
 * "$db" dropped). Everything else keeps its exact bytes, int32 versus int64 included.
 */
import fs from "node:fs";
import { UserError } from "../core/errors.js";

/** A decoded element value: scalars keep their raw value bytes, containers are decoded. */
export type BsonValue =
  | { type: number; raw: Uint8Array }
  | { type: typeof DOC | typeof ARRAY; doc: BsonDocument }
  | { type: typeof CODE_W_SCOPE; code: Uint8Array; scope: BsonDocument };

/** A decoded document with Python dict semantics (insertion order, last value wins). */
export type BsonDocument = Map<string, BsonValue>;

const DOUBLE = 0x01;
const STRING = 0x02;
const DOC = 0x03;
const ARRAY = 0x04;
const BINARY = 0x05;
const UNDEFINED = 0x06;
const OBJECT_ID = 0x07;
const BOOL = 0x08;
const DATETIME = 0x09;
const NULL = 0x0a;
const REGEX = 0x0b;
const DB_POINTER = 0x0c;
const CODE = 0x0d;
const SYMBOL = 0x0e;
const CODE_W_SCOPE = 0x0f;
const INT32 = 0x10;
const TIMESTAMP = 0x11;
const INT64 = 0x12;
const DECIMAL128 = 0x13;
const MIN_KEY = 0xff;
const MAX_KEY = 0x7f;

/** Fixed value widths by type. */
const FIXED: Record<number, number> = {
  [DOUBLE]: 8,
  [UNDEFINED]: 0,
  [OBJECT_ID]: 12,
  [BOOL]: 1,
  [DATETIME]: 8,
  [NULL]: 0,
  [INT32]: 4,
  [TIMESTAMP]: 8,
  [INT64]: 8,
  [DECIMAL128]: 16,
  [MIN_KEY]: 0,
  [MAX_KEY]: 0,
};

// Python's datetime covers years 1 to 9999; pymongo refuses BSON dates outside it by default.
const MIN_DATETIME_MS = -62135596800000n;
const MAX_DATETIME_MS = 253402300799999n;
const REGEX_FLAG_ORDER = "ilmsux";

const utf8 = new TextDecoder("utf-8", { fatal: true });

class Decoder {
  constructor(
    private readonly buf: Uint8Array,
    private readonly where: string,
  ) {}

  fail(what: string, at: number): never {
    throw new UserError(`${this.where}: invalid BSON at byte ${at}: ${what}`);
  }

  int32(at: number): number {
    if (at + 4 > this.buf.length) this.fail("truncated length", at);
    return this.buf[at] | (this.buf[at + 1] << 8) | (this.buf[at + 2] << 16) | (this.buf[at + 3] << 24);
  }

  /** A NUL-terminated UTF-8 string starting at `at`: its text and the position after the NUL. */
  cstring(at: number, end: number): [string, number] {
    let i = at;
    while (i < end && this.buf[i] !== 0) i++;
    if (i >= end) this.fail("unterminated name or string", at);
    return [this.text(at, i), i + 1];
  }

  text(from: number, to: number): string {
    try {
      return utf8.decode(this.buf.subarray(from, to));
    } catch {
      return this.fail("text is not valid UTF-8", from);
    }
  }

  /** The document at `at` (length prefix included), and where it ends. */
  document(at: number, limit: number, isArray: boolean, depth: number): [BsonDocument, number] {
    if (depth > 100) this.fail("documents nested too deeply", at);
    const size = this.int32(at);
    if (size < 5 || at + size > limit) this.fail(`bad document length ${size}`, at);
    const end = at + size - 1;
    if (this.buf[end] !== 0) this.fail("document does not end with a NUL byte", end);
    const doc: BsonDocument = new Map();
    let pos = at + 4;
    let index = 0;
    while (pos < end) {
      const type = this.buf[pos];
      const [key, valueAt] = this.cstring(pos + 1, end);
      const [value, next] = this.value(type, valueAt, end, depth, pos);
      // Arrays are decoded as lists, whatever their keys say; pymongo renumbers them.
      doc.set(isArray ? String(index++) : key, value);
      pos = next;
    }
    if (pos !== end) this.fail("element runs past the end of its document", pos);
    return [doc, at + size];
  }

  value(type: number, at: number, end: number, depth: number, elementAt: number): [BsonValue, number] {
    const fixed = FIXED[type];
    if (fixed !== undefined) {
      if (at + fixed > end) this.fail("truncated value", at);
      const raw = this.buf.subarray(at, at + fixed);
      if (type === BOOL && raw[0] > 1) this.fail("invalid boolean value", at);
      if (type === DATETIME) this.checkDatetime(raw, at);
      return [{ type: type === UNDEFINED ? NULL : type, raw }, at + fixed];
    }
    switch (type) {
      case STRING:
      case CODE:
      case SYMBOL: {
        const next = this.stringEnd(at, end);
        return [{ type: type === SYMBOL ? STRING : type, raw: this.buf.subarray(at, next) }, next];
      }
      case DOC:
      case ARRAY: {
        const [doc, next] = this.document(at, end, type === ARRAY, depth + 1);
        return [{ type, doc: type === DOC ? asDbRef(doc) : doc }, next];
      }
      case BINARY:
        return this.binary(at, end);
      case REGEX: {
        const [pattern, flagsAt] = this.cstring(at, end);
        const [flags, next] = this.cstring(flagsAt, end);
        const kept = [...REGEX_FLAG_ORDER].filter((f) => flags.includes(f)).join("");
        return [{ type, raw: Buffer.from(`${pattern}\0${kept}\0`, "utf8") }, next];
      }
      case DB_POINTER: {
        const next = this.stringEnd(at, end);
        if (next + 12 > end) this.fail("truncated DBPointer", at);
        const ref: BsonDocument = new Map<string, BsonValue>([
          ["$ref", { type: STRING, raw: this.buf.subarray(at, next) }],
          ["$id", { type: OBJECT_ID, raw: this.buf.subarray(next, next + 12) }],
        ]);
        return [{ type: DOC, doc: ref }, next + 12];
      }
      case CODE_W_SCOPE: {
        const total = this.int32(at);
        if (total < 14 || at + total > end) this.fail(`bad code-with-scope length ${total}`, at);
        const codeEnd = this.stringEnd(at + 4, at + total);
        const [scope, next] = this.document(codeEnd, at + total, false, depth + 1);
        if (next !== at + total) this.fail("code-with-scope length disagrees with its parts", at);
        return [{ type, code: this.buf.subarray(at + 4, codeEnd), scope }, next];
      }
      default:
        return this.fail(`unknown element type 0x${type.toString(16).padStart(2, "0")}`, elementAt);
    }
  }

  /** End of a length-prefixed string value (checked for its NUL and for UTF-8). */
  stringEnd(at: number, end: number): number {
    const len = this.int32(at);
    if (len < 1 || at + 4 + len > end) this.fail(`bad string length ${len}`, at);
    if (this.buf[at + 4 + len - 1] !== 0) this.fail("string does not end with a NUL byte", at);
    this.text(at + 4, at + 4 + len - 1);
    return at + 4 + len;
  }

  binary(at: number, end: number): [BsonValue, number] {
    const len = this.int32(at);
    if (len < 0 || at + 5 + len > end) this.fail(`bad binary length ${len}`, at);
    if (this.buf[at + 4] === 2) {
      // The old binary subtype repeats the length inside; pymongo checks and strips it.
      if (len < 4 || this.int32(at + 5) !== len - 4) this.fail("old-style binary with a wrong inner length", at);
    }
    return [{ type: BINARY, raw: this.buf.subarray(at, at + 5 + len) }, at + 5 + len];
  }

  checkDatetime(raw: Uint8Array, at: number): void {
    const ms = new DataView(raw.buffer, raw.byteOffset, 8).getBigInt64(0, true);
    if (ms < MIN_DATETIME_MS || ms > MAX_DATETIME_MS) this.fail(`date ${ms} ms lies outside years 1-9999`, at);
  }
}

/** pymongo turns a sub-document shaped like a DBRef into one, which re-encodes in a fixed order. */
function asDbRef(doc: BsonDocument): BsonDocument {
  const ref = doc.get("$ref");
  const db = doc.get("$db");
  if (!ref || ref.type !== STRING || !doc.has("$id")) return doc;
  if (db && db.type !== STRING && db.type !== NULL) return doc;
  const out: BsonDocument = new Map<string, BsonValue>([
    ["$ref", ref],
    ["$id", doc.get("$id")!],
  ]);
  if (db && db.type === STRING) out.set("$db", db);
  for (const [k, v] of doc) if (k !== "$ref" && k !== "$id" && k !== "$db") out.set(k, v);
  return out;
}

/** Decode one whole document (`bytes` is exactly the document); `where` names it in errors. */
export function decodeBson(bytes: Uint8Array, where = "BSON document"): BsonDocument {
  const d = new Decoder(bytes, where);
  const [doc, end] = d.document(0, bytes.length, false, 0);
  if (end !== bytes.length) d.fail("bytes after the end of the document", end);
  return doc;
}

/** A top-level scalar as a JS value: int32/double as number, int64 as bigint, strings as text; others undefined. */
export function bsonScalar(v: BsonValue | undefined): number | bigint | string | undefined {
  if (!v || !("raw" in v)) return undefined;
  const view = new DataView(v.raw.buffer, v.raw.byteOffset, v.raw.byteLength);
  switch (v.type) {
    case INT32:
      return view.getInt32(0, true);
    case INT64:
      return view.getBigInt64(0, true);
    case DOUBLE:
      return view.getFloat64(0, true);
    case STRING:
      return Buffer.from(v.raw.subarray(4, v.raw.length - 1)).toString("utf8");
    default:
      return undefined;
  }
}

function encodedSize(doc: BsonDocument): number {
  let n = 5;
  for (const [k, v] of doc) n += 2 + Buffer.byteLength(k, "utf8") + valueSize(v);
  return n;
}

function valueSize(v: BsonValue): number {
  if ("raw" in v) return v.raw.length;
  if ("scope" in v) return 4 + v.code.length + encodedSize(v.scope);
  return encodedSize(v.doc);
}

/** Encode a document as pymongo does; a top-level one gets "_id" first. */
export function encodeBson(doc: BsonDocument, topLevel = true): Buffer {
  const out = Buffer.alloc(encodedSize(doc));
  const end = writeDocument(out, 0, doc, topLevel);
  if (end !== out.length) throw new Error("BSON size miscalculated");
  return out;
}

function writeDocument(out: Buffer, at: number, doc: BsonDocument, topLevel: boolean): number {
  const start = at;
  at += 4;
  const entries = [...doc];
  const order = topLevel && doc.has("_id") ? [entries.find(([k]) => k === "_id")!, ...entries.filter(([k]) => k !== "_id")] : entries;
  for (const [key, v] of order) {
    if (key.includes("\0")) throw new UserError(`BSON key ${JSON.stringify(key)} contains a NUL character`);
    out[at++] = v.type;
    at += out.write(key, at, "utf8");
    out[at++] = 0;
    if ("raw" in v) at += Buffer.from(v.raw.buffer, v.raw.byteOffset, v.raw.byteLength).copy(out, at);
    else if ("scope" in v) {
      const total = valueSize(v);
      out.writeInt32LE(total, at);
      at += 4;
      at += Buffer.from(v.code.buffer, v.code.byteOffset, v.code.byteLength).copy(out, at);
      at = writeDocument(out, at, v.scope, false);
    } else at = writeDocument(out, at, v.doc, false);
  }
  out[at++] = 0;
  out.writeInt32LE(at - start, start);
  return at;
}

/**
 * The documents of a BSON file one at a time, read in large chunks. Each yielded array is only
 * valid until the next one is requested.
 */
export function* readBsonFile(file: string, chunkBytes = 16 << 20): Generator<Uint8Array, void, undefined> {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new UserError(`${file} does not exist`);
    throw e;
  }
  try {
    let buf = Buffer.alloc(chunkBytes);
    let start = 0;
    let end = 0;
    let offset = 0;
    let eof = false;
    const fill = (need: number): void => {
      if (start > 0) {
        buf.copy(buf, 0, start, end);
        end -= start;
        start = 0;
      }
      if (need > buf.length) {
        const bigger = Buffer.alloc(Math.max(need, buf.length * 2));
        buf.copy(bigger, 0, 0, end);
        buf = bigger;
      }
      while (!eof && end < need) {
        const n = fs.readSync(fd, buf, end, buf.length - end, null);
        if (n === 0) eof = true;
        end += n;
      }
    };
    for (;;) {
      if (end - start < 4) fill(4);
      if (end === start) return;
      if (end - start < 4) throw new UserError(`${file}: file ends in the middle of a document length at byte ${offset}`);
      const size = buf.readInt32LE(start);
      if (size < 5) throw new UserError(`${file}: invalid BSON document length ${size} at byte ${offset}`);
      if (end - start < size) fill(size);
      if (end - start < size) throw new UserError(`${file}: file ends in the middle of the document at byte ${offset}`);
      yield buf.subarray(start, start + size);
      start += size;
      offset += size;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Appends BSON documents to a file through a large buffer. */
export class BsonFileWriter {
  private readonly fd: number;
  private readonly buf: Buffer;
  private used = 0;

  constructor(file: string, bufferBytes = 8 << 20) {
    this.fd = fs.openSync(file, "w");
    this.buf = Buffer.alloc(bufferBytes);
  }

  /** Append one encoded document. */
  write(doc: Uint8Array): void {
    if (this.used + doc.length > this.buf.length) this.flush();
    if (doc.length > this.buf.length) {
      writeAll(this.fd, doc);
      return;
    }
    this.buf.set(doc, this.used);
    this.used += doc.length;
  }

  private flush(): void {
    writeAll(this.fd, this.buf.subarray(0, this.used));
    this.used = 0;
  }

  /** Flush and close the file. */
  close(): void {
    try {
      this.flush();
    } finally {
      fs.closeSync(this.fd);
    }
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done);
}
