import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { cellAt, type Column, makeTable, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { indices, randomIds } from "../_shared/random-ids.js";
import { requiredText, sourceColumn } from "../_shared/source-columns.js";

const SEED = 20110213;

/** The source's label column and the published 0/1 target derived from it. */
const SOURCE_LABEL = "class";
export const TARGET = "successful";
const LABELS: Record<string, number> = { successful: 1, unsuccessful: 0 };

/** The source's text features (codes and calendar names); every other feature is a count or a day number. */
export const TEXT_FEATURES = ["sponsor_code", "contract_value_band", "category_code", "month", "weekday"];

interface Source {
  file: string;
  table: Table;
  label: number[];
}

/** The first data row (1-based) of a numeric column that does not hold a whole number, or 0 when all do. */
function firstNonInteger(col: Column): number {
  if (col.kind === "int") return 0;
  for (let i = 0; i < col.values.length; i++) {
    const v = cellAt(col, i);
    const ok = typeof v === "number" ? Number.isInteger(v) : typeof v === "string" && /^-?\d+$/.test(v.trim());
    if (!ok) return i + 1;
  }
  return 0;
}

/** One exported data frame of applications, checked: known labels, filled codes, whole-number counts. */
function readApplications(file: string): Source {
  const table = readCsv(file, { file, text: [SOURCE_LABEL, ...TEXT_FEATURES] });
  const label = requiredText(sourceColumn(table, SOURCE_LABEL, file), SOURCE_LABEL, file).map((v, i) => {
    const y = LABELS[v];
    if (y === undefined) throw new Error(`${file}: data row ${i + 1} has ${SOURCE_LABEL} "${v}", expected "successful" or "unsuccessful"`);
    return y;
  });
  for (const name of TEXT_FEATURES) requiredText(sourceColumn(table, name, file), name, file);
  for (const name of table.columns) {
    if (name === SOURCE_LABEL || TEXT_FEATURES.includes(name)) continue;
    const bad = firstNonInteger(sourceColumn(table, name, file));
    if (bad > 0) {
      const cell = cellAt(table.data.get(name)!, bad - 1);
      throw new Error(`${file}: column "${name}" should hold whole numbers, but data row ${bad} holds ${cell === null ? "nothing" : typeof cell === "string" ? `"${cell}"` : String(cell)}`);
    }
  }
  return { file, table, label };
}

/** The 1-based row numbers listed in the one-column export of an integer vector, each checked against `rows`. */
function readRowNumbers(file: string, rows: number): Set<number> {
  const table = readCsv(file, { file });
  if (table.columns.length !== 1) throw new Error(`${file}: expected one column of row numbers, found ${table.columns.length}`);
  const col = table.data.get(table.columns[0])!;
  const seen = new Set<number>();
  for (let i = 0; i < table.rowCount; i++) {
    const v = cellAt(col, i);
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > rows || seen.has(v)) {
      throw new Error(`${file}: data row ${i + 1} holds ${String(v)}, expected a row number from 1 to ${rows} listed once`);
    }
    seen.add(v);
  }
  return seen;
}

/**
 * A time-based split of the University of Melbourne grant applications: the package marks which
 * of `grants_other`'s rows were submitted before 2008; those are the training set, and every 2008
 * application (the rest of `grants_other` and all of `grants_test`) is the test set, so models
 * are judged on a later year than the one they learn from. The year itself is not published (it
 * would only say which side a row is on). A test application whose every feature equals a
 * training one's would be dropped; none does in the package's version. Ids come from a seeded
 * shuffle of all rows, and each file is sorted by id.
 */
export function prepare(ctx: PrepareContext): void {
  const other = readApplications(ctx.sources.other);
  const later = readApplications(ctx.sources.test);
  if (later.table.columns.join("\u0000") !== other.table.columns.join("\u0000")) {
    const missing = other.table.columns.filter((c) => !later.table.columns.includes(c));
    const extra = later.table.columns.filter((c) => !other.table.columns.includes(c));
    throw new Error(`${later.file}: its columns differ from ${other.file}'s (missing: ${missing.join(", ") || "none"}; extra: ${extra.join(", ") || "none"}; or in another order)`);
  }
  const early = readRowNumbers(ctx.sources.before2008, other.table.rowCount);
  const features = other.table.columns.filter((c) => c !== SOURCE_LABEL);

  // Pool both frames: rows 0 … n_other − 1 are grants_other's, the rest grants_test's.
  const nOther = other.table.rowCount;
  const n = nOther + later.table.rowCount;
  const cell = (k: number, name: string) => (k < nOther ? cellAt(other.table.data.get(name)!, k) : cellAt(later.table.data.get(name)!, k - nOther));
  const key = (k: number) => JSON.stringify(features.map((name) => cell(k, name)));
  const label = [...other.label, ...later.label];

  const trainRows = indices(nOther).filter((k) => early.has(k + 1));
  const trainKeys = new Set(trainRows.map(key));
  const testRows = indices(n).filter((k) => !(k < nOther && early.has(k + 1)) && !trainKeys.has(key(k)));

  const rng = new Mulberry32(SEED);
  const ids = randomIds(rng, [...trainRows, ...testRows]);
  const train = ids.sortById(trainRows);
  const test = ids.sortById(testRows);

  const column = (name: string, rows: number[]): [string, Column] => {
    const values = rows.map((k) => cell(k, name));
    if (TEXT_FEATURES.includes(name)) return [name, { kind: "string", values: values as string[] }];
    return [name, { kind: "int", values: Float64Array.from(values, Number) }];
  };
  const featureColumns = (rows: number[]) => features.map((name) => column(name, rows));
  const target = (rows: number[]): [string, Column] => [TARGET, { kind: "int", values: Float64Array.from(rows, (k) => label[k]) }];

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids.column(train), ...featureColumns(train), target(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids.column(test), ...featureColumns(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids.column(test), [TARGET, { kind: "float", values: new Float64Array(test.length).fill(0.5) }]]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids.column(test), target(test)]));
}
