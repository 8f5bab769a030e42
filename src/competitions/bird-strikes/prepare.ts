import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable, takeColumn } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { randomIds } from "../_shared/random-ids.js";
import { requiredText, sourceColumn, textValues } from "../_shared/source-columns.js";

/** Share of strikes, the most recent ones, held out as the test set (whole days only). */
const TEST_FRACTION = 0.3;
const SEED = 20020725;

const DAMAGE = "Effect Amount of damage";
const DATE = "Flight Date";
/** The source's damage classes; "None" is the negative class, the others are damage. */
const NO_DAMAGE = "None";
const DAMAGED = ["Minor", "Medium", "Substantial"];

/**
 * Published columns, renamed from the source's. The three cost columns are left out: a repair
 * cost is only recorded when there was damage, so they would give the answer away.
 */
const FEATURES: [source: string, name: string][] = [
  ["Airport Name", "airport"],
  ["Aircraft Make Model", "aircraft"],
  ["Aircraft Airline Operator", "operator"],
  ["Origin State", "state"],
  [DATE, "flight_date"],
  ["Time of day", "time_of_day"],
  ["Phase of flight", "phase"],
  ["Speed IAS in knots", "speed_knots"],
  ["Wildlife Size", "wildlife_size"],
  ["Wildlife Species", "species"],
];

/**
 * Split the 10,000 wildlife strikes (1990–2002) by time: the strikes of the most recent days, 30%
 * of the labelled ones, are the test set, so models are judged on strikes that happened after
 * every strike they learned from; a day's strikes never straddle the boundary. Strikes whose
 * damage class is one of the source's two unexplained codes ("B", "C") are dropped rather than
 * guessed. Ids come from a seeded shuffle, so they carry no information about the date; each file
 * is sorted by id.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.strikes;
  const source = readCsv(file, { file });
  const column = (name: string): Column => sourceColumn(source, name, file);
  // Like pandas 2, the reader takes the literal "None" for a missing value; the source has no
  // empty damage cells (the recorded checksums would catch a release that had), so null is "None".
  const damage = textValues(column(DAMAGE), DAMAGE, file).map((v) => v ?? NO_DAMAGE);
  const dates = requiredText(column(DATE), DATE, file);
  dates.forEach((d, i) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) throw new Error(`${file}: data row ${i + 1} has ${DATE} "${d}", expected YYYY-MM-DD`);
  });

  const kept = Array.from({ length: source.rowCount }, (_, i) => i).filter((i) => damage[i] === NO_DAMAGE || DAMAGED.includes(damage[i]));
  const byDate = [...kept].sort((a, b) => (dates[a] < dates[b] ? -1 : dates[a] > dates[b] ? 1 : a - b));
  // The first test day is the one holding the strike at the 70% mark; all its strikes are test.
  const boundary = dates[byDate[kept.length - Math.round(kept.length * TEST_FRACTION)]];
  const isTest = (i: number) => dates[i] >= boundary;

  const rng = new Mulberry32(SEED);
  const { sortById, column: ids } = randomIds(rng, kept);
  const train = sortById(kept.filter((i) => !isTest(i)));
  const test = sortById(kept.filter(isTest));

  const features = (rows: number[]): [string, Column][] => FEATURES.map(([from, to]) => [to, takeColumn(column(from), rows)]);
  const label = (rows: number[]): [string, Column] => ["damaged", { kind: "int", values: Float64Array.from(rows, (i) => (damage[i] === NO_DAMAGE ? 0 : 1)) }];

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), ...features(train), label(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), ...features(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), ["damaged", { kind: "float", values: new Float64Array(test.length).fill(0.5) }]]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), label(test)]));
}
