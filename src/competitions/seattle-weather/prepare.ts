import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable, takeColumn } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { indices, randomIds } from "../_shared/random-ids.js";
import { oneHotColumns } from "../_shared/one-hot-columns.js";
import { requiredText, sourceColumn } from "../_shared/source-columns.js";
import { CLASSES } from "./grade.js";

/** Share of days, the most recent ones, held out as the test set. */
const TEST_FRACTION = 0.3;
const SEED = 20151231;

/** Feature columns copied from the source unchanged, in the source's order. */
const FEATURES = ["date", "precipitation", "temp_max", "temp_min", "wind"];

/**
 * Split the 1,461 days of Seattle weather (2012–2015) by time: the most recent 30% of days are
 * the test set, everything before them the training set, so models are judged on forecasting
 * days that come after all the days they learned from (a random split would let them
 * interpolate between neighbouring days). Ids come from a seeded shuffle of all days, so they
 * carry no information about the date; each file is sorted by id.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.weather;
  const source = readCsv(file, { file });
  const column = (name: string): Column => sourceColumn(source, name, file);
  const dates = requiredText(column("date"), "date", file);
  const weather = requiredText(column("weather"), "weather", file);
  weather.forEach((w, i) => {
    if (!CLASSES.includes(w)) throw new Error(`${file}: data row ${i + 1} has weather "${w}", not one of ${CLASSES.join(", ")}`);
  });

  const n = source.rowCount;
  const byDate = Array.from({ length: n }, (_, i) => i).sort((a, b) => (dates[a] < dates[b] ? -1 : dates[a] > dates[b] ? 1 : 0));
  for (let k = 1; k < n; k++) {
    // A repeated date would straddle the split boundary and make "after" ambiguous.
    if (dates[byDate[k]] === dates[byDate[k - 1]]) throw new Error(`${file}: date ${dates[byDate[k]]} appears twice`);
  }
  const testCount = Math.round(n * TEST_FRACTION);
  const testRows = new Set(byDate.slice(n - testCount));

  const rng = new Mulberry32(SEED);
  const { sortById, column: ids } = randomIds(rng, indices(n));
  const all = indices(n);
  const train = sortById(all.filter((i) => !testRows.has(i)));
  const test = sortById(all.filter((i) => testRows.has(i)));

  const features = (rows: number[]): [string, Column][] => FEATURES.map((name) => [name, takeColumn(column(name), rows)]);

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), ...features(train), ["weather", takeColumn(column("weather"), train)]]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), ...features(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), ...oneHotColumns(CLASSES, test, () => 1 / CLASSES.length, "float")]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), ...oneHotColumns(CLASSES, test, (i, cls) => (weather[i] === cls ? 1 : 0), "int")]));
}
