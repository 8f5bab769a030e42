import fs from "node:fs";
import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { indices, randomIds } from "../_shared/random-ids.js";
import { requiredText, sourceColumn, textValues } from "../_shared/source-columns.js";

/** Share of each day's flights held out as the test set. */
const TEST_FRACTION = 0.3;
const SEED = 20010331;

/** One flight of the source, checked. */
export interface Flight {
  /** YYYY-MM-DD. */
  date: string;
  /** HH:MM, 24-hour local clock. */
  time: string;
  /** Arrival delay in minutes; negative when the flight arrived early. */
  delay: number;
  /** Miles. */
  distance: number;
  origin: string;
  destination: string;
}

/** One airport of the published airport table. */
interface Airport {
  name: string;
  city: string | null;
  state: string | null;
  latitude: number;
  longitude: number;
}

const STAMP = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2})$/;
const CODE = /^[A-Z0-9]{3}$/;

/** The source's flights, each field checked; errors name the file, the record and the field. */
export function readFlights(file: string): Flight[] {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(data)) throw new Error(`${file}: expected a JSON array of flights`);
  return data.map((record: unknown, i) => {
    const where = `${file}: record ${i + 1}`;
    if (record === null || typeof record !== "object" || Array.isArray(record)) throw new Error(`${where} is not an object`);
    const r = record as Record<string, unknown>;
    const text = (key: string, pattern: RegExp, expected: string): string => {
      const v = r[key];
      if (typeof v !== "string" || !pattern.test(v)) throw new Error(`${where} has ${key} ${JSON.stringify(v)}, expected ${expected}`);
      return v;
    };
    const whole = (key: string, ok: (v: number) => boolean, expected: string): number => {
      const v = r[key];
      if (typeof v !== "number" || !Number.isInteger(v) || !ok(v)) throw new Error(`${where} has ${key} ${JSON.stringify(v)}, expected ${expected}`);
      return v;
    };
    const stamp = text("date", STAMP, 'a time stamp "YYYY/MM/DD HH:MM"');
    const [, y, mo, d, h, mi] = STAMP.exec(stamp)!.map(Number);
    const at = new Date(Date.UTC(y, mo - 1, d));
    if (at.getUTCFullYear() !== y || at.getUTCMonth() !== mo - 1 || at.getUTCDate() !== d || h > 23 || mi > 59) {
      throw new Error(`${where} has date "${stamp}", which is not a real date and time`);
    }
    const origin = text("origin", CODE, "a three-character airport code");
    const destination = text("destination", CODE, "a three-character airport code");
    if (origin === destination) throw new Error(`${where} flies from ${origin} to itself`);
    return {
      date: stamp.slice(0, 10).replaceAll("/", "-"),
      time: stamp.slice(11),
      // A delay of more than a day would be a data error rather than a late flight.
      delay: whole("delay", (v) => Math.abs(v) <= 24 * 60, "a whole number of minutes within a day"),
      distance: whole("distance", (v) => v > 0, "a positive whole number of miles"),
      origin,
      destination,
    };
  });
}

/** The airports named by `codes`, from the source's airport table; an error names a missing or repeated code. */
function readAirports(file: string, codes: readonly string[]): Map<string, Airport> {
  const source = readCsv(file, { file });
  const column = (name: string) => sourceColumn(source, name, file);
  const iata = requiredText(column("iata"), "iata", file);
  const names = requiredText(column("name"), "name", file);
  const cities = textValues(column("city"), "city", file);
  const states = textValues(column("state"), "state", file);
  const coordinate = (name: string, limit: number): Float64Array => {
    const col = column(name);
    if (col.kind !== "float") throw new Error(`${file}: column "${name}" should hold decimal degrees, but it was read as ${col.kind}`);
    col.values.forEach((v, i) => {
      if (!(Math.abs(v) <= limit)) throw new Error(`${file}: data row ${i + 1} (${iata[i]}) has ${name} ${v}, expected a number within ±${limit}`);
    });
    return col.values;
  };
  const latitude = coordinate("latitude", 90);
  const longitude = coordinate("longitude", 180);
  const rowOf = new Map<string, number>();
  iata.forEach((code, i) => {
    if (rowOf.has(code)) throw new Error(`${file}: airport code ${code} is listed twice (data rows ${rowOf.get(code)! + 1} and ${i + 1})`);
    rowOf.set(code, i);
  });
  const airports = new Map<string, Airport>();
  for (const code of codes) {
    const i = rowOf.get(code);
    if (i === undefined) throw new Error(`${file}: no airport with code ${code}, which a flight uses`);
    airports.set(code, { name: names[i], city: cities[i], state: states[i], latitude: latitude[i], longitude: longitude[i] });
  }
  return airports;
}

/**
 * The test flights: on every day, a seeded shuffle of that day's flights (in source order) puts
 * round(TEST_FRACTION × n) of them in the test set, so each day is split alike and every test day
 * keeps training flights.
 */
export function testFlights(flights: readonly Flight[], rng: Mulberry32): Set<number> {
  const byDay = new Map<string, number[]>();
  flights.forEach((f, i) => {
    const day = byDay.get(f.date);
    if (day) day.push(i);
    else byDay.set(f.date, [i]);
  });
  const test = new Set<number>();
  for (const day of [...byDay.keys()].sort()) {
    const rows = rng.shuffle([...byDay.get(day)!]);
    for (const i of rows.slice(0, Math.round(rows.length * TEST_FRACTION))) test.add(i);
  }
  return test;
}

/**
 * Split the 20,000 US domestic flights of January–March 2001 at random within each day: about
 * 30% of every day's flights are the test set, the rest the training set, so the training
 * flights of a day tell what that day was like (weather, congestion) at its airports and hours.
 * Ids come from a separate seeded shuffle, so they say nothing about the date or the side of the
 * split; each file is sorted by id. The airports the flights use are published beside them with
 * their location.
 */
export function prepare(ctx: PrepareContext): void {
  const flights = readFlights(ctx.sources.flights);
  const codes = [...new Set(flights.flatMap((f) => [f.origin, f.destination]))].sort();
  const airports = readAirports(ctx.sources.airports, codes);

  const rng = new Mulberry32(SEED);
  const id = randomIds(rng, indices(flights.length));
  const held = testFlights(flights, rng);
  const all = id.sortById(indices(flights.length));
  const train = all.filter((i) => !held.has(i));
  const test = all.filter((i) => held.has(i));

  const text = (rows: number[], value: (f: Flight) => string): Column => ({ kind: "string", values: rows.map((i) => value(flights[i])) });
  const int = (rows: number[], value: (f: Flight) => number): Column => ({ kind: "int", values: Float64Array.from(rows, (i) => value(flights[i])) });
  const features = (rows: number[]): [string, Column][] => [
    id.column(rows),
    ["date", text(rows, (f) => f.date)],
    ["departure_time", text(rows, (f) => f.time)],
    ["origin", text(rows, (f) => f.origin)],
    ["destination", text(rows, (f) => f.destination)],
    ["distance", int(rows, (f) => f.distance)],
  ];
  const delay = (rows: number[]): [string, Column] => ["delay", int(rows, (f) => f.delay)];

  // The sample submission predicts the mean training delay, the best constant under RMSE.
  const mean = train.reduce((sum, i) => sum + flights[i].delay, 0) / train.length;
  const sample: Column = { kind: "float", values: new Float64Array(test.length).fill(mean) };

  const place = codes.map((c) => airports.get(c)!);
  const airportTable = makeTable([
    ["code", { kind: "string", values: codes }],
    ["name", { kind: "string", values: place.map((a) => a.name) }],
    ["city", { kind: "string", values: place.map((a) => a.city) }],
    ["state", { kind: "string", values: place.map((a) => a.state) }],
    ["latitude", { kind: "float", values: Float64Array.from(place, (a) => a.latitude) }],
    ["longitude", { kind: "float", values: Float64Array.from(place, (a) => a.longitude) }],
  ]);

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([...features(train), delay(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable(features(test)));
  writeCsv(path.join(ctx.public, "airports.csv"), airportTable);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([id.column(test), ["delay", sample]]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([id.column(test), delay(test)]));
}
