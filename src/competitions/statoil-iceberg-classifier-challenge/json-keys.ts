/**
 * The field names of every object in a top-level JSON list, read without holding the document.
 *
 * Upstream loads Kaggle's test.json (about 1.5 GB) whole only to learn the first sample's fields
 * and check that all samples share them. A JavaScript string cannot hold 1.5 GB, so the file is
 * read as a stream of text through the shared tokenizer (src/pycompat/json-tokenizer.ts), which
 * checks it is JSON as Python's json.loads accepts it (strict strings, NaN and Infinity allowed);
 * the values are only validated, and nothing but the keys of the list's objects is kept.
 */
import fs from "node:fs";
import { UserError } from "../../core/errors.js";
import { END, JsonTokenizer, StreamedText } from "../../pycompat/json-tokenizer.js";

const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;

/** {@link scanListKeys} over text given in pieces (split anywhere); `where` names it in errors. */
export function scanListKeysInText(pieces: Iterable<string>, where: string, onObject: (keys: string[], index: number) => void): number {
  const src = new StreamedText(pieces);
  const t = new JsonTokenizer(src, where, { locate: (at) => `near character ${at}` });
  t.skipWs();
  if (t.peek() !== OPEN_BRACKET) t.fail("expected a list of samples");
  let count = 0;
  if (t.enterArray()) {
    do {
      if (t.peek() !== OPEN_BRACE) t.fail(`sample ${count} is not an object`);
      const keys: string[] = [];
      if (t.enterObject()) {
        do {
          const k = t.key();
          if (!keys.includes(k)) keys.push(k);
          // Depth 2: inside the list and the sample, as Python's recursion would count it.
          t.value(2, false);
        } while (t.nextMember());
      }
      onObject(keys, count++);
      // A sample's text is never looked at again.
      src.release(t.pos);
    } while (t.nextItem());
  }
  t.skipWs();
  if (t.peek() !== END) t.fail("extra data after the list");
  return count;
}

/** The file's text, strictly decoded as UTF-8 in pieces of about 4 MiB. */
function* filePieces(fd: number, file: string): Generator<string, void, undefined> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const buf = Buffer.alloc(1 << 22);
  let first = true;
  for (;;) {
    const n = fs.readSync(fd, buf, 0, buf.length, null);
    let text: string;
    try {
      text = decoder.decode(buf.subarray(0, n), { stream: n > 0 });
    } catch {
      throw new UserError(`${file} is not valid UTF-8 text`);
    }
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) throw new UserError(`${file}: starts with a UTF-8 byte order mark, which Python's json.load refuses`);
      first = false;
    }
    yield text;
    if (n === 0) return;
  }
}

/**
 * Call `onObject(keys, index)` for each object of the JSON list in `file` (keys deduplicated, in
 * first-appearance order, as a Python dict keeps them); returns how many there were.
 */
export function scanListKeys(file: string, onObject: (keys: string[], index: number) => void): number {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (e) {
    throw new UserError(`Cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    return scanListKeysInText(filePieces(fd, file), file, onObject);
  } finally {
    fs.closeSync(fd);
  }
}
