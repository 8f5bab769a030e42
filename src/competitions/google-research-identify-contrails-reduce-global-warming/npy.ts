import fs from "node:fs";
import { UserError } from "../../core/errors.js";

/** What a .npy header says: element type, memory order, shape, and where the data starts. */
export interface NpyHeader {
  descr: string;
  fortranOrder: boolean;
  shape: number[];
  dataOffset: number;
}

const MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]);

/** Parse the header of a .npy file, reading only its first bytes (bands can be large). */
export function readNpyHeader(file: string): NpyHeader {
  if (!fs.existsSync(file)) throw new UserError(`${file} is missing`);
  const fd = fs.openSync(file, "r");
  try {
    const pre = Buffer.alloc(12);
    const got = fs.readSync(fd, pre, 0, 12, 0);
    if (got < 10 || !pre.subarray(0, 6).equals(MAGIC)) throw new UserError(`${file}: not a NumPy .npy file (bad magic bytes)`);
    const major = pre[6];
    const lenBytes = major === 1 ? 2 : 4;
    const headerLen = lenBytes === 2 ? pre.readUInt16LE(8) : pre.readUInt32LE(8);
    const start = 8 + lenBytes;
    const text = Buffer.alloc(headerLen);
    fs.readSync(fd, text, 0, headerLen, start);
    return parseHeader(text.toString("latin1"), start + headerLen, file);
  } finally {
    fs.closeSync(fd);
  }
}

function parseHeader(text: string, dataOffset: number, file: string): NpyHeader {
  const descr = /'descr'\s*:\s*'([^']+)'/.exec(text);
  const order = /'fortran_order'\s*:\s*(True|False)/.exec(text);
  const shape = /'shape'\s*:\s*\(([^)]*)\)/.exec(text);
  if (!descr || !order || !shape) throw new UserError(`${file}: unreadable .npy header ${JSON.stringify(text.trim())}`);
  const dims = shape[1]
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map(Number);
  return { descr: descr[1], fortranOrder: order[1] === "True", shape: dims, dataOffset };
}

type Reader = (buf: Buffer, offset: number) => number;

// Element readers for the plain numeric types a mask can be stored as.
const READERS: Record<string, [number, Reader]> = {
  "|b1": [1, (b, o) => b.readUInt8(o)],
  "|u1": [1, (b, o) => b.readUInt8(o)],
  "|i1": [1, (b, o) => b.readInt8(o)],
  "<u2": [2, (b, o) => b.readUInt16LE(o)],
  "<i2": [2, (b, o) => b.readInt16LE(o)],
  "<u4": [4, (b, o) => b.readUInt32LE(o)],
  "<i4": [4, (b, o) => b.readInt32LE(o)],
  "<i8": [8, (b, o) => Number(b.readBigInt64LE(o))],
  "<u8": [8, (b, o) => Number(b.readBigUInt64LE(o))],
  "<f4": [4, (b, o) => b.readFloatLE(o)],
  "<f8": [8, (b, o) => b.readDoubleLE(o)],
};

/**
 * Positions (0-based) of elements equal to `value` in numpy's `x.T.flatten()` order, in which
 * the first axis varies fastest, whatever order the file stores them in.
 */
export function npyTransposedMatches(file: string, value: number): number[] {
  const header = readNpyHeader(file);
  const reader = READERS[header.descr.replace(/^=/, "<")];
  if (!reader) throw new UserError(`${file}: unsupported .npy element type ${header.descr} (expected a bool, integer or float mask)`);
  const [size, read] = reader;
  const total = header.shape.reduce((a, b) => a * b, 1);
  const data = fs.readFileSync(file).subarray(header.dataOffset);
  if (data.length < total * size) throw new UserError(`${file}: truncated .npy data (${data.length} bytes for ${total} elements)`);
  // A Fortran-ordered file already lies in the wanted order; a C-ordered one is walked by strides.
  const strides = header.fortranOrder ? fortranOrderStrides(header.shape) : cOrderStrides(header.shape);
  const out: number[] = [];
  const index = new Array<number>(header.shape.length).fill(0);
  let at = 0;
  for (let p = 0; p < total; p++) {
    if (read(data, at * size) === value) out.push(p);
    at = advanceFirstAxisFastest(index, header.shape, strides, at);
  }
  return out;
}

/** Element strides of a C-ordered array. */
function cOrderStrides(shape: number[]): number[] {
  const strides = new Array<number>(shape.length).fill(1);
  for (let axis = shape.length - 2; axis >= 0; axis--) strides[axis] = strides[axis + 1] * shape[axis + 1];
  return strides;
}

function fortranOrderStrides(shape: number[]): number[] {
  const strides = new Array<number>(shape.length).fill(1);
  for (let axis = 1; axis < shape.length; axis++) strides[axis] = strides[axis - 1] * shape[axis - 1];
  return strides;
}

/** Step the multi-index with the first axis fastest; returns the element offset of the new index. */
function advanceFirstAxisFastest(index: number[], shape: number[], strides: number[], at: number): number {
  for (let axis = 0; axis < shape.length; axis++) {
    if (++index[axis] < shape[axis]) return at + strides[axis];
    index[axis] = 0;
    at -= (shape[axis] - 1) * strides[axis];
  }
  return at;
}
