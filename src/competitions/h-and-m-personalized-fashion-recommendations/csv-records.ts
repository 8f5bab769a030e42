import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { UserError } from "../../core/errors.js";

const QUOTE = 34;
const COMMA = 44;
const LF = 10;

interface Parsed {
  fields: string[];
  end: number;
}

/**
 * One record of `text` from `pos`, or null when the text ends before the record does and more
 * may follow. Only the dialect pandas' to_csv writes is understood: a field is either bare or
 * wholly quoted with doubled quotes inside, and every record ends with "\n".
 */
function parseRecord(text: string, pos: number, eof: boolean, file: string): Parsed | null {
  const len = text.length;
  if (pos >= len) return null;
  const fields: string[] = [];
  let i = pos;
  for (;;) {
    if (text.charCodeAt(i) === QUOTE) {
      let value = "";
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0 || (q + 1 >= len && !eof)) {
          if (eof) throw new UserError(`${file}: a quoted field is never closed`);
          return null;
        }
        if (text.charCodeAt(q + 1) === QUOTE) {
          value += text.slice(j, q + 1);
          j = q + 2;
          continue;
        }
        value += text.slice(j, q);
        i = q + 1;
        break;
      }
      fields.push(value);
    } else {
      let j = i;
      while (j < len) {
        const c = text.charCodeAt(j);
        if (c === COMMA || c === LF) break;
        j++;
      }
      if (j >= len && !eof) return null;
      fields.push(text.slice(i, j));
      i = j;
    }
    if (i >= len) return eof ? { fields, end: i } : null;
    const c = text.charCodeAt(i);
    if (c === COMMA) i++;
    else if (c === LF) return { fields, end: i + 1 };
    else throw new UserError(`${file}: unexpected text after a quoted field`);
  }
}

/**
 * The records of a CSV file written the way pandas' to_csv writes (as writeCsvRows does), read a
 * megabyte at a time so that a file of tens of millions of rows never sits in memory whole.
 */
export function* toCsvRecords(path: string, file = path): Generator<string[], void, undefined> {
  const fd = openSync(path, "r");
  const decoder = new StringDecoder("utf8");
  const buf = Buffer.allocUnsafe(1 << 20);
  let text = "";
  let eof = false;
  try {
    for (;;) {
      let pos = 0;
      for (;;) {
        const rec = parseRecord(text, pos, eof, file);
        if (rec === null) break;
        pos = rec.end;
        yield rec.fields;
      }
      text = text.slice(pos);
      if (eof) return;
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) {
        eof = true;
        text += decoder.end();
      } else {
        text += decoder.write(buf.subarray(0, n));
      }
    }
  } finally {
    closeSync(fd);
  }
}
