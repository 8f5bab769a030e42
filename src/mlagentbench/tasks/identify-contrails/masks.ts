import fs from "node:fs";
import { UserError } from "../../../core/errors.js";
import { readNpyHeaderFields } from "../../../pycompat/npy-header.js";

/** A 2-D 0/1 mask, row-major. */
export interface Mask {
  height: number;
  width: number;
  data: Uint8Array;
}

const READERS: Record<string, { size: number; read: (b: Buffer, o: number) => number }> = {
  "|u1": { size: 1, read: (b, o) => b.readUInt8(o) },
  "|b1": { size: 1, read: (b, o) => b.readUInt8(o) },
  "|i1": { size: 1, read: (b, o) => b.readInt8(o) },
  "<i2": { size: 2, read: (b, o) => b.readInt16LE(o) },
  "<i4": { size: 4, read: (b, o) => b.readInt32LE(o) },
  "<i8": { size: 8, read: (b, o) => Number(b.readBigInt64LE(o)) },
  "<f4": { size: 4, read: (b, o) => b.readFloatLE(o) },
  "<f8": { size: 8, read: (b, o) => b.readDoubleLE(o) },
};

/** The first channel of an H × W × C mask saved with numpy (`np.load(f)[:, :, 0]`), as 0/1 values. */
export function readMaskNpy(file: string): Mask {
  const header = readNpyHeaderFields(file);
  const reader = READERS[header.descr];
  if (!reader) throw new UserError(`${file}: unsupported element type ${header.descr} (expected integers, booleans or floats)`);
  if (header.fortranOrder) throw new UserError(`${file}: Fortran-ordered arrays are not supported`);
  if (header.shape.length !== 3 && header.shape.length !== 2) {
    throw new UserError(`${file}: expected a mask of shape (H, W, 1), got (${header.shape.join(", ")})`);
  }
  const [height, width] = header.shape;
  const channels = header.shape[2] ?? 1;
  const buf = fs.readFileSync(file);
  const need = header.dataOffset + height * width * channels * reader.size;
  if (buf.length < need) throw new UserError(`${file}: holds ${buf.length} bytes, its shape needs ${need}`);
  const data = new Uint8Array(height * width);
  for (let i = 0; i < height * width; i++) {
    data[i] = reader.read(buf, header.dataOffset + i * channels * reader.size) !== 0 ? 1 : 0;
  }
  return { height, width, data };
}
