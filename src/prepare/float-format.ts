/** Tables written as pandas' `to_csv(float_format="%.<p>g")` writes them (the formatting itself is pycompat/format-g.ts). */
import { makeTable, type Column, type Table } from "../core/table.js";
import { writeFileAtomic } from "../core/atomic.js";
import { formatCsv, formatCsvChunks } from "../io/csv-write.js";
import { formatG } from "../pycompat/format-g.js";
import { takeRows } from "./frame.js";

/**
 * The table pandas' `to_csv(float_format="%.<p>g")` would print: float columns become their
 * formatted text (NaN stays missing, written as an empty field); other columns are untouched.
 */
export function withFloatFormatG(t: Table, precision: number): Table {
  return makeTable(
    t.columns.map((name): [string, Column] => {
      const col = t.data.get(name)!;
      if (col.kind !== "float") return [name, col];
      const values = Array.from(col.values, (v) => (Number.isNaN(v) ? null : formatG(v, precision)));
      return [name, { kind: "string", values }];
    }),
  );
}

// The CSV text in slices of rows, so only one slice's floats are ever held as text.
function* floatFormattedChunks(t: Table, precision: number, sliceRows: number): Generator<string, void, undefined> {
  const header = formatCsv(takeRows(t, []));
  yield header;
  for (let start = 0; start < t.rowCount; start += sliceRows) {
    const end = Math.min(start + sliceRows, t.rowCount);
    const slice = withFloatFormatG(takeRows(t, Array.from({ length: end - start }, (_, i) => start + i)), precision);
    let first = true;
    for (const chunk of formatCsvChunks(slice)) {
      yield first ? chunk.slice(header.length) : chunk;
      first = false;
    }
  }
}

/** Write `t` as pandas' `to_csv(path, index=False, float_format="%.<precision>g")` would, a slice of rows at a time. */
export function writeCsvFloatG(file: string, t: Table, precision: number, sliceRows = 1 << 16): void {
  writeFileAtomic(file, floatFormattedChunks(t, precision, sliceRows));
}
