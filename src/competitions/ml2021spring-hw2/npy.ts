/**
 * NumPy .npy files (format versions 1–3) for C-ordered arrays: the header numpy reads and
 * writes, and row gathers (`np.save(out, arr[indices])`) that stream rows from disk to disk.
 */
import fs from "node:fs";
import { UserError } from "../../core/errors.js";
import { NPY_MAGIC, readNpyHeaderFields } from "../../pycompat/npy-header.js";

// numpy pads headers to this alignment and leaves room for the first axis to grow in place.
const ARRAY_ALIGN = 64;
const GROWTH_AXIS_MAX_DIGITS = 21;

/** What an .npy header says: the dtype descr, the shape and where the data starts. */
export interface NpyHeader {
  descr: string;
  shape: number[];
  dataOffset: number;
  /** Bytes of one element. */
  itemSize: number;
}

function itemSizeOf(descr: string, file: string): number {
  const m = /^[<>|=]([biufcUS])(\d+)$/.exec(descr);
  if (!m) throw new UserError(`${file}: dtype '${descr}' is not supported (expected a plain numeric or fixed-width string dtype)`);
  return Number(m[2]) * (m[1] === "U" ? 4 : 1);
}

/** Parse the header of an .npy file, refusing the Fortran order the row gathers cannot stream. */
export function readNpyHeader(path: string, file = path): NpyHeader {
  const h = readNpyHeaderFields(path, file);
  if (h.fortranOrder) throw new UserError(`${file}: Fortran-ordered arrays are not supported`);
  return { descr: h.descr, shape: h.shape, dataOffset: h.dataOffset, itemSize: itemSizeOf(h.descr, file) };
}

/** The header bytes `np.save` writes for an array of this dtype and shape (format 1.0). */
export function npyHeaderBytes(descr: string, shape: number[]): Buffer {
  const shapeRepr = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
  let dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeRepr}, }`;
  if (shape.length > 0) dict += " ".repeat(GROWTH_AXIS_MAX_DIGITS - String(shape[0]).length);
  const hlen = dict.length + 1;
  const pad = ARRAY_ALIGN - ((NPY_MAGIC.length + 2 + 2 + hlen) % ARRAY_ALIGN);
  if (hlen + pad > 0xffff) throw new UserError(`.npy header for shape ${shapeRepr} is too long for format 1.0`);
  const prefix = Buffer.alloc(10);
  NPY_MAGIC.copy(prefix);
  prefix[6] = 1;
  prefix.writeUInt16LE(hlen + pad, 8);
  return Buffer.concat([prefix, Buffer.from(dict + " ".repeat(pad) + "\n", "latin1")]);
}

/** Bytes of one row (everything after the first axis). */
export function rowBytes(h: NpyHeader): number {
  return h.shape.slice(1).reduce((a, b) => a * b, h.itemSize);
}

/** `np.save(dest, arr[indices])` for the array in `src`, copying one row at a time. */
export function saveRows(src: string, h: NpyHeader, indices: ArrayLike<number>, dest: string): void {
  const row = rowBytes(h);
  const perChunk = Math.max(1, Math.floor((8 << 20) / Math.max(row, 1)));
  const buf = Buffer.alloc(row * Math.min(perChunk, Math.max(indices.length, 1)));
  const inFd = fs.openSync(src, "r");
  const outFd = fs.openSync(dest, "w");
  try {
    fs.writeSync(outFd, npyHeaderBytes(h.descr, [indices.length, ...h.shape.slice(1)]));
    let used = 0;
    for (let k = 0; k < indices.length; k++) {
      const got = fs.readSync(inFd, buf, used, row, h.dataOffset + indices[k] * row);
      if (got !== row) throw new UserError(`${src}: row ${indices[k]} is cut short (the file is truncated)`);
      used += row;
      if (used === buf.length) {
        fs.writeSync(outFd, buf, 0, used);
        used = 0;
      }
    }
    if (used > 0) fs.writeSync(outFd, buf, 0, used);
  } finally {
    fs.closeSync(inFd);
    fs.closeSync(outFd);
  }
}

/** The elements of a one-dimensional array as text (strings as stored, numbers as Python prints them) or numbers. */
export function readVector(path: string, h: NpyHeader, file = path): (string | number)[] {
  if (h.shape.length !== 1) throw new UserError(`${file}: expected a one-dimensional array, got shape (${h.shape.join(", ")})`);
  const data = fs.readFileSync(path).subarray(h.dataOffset);
  const n = h.shape[0];
  if (data.length < n * h.itemSize) throw new UserError(`${file}: holds ${data.length} data bytes, expected ${n * h.itemSize}`);
  const kind = h.descr[1];
  const little = h.descr[0] !== ">";
  const size = h.itemSize;
  const out: (string | number)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const at = i * size;
    out[i] = element(data, at, kind, size, little, file);
  }
  return out;
}

function element(b: Buffer, at: number, kind: string, size: number, little: boolean, file: string): string | number {
  if (kind === "U") {
    let s = "";
    for (let k = 0; k < size; k += 4) {
      const cp = little ? b.readUInt32LE(at + k) : b.readUInt32BE(at + k);
      s += String.fromCodePoint(cp);
    }
    // numpy drops trailing NULs of fixed-width strings.
    return s.replace(/\0+$/, "");
  }
  if (kind === "i" || kind === "u") {
    if (size === 1) return kind === "i" ? b.readInt8(at) : b[at];
    if (size === 2) return kind === "i" ? (little ? b.readInt16LE(at) : b.readInt16BE(at)) : little ? b.readUInt16LE(at) : b.readUInt16BE(at);
    if (size === 4) return kind === "i" ? (little ? b.readInt32LE(at) : b.readInt32BE(at)) : little ? b.readUInt32LE(at) : b.readUInt32BE(at);
    const v = kind === "i" ? (little ? b.readBigInt64LE(at) : b.readBigInt64BE(at)) : little ? b.readBigUInt64LE(at) : b.readBigUInt64BE(at);
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) throw new UserError(`${file}: label ${v} is too large`);
    return Number(v);
  }
  throw new UserError(`${file}: labels of dtype kind '${kind}' are not supported (expected strings or integers)`);
}
