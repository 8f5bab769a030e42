import fs from "node:fs";

/** A C-ordered float64 array with its shape. */
export interface Float64Tensor {
  shape: number[];
  data: Float64Array;
}

const MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]); // "\x93NUMPY"

/** Write `tensor` as a version-1.0 .npy file that numpy.load reads as a little-endian float64 array. */
export function writeNpy(file: string, tensor: Float64Tensor): void {
  const count = tensor.shape.reduce((a, b) => a * b, 1);
  if (count !== tensor.data.length) throw new Error(`shape ${tensor.shape.join("x")} does not hold ${tensor.data.length} values`);
  const dims = tensor.shape.length === 1 ? `${tensor.shape[0]},` : tensor.shape.join(", ");
  let header = `{'descr': '<f8', 'fortran_order': False, 'shape': (${dims}), }`;
  // numpy aligns the data to 64 bytes: magic (6) + version (2) + length (2) + header ending in "\n".
  const unpadded = MAGIC.length + 4 + header.length + 1;
  header += " ".repeat((64 - (unpadded % 64)) % 64) + "\n";
  const head = Buffer.alloc(MAGIC.length + 4);
  MAGIC.copy(head, 0);
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  const body = Buffer.alloc(tensor.data.length * 8);
  for (let i = 0; i < tensor.data.length; i++) body.writeDoubleLE(tensor.data[i], i * 8);
  fs.writeFileSync(file, Buffer.concat([head, Buffer.from(header, "latin1"), body]));
}

/** Read a .npy file holding a C-ordered little-endian float64 array (what numpy.save writes for float64 data). */
export function readNpy(file: string): Float64Tensor {
  return parseNpy(fs.readFileSync(file), file);
}

/** Parse the bytes of a .npy file (named `file` in errors) as {@link readNpy} does. */
export function parseNpy(buf: Buffer, file: string): Float64Tensor {
  if (buf.length < 10 || !buf.subarray(0, 6).equals(MAGIC)) throw new Error(`${file} is not a .npy file`);
  const major = buf[6];
  const lengthBytes = major === 1 ? 2 : 4;
  const headerLength = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = 8 + lengthBytes;
  const header = buf.subarray(start, start + headerLength).toString("latin1");
  const descr = /'descr':\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr !== "<f8" || fortran !== "False" || shapeText === undefined) {
    throw new Error(`${file} must hold a C-ordered little-endian float64 array; its header is ${header.trim()}`);
  }
  const shape = shapeText
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const offset = start + headerLength;
  if (buf.length - offset !== count * 8) throw new Error(`${file} holds ${buf.length - offset} data bytes; shape (${shape.join(", ")}) needs ${count * 8}`);
  const data = new Float64Array(count);
  for (let i = 0; i < count; i++) data[i] = buf.readDoubleLE(offset + i * 8);
  return { shape, data };
}
