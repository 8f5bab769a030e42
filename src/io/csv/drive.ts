/** The chunk loop shared by every CSV read: bytes from a source, checked as UTF-8 text, through the tokenizer. */
import { isUtf8 } from "node:buffer";
import { CsvParseError } from "../../core/errors.js";
import { completeEnd, findUtf8Error, tooBig, type ByteSource } from "./source.js";
import { countLineBreaks, type Tokenizer } from "./tokenizer.js";

/**
 * Feed `src` through `tok` chunk by chunk, handing each batch of records to `consume` (which
 * returns true to stop early). Each chunk is the unconsumed tail of the previous one followed by
 * fresh bytes; only fresh bytes are checked for UTF-8 and NUL.
 */
export function drive(
  src: ByteSource,
  tok: Tokenizer,
  chunkBytes: number,
  file: string,
  maxBytes: number,
  consume: (b: Buffer, used: number) => boolean | void,
  fast?: (b: Buffer, pos: number, n: number) => number,
): void {
  let buf = Buffer.allocUnsafe(chunkBytes);
  let carry = 0;
  // buf[0, valid) is known to be complete, valid UTF-8.
  let valid = 0;
  // File offset of buf[0], for error messages.
  let offset = 0;
  let total = 0;
  try {
    for (;;) {
      // Read at least as much as is carried over, so a record longer than a chunk costs linear time.
      const want = carry + Math.max(chunkBytes, carry);
      if (buf.length < want) {
        const bigger = Buffer.allocUnsafe(want);
        buf.copy(bigger, 0, 0, carry);
        buf = bigger;
      }
      let n = carry;
      let eof = false;
      while (n < want) {
        const r = src.readInto(buf, n, want);
        if (r === 0) {
          eof = true;
          break;
        }
        n += r;
      }
      total += n - carry;
      // A file that grows while being read, or a pipe, has no trustworthy size up front.
      if (total > maxBytes) throw tooBig(file, total, maxBytes);
      const end = eof ? n : completeEnd(buf, valid, n);
      if (!isUtf8(buf.subarray(valid, end))) {
        const bad = findUtf8Error(buf, valid, end) ?? { at: valid, truncated: false };
        const at = offset + bad.at;
        throw new CsvParseError(
          `${file} is not UTF-8 text: ` +
            (bad.truncated
              ? `it ends inside a multi-byte character that starts at byte offset ${at}`
              : `invalid byte 0x${buf[bad.at].toString(16).padStart(2, "0")} at byte offset ${at}`),
          file,
          undefined,
        );
      }
      const nul = buf.indexOf(0, carry);
      if (nul >= 0 && nul < n) {
        const line = tok.physLine + countLineBreaks(buf, 0, nul);
        throw new CsvParseError(`${file}: line ${line} contains a NUL byte; a CSV file must be UTF-8 text`, file, line);
      }
      valid = end;
      const data = buf.subarray(0, n);
      // Alternate between the fast path (when given) and the tokenizer, which takes what the
      // fast path can't, in batches that grow while the fast path keeps declining.
      let pos = 0;
      // A first batch of some size also gives the sink a fair sample to size its columns from.
      let limit = fast === undefined ? Infinity : 256;
      let stop: boolean | void = false;
      for (;;) {
        if (fast !== undefined) {
          const taken = fast(data, pos, n);
          if (taken > pos) {
            pos = taken;
            limit = 1;
          } else limit = Math.min(limit * 2, 1 << 20);
        }
        const used = tok.run(data, eof, pos, limit);
        stop = consume(data, used - pos);
        const progress = used > pos;
        pos = used;
        if (stop === true || tok.done || !progress || pos >= n) break;
      }
      if (eof || tok.done || stop === true) return;
      buf.copy(buf, 0, pos, n);
      carry = n - pos;
      valid -= pos;
      offset += pos;
    }
  } finally {
    src.close();
  }
}
