import fs from "node:fs";
import { UserError } from "../../core/errors.js";
import { readNpyHeaderFields } from "../../pycompat/npy-header.js";

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
  const header = readNpyHeaderFields(file);
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
