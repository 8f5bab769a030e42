import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { oneHotColumns } from "../_shared/one-hot-columns.js";
import { randomIds } from "../_shared/random-ids.js";
import { requiredText, sourceColumn } from "../_shared/source-columns.js";
import { stratifiedRows } from "../_shared/stratified-rows.js";
import { CLASSES } from "./grade.js";

/** Share of distinct sequences held out as the test set, per class (stratified). */
const TEST_FRACTION = 0.3;
const SEED = 19920601;
/** Nucleotides per sequence; the source encodes each one in three indicator columns. */
export const LENGTH = 60;
/** The source's three indicators of a nucleotide (StatLog's encoding), and the letter they stand for. */
const CODES: Record<string, string> = { "100": "A", "010": "C", "001": "G", "000": "T" };
/** Source class names and the names published. */
const CLASS_OF: Record<string, string> = { ei: "EI", ie: "IE", n: "N" };

/** The 0/1 cells of one indicator column, as R writes a two-level factor (quoted or bare). */
function bits(source: Table, name: string, file: string): string[] {
  const col = sourceColumn(source, name, file);
  const cells = col.kind === "string" ? col.values : col.kind === "int" ? Array.from(col.values, String) : null;
  if (cells === null) throw new Error(`${file}: column "${name}" should hold 0 or 1, but it was read as ${col.kind}`);
  return cells.map((v, i) => {
    if (v !== "0" && v !== "1") throw new Error(`${file}: data row ${i + 1} has ${name} ${JSON.stringify(v)}, expected 0 or 1`);
    return v;
  });
}

/** The 60-letter sequences the 180 indicator columns encode, or an error naming the row and position that is not a nucleotide. */
export function decodeSequences(source: Table, file: string): string[] {
  const columns = Array.from({ length: 3 * LENGTH }, (_, k) => bits(source, `V${k + 1}`, file));
  return Array.from({ length: source.rowCount }, (_, i) => {
    let s = "";
    for (let p = 0; p < LENGTH; p++) {
      const code = columns[3 * p][i] + columns[3 * p + 1][i] + columns[3 * p + 2][i];
      const letter = CODES[code];
      if (letter === undefined) throw new Error(`${file}: data row ${i + 1} encodes position ${p + 1} as ${code}, which is no nucleotide`);
      s += letter;
    }
    return s;
  });
}

/**
 * Split the StatLog primate splice-junction sequences (mlbench's `DNA`) into a labelled train set
 * and a test set holding 30% of each class. The source's 180 indicator columns are published as
 * the 60-letter sequence they encode. Of the 3,186 records, 185 repeat an earlier sequence; each
 * sequence is kept once (a test sequence could otherwise be looked up in train), and a sequence
 * the source labels with two different classes is dropped altogether. Ids come from a second
 * shuffle, so they say nothing about the class, the side of the split or the source's order.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.dna;
  const source = readCsv(file, { file });
  if (source.columns.length !== 3 * LENGTH + 1) throw new Error(`${file}: expected ${3 * LENGTH} indicator columns and Class, found ${source.columns.length} columns`);
  const classes = requiredText(sourceColumn(source, "Class", file), "Class", file).map((c, i) => {
    const name = CLASS_OF[c];
    if (name === undefined) throw new Error(`${file}: data row ${i + 1} has Class "${c}", expected one of ${Object.keys(CLASS_OF).join(", ")}`);
    return name;
  });
  const sequences = decodeSequences(source, file);

  const labelsOf = new Map<string, Set<string>>();
  sequences.forEach((s, i) => labelsOf.set(s, (labelsOf.get(s) ?? new Set()).add(classes[i])));
  const seen = new Set<string>();
  const kept: number[] = [];
  sequences.forEach((s, i) => {
    if (seen.has(s) || labelsOf.get(s)!.size > 1) return;
    seen.add(s);
    kept.push(i);
  });

  const rng = new Mulberry32(SEED);
  const order = rng.shuffle([...kept]);
  const testRows = stratifiedRows(order, (i) => classes[i], CLASSES, TEST_FRACTION);
  const { sortById, column: ids } = randomIds(rng, kept);
  const train = sortById(kept.filter((i) => !testRows.has(i)));
  const test = sortById(kept.filter((i) => testRows.has(i)));

  const sequence = (rows: number[]): [string, Column] => ["sequence", { kind: "string", values: rows.map((i) => sequences[i]) }];
  const label = (rows: number[]): [string, Column] => ["class", { kind: "string", values: rows.map((i) => classes[i]) }];

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), sequence(train), label(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), sequence(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), ...oneHotColumns(CLASSES, test, () => 1 / CLASSES.length, "float")]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), ...oneHotColumns(CLASSES, test, (i, c) => (classes[i] === c ? 1 : 0), "int")]));
}
