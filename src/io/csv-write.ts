/**
 * CSV output byte-for-byte like pandas' `DataFrame.to_csv(path, index=False)`: "\n" line ends,
 * Python csv QUOTE_MINIMAL quoting, floats as Python repr, missing values as empty fields.
 * With `{ quoting: "nonnumeric" }`, `to_csv(..., quoting=csv.QUOTE_NONNUMERIC)` instead; with
 * `{ sep: "\t" }`, `to_csv(..., sep="\t")`.
 */
import type { Column, Table } from "../core/table.js";
import { writeFileAtomic } from "../core/atomic.js";
import { pyFloatReprFast } from "../pycompat/pyfloat.js";

// CPython's csv writer (3.11.9+, gh-67044) quotes \r and \n whatever the line terminator;
// older 3.11 releases left a bare \r unquoted, which made the file unreadable by read_csv.
const NEEDS_QUOTE = /[",\n\r]/;
const NEEDS_QUOTE_TAB = /[\t"\n\r]/;
const QUOTE_RE = /"/g;

/** A field as Python's csv module writes it with QUOTE_MINIMAL and delimiter ",". */
function quoteField(s: string): string {
  return NEEDS_QUOTE.test(s) ? `"${s.replace(QUOTE_RE, '""')}"` : s;
}

/** The same with delimiter "\t": a comma no longer needs quotes, a tab does. */
function quoteFieldTab(s: string): string {
  return NEEDS_QUOTE_TAB.test(s) ? `"${s.replace(QUOTE_RE, '""')}"` : s;
}

/** Python's `repr(float)`, with a shortcut for the common case where JavaScript's text already agrees. */
function floatText(v: number): string {
  return v !== v ? "" : pyFloatReprFast(v);
}

function cellText(col: Column, i: number, quote: (s: string) => string): string {
  switch (col.kind) {
    case "float":
      return floatText(col.values[i]);
    case "int":
      // Integral and within ±2^53, so String() prints plain digits ("-0" prints as "0", like numpy's int64).
      return String(col.values[i]);
    case "bigint":
      return col.values[i].toString();
    case "bool":
      return col.values[i] ? "True" : "False";
    case "string": {
      const v = col.values[i];
      return v === null ? "" : quote(v);
    }
    case "object": {
      const v = col.values[i];
      return v === null ? "" : v ? "True" : "False";
    }
  }
}

/**
 * How fields are quoted: "minimal" is to_csv's default (csv.QUOTE_MINIMAL); "nonnumeric" is
 * `quoting=csv.QUOTE_NONNUMERIC`, where pandas hands ints, floats and bools to the csv module as
 * numbers (written bare) and every text cell, header name and missing value as a string (quoted,
 * so a missing value is `""`).
 */
export type CsvQuoting = "minimal" | "nonnumeric";

/** Options for {@link writeCsv}, {@link formatCsv} and {@link formatCsvChunks}. */
export interface CsvWriteOptions {
  quoting?: CsvQuoting;
  /** Field delimiter (default ","). */
  sep?: "," | "\t";
}

/** A field as Python's csv module writes it with QUOTE_NONNUMERIC once pandas has turned it into a str. */
function quoteAlways(s: string): string {
  return `"${s.replace(QUOTE_RE, '""')}"`;
}

function cellTextNonNumeric(col: Column, i: number, quote: (s: string) => string): string {
  switch (col.kind) {
    case "float": {
      const v = col.values[i];
      // pandas replaces NaN by na_rep, a str, before the csv module sees it.
      return v !== v ? '""' : floatText(v);
    }
    case "int":
    case "bigint":
    case "bool":
      return cellText(col, i, quote);
    case "string": {
      const v = col.values[i];
      return v === null ? '""' : quoteAlways(v);
    }
    case "object": {
      const v = col.values[i];
      return v === null ? '""' : v ? "True" : "False";
    }
  }
}

/** Python's csv writer turns a record that is one empty field into `""`, so it doesn't read back as a blank line. */
function joinRecord(fields: string[], sep: string): string {
  if (fields.length === 1 && fields[0] === "") return '""';
  return fields.join(sep);
}

/** The CSV text of `table` in pieces of roughly `chunkChars` characters, so huge tables never become one string. */
export function* formatCsvChunks(
  table: Table,
  chunkChars = 1 << 20,
  options: CsvWriteOptions = {},
): Generator<string, void, undefined> {
  const nonNumeric = options.quoting === "nonnumeric";
  const cell = nonNumeric ? cellTextNonNumeric : cellText;
  const sep = options.sep ?? ",";
  const quote = sep === "," ? quoteField : quoteFieldTab;
  const cols = table.columns.map((name) => {
    const col = table.data.get(name);
    if (!col) throw new Error(`table has no data for column '${name}'`);
    return col;
  });
  const ncols = cols.length;
  let buf = joinRecord(table.columns.map(nonNumeric ? quoteAlways : quote), sep) + "\n";
  for (let i = 0; i < table.rowCount; i++) {
    if (ncols === 1) buf += joinRecord([cell(cols[0], i, quote)], sep) + "\n";
    else {
      let line = cell(cols[0], i, quote);
      for (let j = 1; j < ncols; j++) line += sep + cell(cols[j], i, quote);
      buf += line + "\n";
    }
    if (buf.length >= chunkChars) {
      yield buf;
      buf = "";
    }
  }
  if (buf.length > 0) yield buf;
}

/** The CSV text pandas' `to_csv(index=False)` would write for `table`. */
export function formatCsv(table: Table, options: CsvWriteOptions = {}): string {
  let out = "";
  for (const piece of formatCsvChunks(table, undefined, options)) out += piece;
  return out;
}

/** Write `table` to `path` as pandas' `to_csv(path, index=False)` would, atomically and in chunks. */
export function writeCsv(path: string, table: Table, options: CsvWriteOptions = {}): void {
  writeFileAtomic(path, formatCsvChunks(table, undefined, options));
}
