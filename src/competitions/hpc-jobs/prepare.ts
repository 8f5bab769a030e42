import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable, takeColumn } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { indices, randomIds } from "../_shared/random-ids.js";
import { requiredText, sourceColumn } from "../_shared/source-columns.js";
import { CLASSES } from "./grade.js";

/** Share of jobs held out as the test set, in each class. */
const TEST_FRACTION = 0.3;
const SEED = 1104;

export const TARGET = "class";

/** modeldata's `hpc_data` columns besides the class, in the source's order; all are published. */
export const FEATURES = ["protocol", "compounds", "input_fields", "iterations", "num_pending", "hour", "day"];

/**
 * Split the 4,331 jobs 70/30, stratified by class, so that the rare long jobs are as common in
 * the test set as in training. Ids come from a second shuffle, so they say nothing about the
 * source's order (which follows the protocol) or the side of the split.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.jobs;
  const source = readCsv(file, { file });
  const unexpected = source.columns.filter((c) => c !== TARGET && !FEATURES.includes(c));
  if (unexpected.length > 0) throw new Error(`${file}: unexpected column(s) ${unexpected.join(", ")}; the preparer knows ${FEATURES.length + 1}`);
  const columns = FEATURES.map((name) => sourceColumn(source, name, file));
  const label = requiredText(sourceColumn(source, TARGET, file), TARGET, file);
  label.forEach((v, i) => {
    if (!(CLASSES as readonly string[]).includes(v)) throw new Error(`${file}: data row ${i + 1} has ${TARGET} "${v}", expected one of ${CLASSES.join(", ")}`);
  });

  const n = source.rowCount;
  const rng = new Mulberry32(SEED);
  const isTest = new Uint8Array(n);
  for (const c of CLASSES) {
    const rows = rng.shuffle(indices(n).filter((i) => label[i] === c));
    for (const i of rows.slice(0, Math.round(rows.length * TEST_FRACTION))) isTest[i] = 1;
  }
  const id = randomIds(rng, indices(n));
  const train = id.sortById(indices(n).filter((i) => !isTest[i]));
  const test = id.sortById(indices(n).filter((i) => isTest[i]));

  const ids = id.column;
  const features = (rows: number[]): [string, Column][] => FEATURES.map((name, k) => [name, takeColumn(columns[k], rows)]);
  const target = (rows: number[]): [string, Column] => [TARGET, { kind: "string", values: rows.map((i) => label[i]) }];

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), ...features(train), target(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), ...features(test)]));
  // The sample submission predicts the most common class, very fast, for every job.
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), [TARGET, { kind: "string", values: test.map(() => "VF") }]]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), target(test)]));
}
