import fs from "node:fs";
import { UserError } from "../../core/errors.js";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk, reading only the first bytes (the photo is large). */
export function pngSize(file: string): { width: number; height: number } {
  if (!fs.existsSync(file)) throw new UserError(`${file} is missing (expected the fragment's infrared PNG)`);
  const head = Buffer.alloc(24);
  const fd = fs.openSync(file, "r");
  let got: number;
  try {
    got = fs.readSync(fd, head, 0, 24, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (got < 24 || !head.subarray(0, 8).equals(SIGNATURE) || head.toString("latin1", 12, 16) !== "IHDR") {
    throw new UserError(`${file}: not a PNG image (no PNG signature and IHDR header)`);
  }
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}
