/** Copying the files a table lists, the loop most image preparers share (`shutil.copy` per row). */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.js";
import type { Table } from "../core/table.js";
import { pyStrAt } from "../pycompat/pystr.js";
import { column as tableColumn } from "./frame.js";

/** Where listed files come from and go to, and how a missing one is reported. */
export interface ListedCopy {
  /** Folder the listed files are read from. */
  from: string;
  /** Folder they are copied into; made even when nothing is listed, as upstream's makedirs runs before its loop. */
  to: string;
  /** The listing a missing file is blamed on, so the user knows which row to look for. */
  listedIn: string;
  /** Appended to each id to make its file name, e.g. ".jpg". */
  suffix?: string;
  /** Said after the listing when a file is missing, e.g. which archive should have held it. */
  note?: string;
  /** The id a file is saved under when upstream renames it on the way. */
  rename?: (id: string) => string;
  /** A file's path relative to both folders when Kaggle nests it; replaces `<id><suffix>`, and parent folders are made per file. */
  at?: (id: string) => string;
}

/** Copy `from/<id><suffix>` to `to/<id><suffix>` for each id, in order; a missing source names its listing. */
export function copyListed(ids: Iterable<string>, o: ListedCopy): void {
  const suffix = o.suffix ?? "";
  const place = o.at ?? ((id: string) => `${id}${suffix}`);
  fs.mkdirSync(o.to, { recursive: true });
  for (const id of ids) {
    // Ids come from data, so the callbacks run per row and can refuse a bad one before any lookup.
    const rel = place(id);
    const src = path.join(o.from, rel);
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing (listed in ${o.listedIn}${o.note ? `, ${o.note}` : ""})`);
    const dst = path.join(o.to, o.rename ? place(o.rename(id)) : rel);
    if (o.at) fs.mkdirSync(path.dirname(dst), { recursive: true });
    fs.copyFileSync(src, dst);
  }
}

/** A column's cells as upstream's f-string puts them in a file name. */
export function listedIds(table: Table, column: string, listedIn: string): string[] {
  const col = tableColumn(table, column, listedIn);
  // Python's str(), not JavaScript's: a float id 12 is "12.0", a missing one "nan".
  return Array.from({ length: table.rowCount }, (_, i) => pyStrAt(col, i));
}

/** `copyListed` over one column of a table, e.g. every `id` of a split to `<id>.jpg`. */
export function copyListedFiles(table: Table, column: string, o: ListedCopy): void {
  copyListed(listedIds(table, column, o.listedIn), o);
}
