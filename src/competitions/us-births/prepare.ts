import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { indices, randomIds } from "../_shared/random-ids.js";
import { sourceColumn } from "../_shared/source-columns.js";

/** The first day of the test period: the last two years of the series are forecast. */
export const FIRST_TEST_DAY = "1987-01-01";
const SEED = 19881231;

/** Source columns, all whole numbers; `day_of_week` counts Monday as 1 and Sunday as 7. */
const CALENDAR = ["year", "month", "date_of_month", "day_of_week"] as const;
/** The source's count column, and the name the published files give it. */
const SOURCE_TARGET = "births";
const TARGET = "count";

interface Day {
  date: string;
  year: number;
  month: number;
  day: number;
  weekday: number;
  births: number;
}

/** The source's days, checked: whole numbers, real calendar dates with the right weekday, one row per day, no gaps. */
function readDays(file: string): Day[] {
  const source = readCsv(file, { file });
  const ints = (name: string): Float64Array => {
    const col = sourceColumn(source, name, file);
    if (col.kind !== "int") throw new Error(`${file}: column "${name}" should hold whole numbers, but it was read as ${col.kind}`);
    return col.values;
  };
  const [year, month, day, weekday] = CALENDAR.map(ints);
  const births = ints(SOURCE_TARGET);
  const days: Day[] = [];
  for (let i = 0; i < source.rowCount; i++) {
    const at = new Date(Date.UTC(year[i], month[i] - 1, day[i]));
    const date = `${year[i]}-${String(month[i]).padStart(2, "0")}-${String(day[i]).padStart(2, "0")}`;
    if (at.getUTCFullYear() !== year[i] || at.getUTCMonth() !== month[i] - 1 || at.getUTCDate() !== day[i]) {
      throw new Error(`${file}: data row ${i + 1} is not a calendar date (year ${year[i]}, month ${month[i]}, day ${day[i]})`);
    }
    const expected = ((at.getUTCDay() + 6) % 7) + 1;
    if (weekday[i] !== expected) throw new Error(`${file}: data row ${i + 1} (${date}) has day_of_week ${weekday[i]}, but that day is ${expected}`);
    if (!(births[i] > 0)) throw new Error(`${file}: data row ${i + 1} (${date}) has ${births[i]} births; a count must be positive`);
    if (i > 0 && at.getTime() - Date.UTC(year[i - 1], month[i - 1] - 1, day[i - 1]) !== 86_400_000) {
      throw new Error(`${file}: data row ${i + 1} (${date}) does not follow the day before it (${days[i - 1].date}); the series must be daily without gaps`);
    }
    days.push({ date, year: year[i], month: month[i], day: day[i], weekday: weekday[i], births: births[i] });
  }
  return days;
}

/**
 * Split the 7,305 days of US births (1969–1988) by time: the last two years, 1987 and 1988,
 * are the test set, to be forecast from every day before them. Ids come from a seeded shuffle
 * of all days, so they carry no information about the date; each file is sorted by id.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.births;
  const days = readDays(file);
  const n = days.length;
  const rng = new Mulberry32(SEED);
  const id = randomIds(rng, indices(n));
  const all = id.sortById(indices(n));
  const train = all.filter((i) => days[i].date < FIRST_TEST_DAY);
  const test = all.filter((i) => days[i].date >= FIRST_TEST_DAY);
  if (train.length === 0 || test.length === 0) throw new Error(`${file}: the series does not straddle ${FIRST_TEST_DAY}`);

  const int = (rows: number[], value: (d: Day) => number): Column => ({ kind: "int", values: Float64Array.from(rows, (i) => value(days[i])) });
  const features = (rows: number[]): [string, Column][] => [
    id.column(rows),
    ["date", { kind: "string", values: rows.map((i) => days[i].date) }],
    ["year", int(rows, (d) => d.year)],
    ["month", int(rows, (d) => d.month)],
    ["day_of_month", int(rows, (d) => d.day)],
    ["day_of_week", int(rows, (d) => d.weekday)],
  ];
  const births = (rows: number[]): [string, Column] => [TARGET, int(rows, (d) => d.births)];
  // The sample submission predicts the mean daily count of the last training year for every day.
  const lastTrainYear = Number(FIRST_TEST_DAY.slice(0, 4)) - 1;
  const lastYear = train.filter((i) => days[i].year === lastTrainYear);
  const level = Math.round(lastYear.reduce((s, i) => s + days[i].births, 0) / lastYear.length);

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([...features(train), births(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable(features(test)));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([id.column(test), [TARGET, { kind: "int", values: new Float64Array(test.length).fill(level) }]]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([id.column(test), births(test)]));
}
