/**
 * TFRecord files and the `tf.train.Example` messages inside them, read without TensorFlow.
 *
 * A TFRecord file is a sequence of records, each: uint64 length (little-endian), uint32 masked
 * CRC-32C of those 8 bytes, the data, uint32 masked CRC-32C of the data. Both checksums are
 * verified, as TensorFlow's reader does, and a partial record is an error rather than the end.
 *
 * The protobuf decoding covers what reading one bytes feature of an Example needs, with the
 * wire format's merge rules: a repeated singular message field merges (so its payloads are
 * parsed as one concatenated message), a later map entry for the same key replaces the earlier
 * one, and of Feature's oneof (bytes_list = 1, float_list = 2, int64_list = 3) the last kind seen
 * wins. Unknown fields are skipped, except inside a map entry, where (as in upb, the backend
 * TensorFlow's protobuf uses) they take the whole entry out of the map.
 */
import fs from "node:fs";
import { UserError } from "../core/errors.js";

const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32C (Castagnoli) of `data`. */
export function crc32c(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC32C_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** TFRecord's masked checksum: the CRC rotated right by 15 bits plus a constant, so CRCs of CRCs stay well spread. */
export function maskedCrc32c(data: Uint8Array): number {
  const c = crc32c(data);
  return ((((c >>> 15) | (c << 17)) >>> 0) + 0xa282ead8) >>> 0;
}

/** Read exactly `len` bytes at `pos`, or fewer if the file ends first. */
function readAt(fd: number, pos: number, len: number): Buffer {
  const buf = Buffer.alloc(len);
  let got = 0;
  while (got < len) {
    const n = fs.readSync(fd, buf, got, len - got, pos + got);
    if (n === 0) break;
    got += n;
  }
  return got === len ? buf : buf.subarray(0, got);
}

/** The records of a TFRecord file, one at a time, checksums verified. */
export function* readTfRecords(path: string): Generator<Buffer, void, undefined> {
  if (!fs.existsSync(path)) throw new UserError(`${path} is missing`);
  const fd = fs.openSync(path, "r");
  try {
    const size = fs.fstatSync(fd).size;
    let pos = 0;
    for (let index = 0; pos < size; index++) {
      const header = readAt(fd, pos, 12);
      if (header.length < 12) throw new UserError(`${path}: truncated record ${index} at byte ${pos} (incomplete header)`);
      if (header.readUInt32LE(8) !== maskedCrc32c(header.subarray(0, 8))) {
        throw new UserError(`${path}: corrupted record ${index} at byte ${pos} (length checksum mismatch)`);
      }
      const length = header.readBigUInt64LE(0);
      if (length > BigInt(size - pos - 16)) throw new UserError(`${path}: truncated record ${index} at byte ${pos} (needs ${length} bytes of data)`);
      const n = Number(length);
      const body = readAt(fd, pos + 12, n + 4);
      const data = body.subarray(0, n);
      if (body.readUInt32LE(n) !== maskedCrc32c(data)) {
        throw new UserError(`${path}: corrupted record ${index} at byte ${pos} (data checksum mismatch)`);
      }
      yield data;
      pos += 16 + n;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** One field of a protobuf message: its number, wire type, and payload (length-delimited fields only, else null). */
interface Field {
  num: number;
  wire: number;
  payload: Uint8Array | null;
}

class ProtoError extends Error {}

/** Read a base-128 varint at `pos`; returns its value (exact up to 2^53) and the next position. */
function varint(buf: Uint8Array, pos: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= buf.length) throw new ProtoError("truncated varint");
    const b = buf[pos++];
    value += (b & 0x7f) * scale;
    scale *= 128;
    if ((b & 0x80) === 0) return [value, pos];
  }
  throw new ProtoError("varint longer than 10 bytes");
}

/** The fields of a serialized message, in wire order. */
function* fields(buf: Uint8Array): Generator<Field> {
  let pos = 0;
  while (pos < buf.length) {
    const [tag, next] = varint(buf, pos);
    pos = next;
    const num = Math.floor(tag / 8);
    const wire = tag % 8;
    if (num === 0) throw new ProtoError("field number 0");
    if (wire === 0) {
      pos = varint(buf, pos)[1];
      yield { num, wire, payload: null };
    } else if (wire === 1 || wire === 5) {
      pos += wire === 1 ? 8 : 4;
      if (pos > buf.length) throw new ProtoError("truncated fixed-width field");
      yield { num, wire, payload: null };
    } else if (wire === 2) {
      const [len, start] = varint(buf, pos);
      if (start + len > buf.length) throw new ProtoError("truncated length-delimited field");
      pos = start + len;
      yield { num, wire, payload: buf.subarray(start, pos) };
    } else {
      throw new ProtoError(`unsupported wire type ${wire}`);
    }
  }
}

/** The length-delimited payloads of field `num`, concatenated: how protobuf merges a repeated singular message field. */
function merged(buf: Uint8Array, num: number): Uint8Array | null {
  const parts: Uint8Array[] = [];
  for (const f of fields(buf)) if (f.num === num && f.payload) parts.push(f.payload);
  return parts.length === 0 ? null : Buffer.concat(parts);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The values of a Feature's bytes_list, or null if the Feature holds another kind (or none). */
function bytesListValues(feature: Uint8Array): Uint8Array[] | null {
  let values: Uint8Array[] | null = null;
  for (const f of fields(feature)) {
    if (f.num === 1 && f.payload) {
      values ??= [];
      for (const v of fields(f.payload)) if (v.num === 1 && v.payload) values.push(v.payload);
    } else if ((f.num === 2 || f.num === 3) && f.payload) {
      // float_list or int64_list: the oneof switches kind, dropping any bytes_list before it.
      values = null;
    }
  }
  return values;
}

/** Whether a map entry holds a field other than a length-delimited key (1) or value (2). */
function hasUnknownField(entry: Uint8Array): boolean {
  for (const f of fields(entry)) if ((f.num !== 1 && f.num !== 2) || !f.payload) return true;
  return false;
}

/** The serialized Feature stored under `name` in an Example, or null if the map has no such key. */
function findFeature(example: Uint8Array, name: string): Uint8Array | null {
  const features = merged(example, 1);
  if (!features) return null;
  let found: Uint8Array | null = null;
  for (const entry of fields(features)) {
    if (entry.num !== 1 || !entry.payload) continue;
    // upb (protobuf's default Python backend, which TensorFlow gets) files an entry holding any
    // field besides a length-delimited key and value under unknown fields instead of the map.
    if (hasUnknownField(entry.payload)) continue;
    const keyBytes = merged(entry.payload, 1);
    const key = keyBytes ? UTF8.decode(keyBytes) : "";
    // Later entries replace earlier ones; an entry without a value holds an empty Feature.
    if (key === name) found = merged(entry.payload, 2) ?? new Uint8Array(0);
  }
  return found;
}

/** The bytes_list values of feature `name` in a serialized `tf.train.Example` (empty if absent or another kind). */
export function exampleBytesFeature(example: Uint8Array, name: string): Uint8Array[] {
  const feature = findFeature(example, name);
  return feature ? (bytesListValues(feature) ?? []) : [];
}

/**
 * The first value of bytes feature `feature` in every Example of a TFRecord file, decoded as
 * UTF-8: the record ids, in file order.
 */
export function idsFromTfRecords(path: string, feature = "image_name"): string[] {
  const ids: string[] = [];
  let index = 0;
  for (const record of readTfRecords(path)) {
    let values: Uint8Array[];
    try {
      values = exampleBytesFeature(record, feature);
    } catch (e) {
      const why = e instanceof ProtoError ? e.message : "invalid UTF-8 in a feature name";
      throw new UserError(`${path}: record ${index} is not a valid tf.train.Example (${why})`);
    }
    if (values.length === 0) throw new UserError(`${path}: record ${index} has no bytes value for feature "${feature}"`);
    try {
      ids.push(UTF8.decode(values[0]));
    } catch {
      throw new UserError(`${path}: record ${index}: feature "${feature}" is not valid UTF-8 text`);
    }
    index++;
  }
  return ids;
}
