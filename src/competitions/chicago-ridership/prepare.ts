import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { indices, randomIds } from "../_shared/random-ids.js";
import { requiredText, sourceColumn } from "../_shared/source-columns.js";

/** The first day of the test period: the last two years of the series (to 2016-08-28) are estimated. */
export const FIRST_TEST_DAY = "2014-08-29";
const SEED = 20160828;
export const TARGET = "ridership";

/** The day's weather, as the source records it. */
export const WEATHER = [
  "temp_min", "temp", "temp_max", "temp_change", "dew", "humidity", "pressure", "pressure_change", "wind", "wind_max", "gust",
  "gust_max", "percip", "percip_max", "weather_rain", "weather_snow", "weather_cloud", "weather_storm",
];
/** 1 when the team played that day, at home or away. */
export const GAMES = [
  "Blackhawks_Away", "Blackhawks_Home", "Bulls_Away", "Bulls_Home", "Bears_Away", "Bears_Home", "WhiteSox_Away", "WhiteSox_Home",
  "Cubs_Away", "Cubs_Home",
];
/**
 * The source's other columns: entries at 20 stations two weeks earlier (Clark_Lake is this
 * station's own count). Within the test period they are the test answers and their neighbours
 * two weeks on, so they are not published.
 */
const LAGGED_STATIONS = 20;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Split Chicago's daily entries at the Clark/Lake L station (modeldata's `Chicago`, 2001-01-22 to
 * 2016-08-28) by time: the last two years are the test set, estimated from the calendar, the
 * day's weather and the games played that day, with every earlier day as training data. The
 * series must be daily without gaps. Ids come from a seeded shuffle of all days, so they carry
 * no information about the date; each file is sorted by id.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.chicago;
  const source = readCsv(file, { file });
  const expected = 1 + 1 + LAGGED_STATIONS + WEATHER.length + GAMES.length;
  if (source.columns.length !== expected) throw new Error(`${file}: ${source.columns.length} columns, expected ${expected} (ridership, 20 lagged stations, weather, games, date)`);
  const dates = requiredText(sourceColumn(source, "date", file), "date", file);
  dates.forEach((d, i) => {
    if (!ISO_DAY.test(d) || Number.isNaN(Date.parse(`${d}T00:00:00Z`))) throw new Error(`${file}: data row ${i + 1} has date "${d}", expected YYYY-MM-DD`);
    if (i > 0 && Date.parse(`${d}T00:00:00Z`) - Date.parse(`${dates[i - 1]}T00:00:00Z`) !== 86_400_000) {
      throw new Error(`${file}: data row ${i + 1} (${d}) does not follow the day before it (${dates[i - 1]}); the series must be daily without gaps`);
    }
  });
  const numeric = (name: string): Float64Array => {
    const col = sourceColumn(source, name, file);
    if (col.kind !== "int" && col.kind !== "float") throw new Error(`${file}: column "${name}" should hold numbers, but it was read as ${col.kind}`);
    const bad = col.values.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) throw new Error(`${file}: data row ${bad + 1} (${dates[bad]}) has no value in "${name}"`);
    return col.values;
  };
  const ridership = numeric(TARGET);
  const weather = WEATHER.map(numeric);
  const games = GAMES.map((name) => {
    const v = numeric(name);
    const bad = v.findIndex((x) => x !== 0 && x !== 1);
    if (bad >= 0) throw new Error(`${file}: data row ${bad + 1} (${dates[bad]}) has ${name} ${v[bad]}, expected 0 or 1`);
    return v;
  });

  const n = source.rowCount;
  const id = randomIds(new Mulberry32(SEED), indices(n));
  const all = id.sortById(indices(n));
  const train = all.filter((i) => dates[i] < FIRST_TEST_DAY);
  const test = all.filter((i) => dates[i] >= FIRST_TEST_DAY);
  if (train.length === 0 || test.length === 0) throw new Error(`${file}: the series does not straddle ${FIRST_TEST_DAY}`);

  const take = (values: Float64Array, rows: number[], kind: "int" | "float"): Column => ({ kind, values: Float64Array.from(rows, (i) => values[i]) });
  const features = (rows: number[]): [string, Column][] => [
    id.column(rows),
    ["date", { kind: "string", values: rows.map((i) => dates[i]) }],
    ...WEATHER.map((name, k): [string, Column] => [name, take(weather[k], rows, "float")]),
    ...GAMES.map((name, k): [string, Column] => [name, take(games[k], rows, "int")]),
  ];
  const target = (rows: number[]): [string, Column] => [TARGET, take(ridership, rows, "float")];
  // The sample submission predicts the mean daily ridership of the last training year for every day.
  const lastYear = train.filter((i) => dates[i] >= `${Number(FIRST_TEST_DAY.slice(0, 4)) - 1}${FIRST_TEST_DAY.slice(4)}`);
  const level = Math.round((1000 * lastYear.reduce((s, i) => s + ridership[i], 0)) / lastYear.length) / 1000;

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([...features(train), target(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable(features(test)));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([id.column(test), [TARGET, { kind: "float", values: new Float64Array(test.length).fill(level) }]]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([id.column(test), target(test)]));
}
