import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { randomIds } from "../_shared/random-ids.js";
import { requiredText, sourceColumn } from "../_shared/source-columns.js";
import { stratifiedRows } from "../_shared/stratified-rows.js";
import { LETTERS } from "./grade.js";

/** Share of distinct records held out as the test set, per letter (stratified). */
const TEST_FRACTION = 0.3;
const SEED = 19910301;
/** Each feature is scaled by the source to an integer 0..15. */
const MAX_FEATURE = 15;
const LABEL = "lettr";

/** Published feature columns, renamed from the source's R names, in the source's order. */
export const FEATURES: [source: string, name: string][] = [
  ["x.box", "x_box"],
  ["y.box", "y_box"],
  ["width", "width"],
  ["high", "height"],
  ["onpix", "onpix"],
  ["x.bar", "x_bar"],
  ["y.bar", "y_bar"],
  ["x2bar", "x2_bar"],
  ["y2bar", "y2_bar"],
  ["xybar", "xy_bar"],
  ["x2ybr", "x2y_bar"],
  ["xy2br", "xy2_bar"],
  ["x.ege", "x_edge"],
  ["xegvy", "x_edge_y"],
  ["y.ege", "y_edge"],
  ["yegvx", "y_edge_x"],
];

/**
 * Split the 20,000 letter images' feature records into a labelled train set and an unlabelled
 * test set holding 30% of each letter. The 16 coarse integer features make 1,332 records exact
 * copies of earlier ones (always with the same letter); each distinct record is kept once, as
 * otherwise a test record could simply be looked up in train. Ids come from a second shuffle, so
 * they say nothing about the letter, the side of the split or the position in the source.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.letters;
  const source = readCsv(file, { file });
  const letters = requiredText(sourceColumn(source, LABEL, file), LABEL, file);
  letters.forEach((l, i) => {
    if (!LETTERS.includes(l)) throw new Error(`${file}: data row ${i + 1} has ${LABEL} "${l}", not a capital letter A-Z`);
  });
  const features = FEATURES.map(([name]) => {
    const col = sourceColumn(source, name, file);
    if (col.kind !== "int") throw new Error(`${file}: column "${name}" should hold integers, but it was read as ${col.kind}`);
    col.values.forEach((v, i) => {
      if (!(v >= 0 && v <= MAX_FEATURE)) throw new Error(`${file}: data row ${i + 1} has ${name} ${v}, not an integer in 0..${MAX_FEATURE}`);
    });
    return col.values;
  });

  const firstOf = new Map<string, number>();
  const kept: number[] = [];
  for (let i = 0; i < source.rowCount; i++) {
    const key = features.map((f) => f[i]).join(",");
    const first = firstOf.get(key);
    if (first === undefined) {
      firstOf.set(key, i);
      kept.push(i);
    } else if (letters[first] !== letters[i]) {
      // A record that stands for two letters would make the copies' answers contradict each other.
      throw new Error(`${file}: data rows ${first + 1} and ${i + 1} have the same features but ${LABEL} "${letters[first]}" and "${letters[i]}"`);
    }
  }

  const rng = new Mulberry32(SEED);
  const order = rng.shuffle([...kept]);
  const testRows = stratifiedRows(order, (i) => letters[i], LETTERS, TEST_FRACTION);
  const { sortById, column: ids } = randomIds(rng, kept);
  const train = sortById(kept.filter((i) => !testRows.has(i)));
  const test = sortById(kept.filter((i) => testRows.has(i)));

  const columns = (rows: number[]): [string, Column][] =>
    FEATURES.map(([, name], k) => [name, { kind: "int", values: Float64Array.from(rows, (i) => features[k][i]) }]);
  const label = (rows: number[], value: (row: number) => string): [string, Column] => ["char", { kind: "string", values: rows.map(value) }];

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), ...columns(train), label(train, (i) => letters[i])]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), ...columns(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), label(test, () => "A")]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), label(test, (i) => letters[i])]));
}
