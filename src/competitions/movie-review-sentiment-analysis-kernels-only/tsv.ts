/**
 * Tab-separated files as pandas reads and writes them (`read_csv(sep="\t")`,
 * `to_csv(sep="\t", index=False)`). Reading re-tokenizes the tabs the way pandas' C tokenizer
 * does and hands the fields, re-quoted as CSV, to the shared reader, so dtype inference and
 * missing-value rules stay in one place.
 */
import fs from "node:fs";
import { UserError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { parseCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";

const TAB = "\t";

/** The records of a tab-separated text, split like pandas' tokenizer (quotechar '"', doublequote, skip_blank_lines). */
export function tokenizeTsv(text: string, file: string): string[][] {
  const records: string[][] = [];
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < n) {
    // Blank lines and lines of only spaces are skipped; a tab is a delimiter, so it starts a record.
    let j = i;
    while (j < n && text[j] === " ") j++;
    if (j >= n || text[j] === "\n" || text[j] === "\r") {
      i = j >= n ? n : text[j] === "\r" && text[j + 1] === "\n" ? j + 2 : j + 1;
      line++;
      continue;
    }
    const fields: string[] = [];
    for (;;) {
      let field = "";
      if (i < n && text[i] === '"') {
        const opened = line;
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) throw new UserError(`${file}: a quoted field opened on line ${opened} is never closed`);
          field += text.slice(i, q);
          for (let k = i; k < q; k++) if (text[k] === "\n") line++;
          i = q + 1;
          if (text[i] === '"') {
            field += '"';
            i++;
            continue;
          }
          break;
        }
      }
      // Unquoted text, or what follows a closing quote: runs to the next tab or line end, quotes literal.
      let k = i;
      while (k < n && text[k] !== TAB && text[k] !== "\n" && text[k] !== "\r") k++;
      field += text.slice(i, k);
      fields.push(field);
      i = k;
      if (i < n && text[i] === TAB) {
        i++;
        continue;
      }
      if (i < n) i += text[i] === "\r" && text[i + 1] === "\n" ? 2 : 1;
      line++;
      break;
    }
    records.push(fields);
  }
  return records;
}

/** pandas' `read_csv(path, sep="\t")` on a UTF-8 file. */
export function readTsv(path: string, file = path): Table {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(fs.readFileSync(path));
  } catch (e) {
    throw new UserError(`${file}: cannot read as UTF-8 text (${(e as Error).message})`);
  }
  const records = tokenizeTsv(text, file);
  if (records.length === 0) throw new UserError(`${file}: no header line (the file is empty)`);
  // Every field quoted: pandas treats quoted and bare cells alike for dtypes and missing values.
  const quoted = records.map((r) => r.map((f) => `"${f.replace(/"/g, '""')}"`).join(",")).join("\n");
  return parseCsv(quoted + "\n", { file });
}

/** Write `table` as pandas' `to_csv(path, sep="\t", index=False)` would. */
export function writeTsv(path: string, table: Table): void {
  writeCsv(path, table, { sep: TAB });
}
