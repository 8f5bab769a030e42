/** The header of a NumPy .npy file (format versions 1–3), read without loading the array. */
import fs from "node:fs";
import { UserError } from "../core/errors.js";

/** The magic string that opens every .npy file. */
export const NPY_MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]);

/** What an .npy header says: element type, memory order, shape, and where the data starts. */
export interface NpyHeaderFields {
  descr: string;
  fortranOrder: boolean;
  shape: number[];
  dataOffset: number;
}

/** Parse the header of an .npy file, reading only its first bytes (arrays can be large). */
export function readNpyHeaderFields(path: string, file = path): NpyHeaderFields {
  if (!fs.existsSync(path)) throw new UserError(`${file} is missing`);
  const fd = fs.openSync(path, "r");
  try {
    const head = Buffer.alloc(12);
    const got = fs.readSync(fd, head, 0, 12, 0);
    if (got < 10 || !head.subarray(0, 6).equals(NPY_MAGIC)) throw new UserError(`${file}: not a NumPy .npy file (bad magic bytes)`);
    const major = head[6];
    if (major < 1 || major > 3) throw new UserError(`${file}: unsupported .npy format version ${major}.${head[7]}`);
    const lenBytes = major === 1 ? 2 : 4;
    const hlen = major === 1 ? head.readUInt16LE(8) : head.readUInt32LE(8);
    const text = Buffer.alloc(hlen);
    fs.readSync(fd, text, 0, hlen, 8 + lenBytes);
    // Format 3 exists only to allow UTF-8 in the header; 1 and 2 are Latin-1.
    const dict = text.toString(major === 3 ? "utf8" : "latin1");
    const descr = /'descr'\s*:\s*'([^']*)'/.exec(dict)?.[1];
    const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(dict)?.[1];
    const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(dict)?.[1];
    if (descr === undefined || fortran === undefined || shapeText === undefined) {
      throw new UserError(`${file}: cannot read the .npy header ${JSON.stringify(dict.trim())}`);
    }
    const shape = shapeText.split(",").map((s) => s.trim()).filter((s) => s !== "").map(Number);
    return { descr, fortranOrder: fortran === "True", shape, dataOffset: 8 + lenBytes + hlen };
  } finally {
    fs.closeSync(fd);
  }
}
