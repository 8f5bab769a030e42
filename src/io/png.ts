/**
 * PNG decoding to 8-bit luminance exactly as Pillow 9.4's `Image.open(f).convert("L")` does it,
 * on top of `pngjs` (which does the inflating, unfiltering and de-interlacing).
 *
 * Where Pillow and pngjs disagree, Pillow wins:
 * - tRNS: pngjs blanks every pixel matching the transparent colour to 0; Pillow keeps the
 *   pixel values and only records the transparency, so tRNS chunks are removed before pngjs sees them.
 * - 16-bit samples: pngjs rescales with rounding; Pillow keeps the high byte of colour and
 *   grey-alpha samples, and opens plain 16-bit grey as mode "I", whose conversion to "L" clamps
 *   the value to 0..255 rather than scaling it.
 * - colour to grey: Pillow's fixed-point ITU-R 601 weights, (R*19595 + G*38470 + B*7471 + 2^15) >> 16,
 *   applied to palette entries too.
 */
import fs from "node:fs";
import { PNG } from "pngjs";
import { UserError } from "../core/errors.js";

/** A decoded image as one luminance byte per pixel, row-major. */
export interface LumaImage {
  width: number;
  height: number;
  luma: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Pillow's RGB → L conversion for one pixel. */
export function pilLuma(r: number, g: number, b: number): number {
  return (r * 19595 + g * 38470 + b * 7471 + 0x8000) >>> 16;
}

interface Header {
  depth: number;
  colorType: number;
}

/** IHDR's bit depth and colour type, and the file without its tRNS chunks. */
function stripTransparency(buf: Buffer, file: string): { header: Header; png: Buffer } {
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE)) throw new UserError(`${file}: not a PNG file (bad signature)`);
  const kept: Buffer[] = [SIGNATURE];
  let header: Header | undefined;
  let pos = 8;
  while (pos + 12 <= buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString("latin1", pos + 4, pos + 8);
    const end = pos + 12 + len;
    if (end > buf.length) throw new UserError(`${file}: truncated PNG (chunk ${type} runs past the end)`);
    if (type === "IHDR" && len >= 13) header = { depth: buf[pos + 16], colorType: buf[pos + 17] };
    if (type !== "tRNS") kept.push(buf.subarray(pos, end));
    pos = end;
    if (type === "IEND") break;
  }
  if (!header) throw new UserError(`${file}: PNG without an IHDR chunk`);
  return { header, png: Buffer.concat(kept) };
}

/** Decode PNG bytes to Pillow's "L" image; `file` names the source in errors. */
export function decodePngLuma(bytes: Buffer, file: string): LumaImage {
  const { header, png } = stripTransparency(bytes, file);
  const wide = header.depth === 16;
  let decoded: { width: number; height: number; data: ArrayLike<number> };
  try {
    decoded = PNG.sync.read(png, { skipRescale: wide }) as unknown as typeof decoded;
  } catch (e) {
    throw new UserError(`${file}: cannot decode PNG (${(e as Error).message})`);
  }
  const { width, height, data } = decoded;
  const luma = new Uint8Array(width * height);
  const grey = header.colorType === 0 || header.colorType === 4;
  for (let i = 0, p = 0; i < luma.length; i++, p += 4) {
    if (!wide) {
      luma[i] = grey ? data[p] : pilLuma(data[p], data[p + 1], data[p + 2]);
    } else if (header.colorType === 0) {
      // Mode "I" to "L" saturates instead of scaling.
      luma[i] = Math.min(data[p], 255);
    } else {
      luma[i] = grey ? data[p] >>> 8 : pilLuma(data[p] >>> 8, data[p + 1] >>> 8, data[p + 2] >>> 8);
    }
  }
  return { width, height, luma };
}

/** Read a PNG file as Pillow's `Image.open(path).convert("L")` would see it. */
export function readPngLuma(path: string): LumaImage {
  return decodePngLuma(fs.readFileSync(path), path);
}
