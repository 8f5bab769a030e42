import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable, takeColumn } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { requiredText, sourceColumn } from "../_shared/source-columns.js";

/** The challenge's own split: its first 5,822 customers were the training set, the other 4,000 the evaluation set. */
export const TRAIN_ROWS = 5822;
const SEED = 20000317;

export const TARGET = "CARAVAN";
const OWNER = "insurance";
const NOT_OWNER = "noinsurance";

/**
 * Split the 9,822 customers of the CoIL 2000 challenge as the challenge did: the first 5,822 rows
 * are the training set and the remaining 4,000 the test set. Every one of the 85 customer columns
 * is published as the package has it (ordered levels as their text labels); the caravan policy
 * becomes 1 for an owner and 0 otherwise. Ids come from a seeded shuffle of all rows, so they say
 * nothing about the source's order or the side of the split; each file is sorted by id.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.tic;
  const source = readCsv(file, { file });
  const n = source.rowCount;
  if (n <= TRAIN_ROWS) throw new Error(`${file}: ${n} rows, expected the challenge's ${TRAIN_ROWS} training rows and its test rows after them`);
  const features = source.columns.filter((c) => c !== TARGET);
  if (features.length !== 85) throw new Error(`${file}: ${features.length} columns besides ${TARGET}, expected the challenge's 85`);
  const label = Float64Array.from(requiredText(sourceColumn(source, TARGET, file), TARGET, file), (v, i) => {
    if (v === OWNER) return 1;
    if (v === NOT_OWNER) return 0;
    throw new Error(`${file}: data row ${i + 1} has ${TARGET} "${v}", expected "${OWNER}" or "${NOT_OWNER}"`);
  });
  for (const name of features) {
    const col = source.data.get(name)!;
    if (col.kind === "string") requiredText(col, name, file);
    else if (col.kind !== "int") throw new Error(`${file}: column "${name}" should hold whole numbers or levels, but it was read as ${col.kind}`);
  }

  const rng = new Mulberry32(SEED);
  const idOf = rng.shuffle(Array.from({ length: n }, (_, i) => i + 1));
  const byId = (rows: number[]) => rows.sort((a, b) => idOf[a] - idOf[b]);
  const all = Array.from({ length: n }, (_, i) => i);
  const train = byId(all.filter((i) => i < TRAIN_ROWS));
  const test = byId(all.filter((i) => i >= TRAIN_ROWS));

  const ids = (rows: number[]): [string, Column] => ["id", { kind: "int", values: Float64Array.from(rows, (i) => idOf[i]) }];
  const columns = (rows: number[]): [string, Column][] => features.map((name) => [name, takeColumn(source.data.get(name)!, rows)]);
  const target = (rows: number[]): [string, Column] => [TARGET, { kind: "int", values: Float64Array.from(rows, (i) => label[i]) }];

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), ...columns(train), target(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), ...columns(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), [TARGET, { kind: "float", values: new Float64Array(test.length).fill(0.5) }]]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), target(test)]));
}
