/** Where a CSV read's bytes come from (a file or an array), and checking and decoding them as UTF-8. */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { CsvParseError } from "../../core/errors.js";

/** An input read front to back, a step at a time. */
export interface ByteSource {
  /** Read into buf[start, end); returns the count, 0 at the end of the input. */
  readInto(buf: Buffer, start: number, end: number): number;
  /** The input's size in bytes, or 0 when unknown. */
  size(): number;
  close(): void;
}

/** A file, refused up front when it is larger than `maxBytes`. */
export class FileSource implements ByteSource {
  private readonly fd: number;
  private readonly bytes: number;

  constructor(path: string, file: string, maxBytes: number) {
    this.fd = openSync(path, "r");
    try {
      this.bytes = fstatSync(this.fd).size;
      if (this.bytes > maxBytes) throw tooBig(file, this.bytes, maxBytes);
    } catch (err) {
      closeSync(this.fd);
      throw err;
    }
  }

  size(): number {
    return this.bytes;
  }

  readInto(buf: Buffer, start: number, end: number): number {
    return readSync(this.fd, buf, start, end - start, null);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Bytes already in memory. */
export class ArraySource implements ByteSource {
  private pos = 0;

  constructor(private readonly bytes: Uint8Array) {}

  size(): number {
    return this.bytes.length;
  }

  readInto(buf: Buffer, start: number, end: number): number {
    const n = Math.min(end - start, this.bytes.length - this.pos);
    buf.set(this.bytes.subarray(this.pos, this.pos + n), start);
    this.pos += n;
    return n;
  }

  close(): void {}
}

/** The refusal of an input larger than `maxBytes`. */
export function tooBig(file: string, size: number, maxBytes: number): CsvParseError {
  return new CsvParseError(
    `${file} is ${size} bytes, more than the limit of ${maxBytes} bytes for a CSV file`,
    file,
    undefined,
  );
}

/** Where the first invalid UTF-8 sequence in b[i, end) starts (WHATWG rules), or null. */
export function findUtf8Error(b: Uint8Array, i: number, end: number): { at: number; truncated: boolean } | null {
  while (i < end) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
    } else return { at: i, truncated: false };
    for (let k = 1; k <= need; k++) {
      if (i + k >= end) return { at: i, truncated: true };
      const d = b[i + k];
      if (d < lo || d > hi) return { at: i, truncated: false };
      lo = 0x80;
      hi = 0xbf;
    }
    i += need + 1;
  }
  return null;
}

/** The end of the last complete UTF-8 sequence in b[from, n): a sequence cut by the chunk end waits for more bytes. */
export function completeEnd(b: Uint8Array, from: number, n: number): number {
  let j = n - 1;
  while (j > from && j > n - 4 && (b[j] & 0xc0) === 0x80) j--;
  if (j < from) return n;
  const c = b[j];
  const len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
  return j + len > n ? j : n;
}

/** Buffer's own decoder, without toString's argument handling (a measurable share for text-heavy files). */
interface Utf8Slicer {
  utf8Slice(start: number, end: number): string;
}
const HAS_UTF8_SLICE = typeof (Buffer.prototype as unknown as Partial<Utf8Slicer>).utf8Slice === "function";

/** The text of b[a, z), which holds valid UTF-8. */
export function utf8Text(b: Buffer, a: number, z: number): string {
  return HAS_UTF8_SLICE ? (b as unknown as Utf8Slicer).utf8Slice(a, z) : b.toString("utf8", a, z);
}
