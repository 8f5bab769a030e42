/**
 * Lines of a file as Python's text mode sees them: "\n", "\r\n" and a lone "\r" all end a line
 * (universal newlines). Read in blocks, so files of many gigabytes stream through in constant
 * memory plus the longest line.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { UserError } from "../core/errors.js";

const LF = 10;
const CR = 13;

/** One line: its bytes without the line break, and whether a line break ended it (false only for a last line without one). */
export interface RawLine {
  /** Valid only until the generator resumes: copy it to keep it. */
  bytes: Buffer;
  terminated: boolean;
}

/** The lines of `file`, split where Python's universal newlines split them. */
export function* readRawLines(file: string, blockSize = 1 << 20): Generator<RawLine, void, undefined> {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    throw new UserError(`Cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    let block = Buffer.alloc(blockSize);
    // block[0, carry) holds the unfinished line from the previous read; new bytes go after it.
    let carry = 0;
    let eof = false;
    while (!eof) {
      if (block.length - carry < blockSize) {
        const bigger = Buffer.alloc(Math.max(block.length * 2, carry + blockSize));
        block.copy(bigger, 0, 0, carry);
        block = bigger;
      }
      const n = readSync(fd, block, carry, blockSize, null);
      eof = n === 0;
      const end = carry + n;
      let start = 0;
      // Native searches for both terminators; each position is refreshed only once passed.
      let lf = block.indexOf(LF, 0);
      let cr = block.indexOf(CR, 0);
      for (;;) {
        if (lf >= end) lf = -1;
        if (cr >= end) cr = -1;
        const i = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
        if (i < 0) break;
        // A "\r" that ends the bytes read so far may be the first half of "\r\n": wait for more.
        if (i === cr && i + 1 === end && !eof) break;
        yield { bytes: block.subarray(start, i), terminated: true };
        start = i === cr && lf === i + 1 ? i + 2 : i + 1;
        if (lf >= 0 && lf < start) lf = block.indexOf(LF, start);
        if (cr >= 0 && cr < start) cr = block.indexOf(CR, start);
      }
      if (eof) {
        if (start < end) yield { bytes: block.subarray(start, end), terminated: false };
        break;
      }
      block.copy(block, 0, start, end);
      carry = end - start;
    }
  } finally {
    closeSync(fd);
  }
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A line's bytes as text, refusing invalid UTF-8 as Python's strict decoding does. */
export function decodeLine(bytes: Uint8Array, file: string, lineNo: number): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new UserError(`${file}: line ${lineNo} is not valid UTF-8`);
  }
}
