import fs from "node:fs";
import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";

/** Share of rated films held out as the test set (plain random split: the target is continuous). */
const TEST_FRACTION = 0.3;
const SEED = 20100;

type Kind = "int" | "float" | "string" | "date";

/**
 * Source fields kept as features, in source order, renamed to snake_case. Title is withheld:
 * a title lets an agent recall a famous film's IMDB rating from memory instead of modelling it.
 * IMDB Votes (a popularity count) and the Rotten Tomatoes critic score are kept: neither is
 * computed from the IMDB rating, and both are legitimate information about a released film.
 */
const FEATURES: [source: string, name: string, kind: Kind][] = [
  ["US Gross", "us_gross", "float"],
  ["Worldwide Gross", "worldwide_gross", "float"],
  ["US DVD Sales", "us_dvd_sales", "float"],
  ["Production Budget", "production_budget", "float"],
  ["Release Date", "release_date", "date"],
  ["MPAA Rating", "mpaa_rating", "string"],
  ["Running Time min", "running_time_min", "float"],
  ["Distributor", "distributor", "string"],
  ["Source", "source", "string"],
  ["Major Genre", "major_genre", "string"],
  ["Creative Type", "creative_type", "string"],
  ["Director", "director", "string"],
  ["Rotten Tomatoes Rating", "rotten_tomatoes_rating", "float"],
  ["IMDB Votes", "imdb_votes", "int"],
];

const TARGET_SOURCE = "IMDB Rating";
const TARGET = "imdb_rating";

/**
 * The source stores two-digit years, so films from 1915–1946 appear as 2015–2046. The data
 * was compiled around 2010 and its latest genuine releases are scheduled for 2011, so any
 * later year is one century too late.
 */
const LAST_REAL_YEAR = 2011;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DATE_RE = /^([A-Z][a-z]{2}) (\d{2}) (\d{4})$/;

type Value = number | string | null;

/** One validated source record: its title (for duplicate detection), features and rating. */
export interface Film {
  title: string | null;
  features: Value[];
  rating: number | null;
}

/** A release date such as "Jun 12 1998" as ISO "1998-06-12", with the century repaired; null if malformed. */
export function isoReleaseDate(text: string): string | null {
  const m = DATE_RE.exec(text);
  if (!m) return null;
  const month = MONTHS.indexOf(m[1]) + 1;
  const day = Number(m[2]);
  let year = Number(m[3]);
  if (month === 0 || day < 1 || day > 31) return null;
  if (year > LAST_REAL_YEAR) year -= 100;
  return `${year}-${String(month).padStart(2, "0")}-${m[2]}`;
}

/** Check one JSON record's fields against the types this preparer relies on. */
function parseFilm(record: unknown, index: number, file: string): Film {
  const where = (title: string | null) => `${path.basename(file)} record ${index}${title === null ? "" : ` (${JSON.stringify(title)})`}`;
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    throw new Error(`${where(null)}: expected an object, got ${JSON.stringify(record)}`);
  }
  const r = record as Record<string, unknown>;
  // A handful of titles are bare numbers ("300", "2012"); they are still titles.
  const rawTitle = r.Title;
  if (rawTitle !== null && typeof rawTitle !== "string" && typeof rawTitle !== "number") {
    throw new Error(`${where(null)}: "Title" must be text, a number or null, got ${JSON.stringify(rawTitle)}`);
  }
  const title = rawTitle === null ? null : String(rawTitle);
  const field = (name: string): unknown => {
    if (!(name in r)) throw new Error(`${where(title)}: has no "${name}" field`);
    return r[name];
  };
  const bad = (name: string, want: string, got: unknown) =>
    new Error(`${where(title)}: "${name}" must be ${want}, got ${JSON.stringify(got)}`);
  const number = (name: string, integer: boolean): number | null => {
    const v = field(name);
    if (v === null) return null;
    if (typeof v !== "number" || !Number.isFinite(v) || (integer && !Number.isInteger(v))) {
      throw bad(name, integer ? "an integer or null" : "a finite number or null", v);
    }
    return v;
  };
  const features = FEATURES.map(([source, , kind]): Value => {
    switch (kind) {
      case "int":
      case "float":
        return number(source, kind === "int");
      case "string": {
        const v = field(source);
        if (v !== null && typeof v !== "string") throw bad(source, "text or null", v);
        return v;
      }
      case "date": {
        const v = field(source);
        const iso = typeof v === "string" ? isoReleaseDate(v) : null;
        if (iso === null) throw bad(source, 'a date like "Jun 12 1998"', v);
        return iso;
      }
    }
  });
  const rating = number(TARGET_SOURCE, false);
  if (rating !== null && (rating < 1 || rating > 10)) throw bad(TARGET_SOURCE, "between 1 and 10 or null", rating);
  return { title, features, rating };
}

/** Parse and validate the whole movies file. */
function readFilms(file: string): Film[] {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(data)) throw new Error(`${file}: expected a JSON array of films`);
  return data.map((record, i) => parseFilm(record, i, file));
}

/**
 * The films that make up the competition: those with an IMDB rating, except films whose title
 * occurs more than once in the source. The IMDB columns were joined on title, so a remake and
 * its original carry the same rating and votes, and which film they belong to is unknown.
 */
export function competitionFilms(file: string): Film[] {
  const films = readFilms(file);
  const titleCount = new Map<string, number>();
  for (const f of films) if (f.title !== null) titleCount.set(f.title, (titleCount.get(f.title) ?? 0) + 1);
  return films.filter((f) => f.rating !== null && (f.title === null || titleCount.get(f.title) === 1));
}

/**
 * Split the rated films 70/30 into a labelled train set and an unlabelled test set. Ids come
 * from a seeded shuffle, so they carry no information about the source's order.
 */
export function prepare(ctx: PrepareContext): void {
  const films = competitionFilms(ctx.sources.movies);
  const rng = new Mulberry32(SEED);
  const order = rng.shuffle(films.map((_, i) => i));
  const testRows = new Set(order.slice(0, Math.round(films.length * TEST_FRACTION)));
  // A second shuffle for the ids, so an id says nothing about the side of the split either.
  const idOrder = rng.shuffle(films.map((_, i) => i));
  const filmId = new Map(idOrder.map((row, k) => [row, k + 1]));
  const byId = (rows: number[]) => rows.sort((a, b) => filmId.get(a)! - filmId.get(b)!);
  const train = byId(order.filter((i) => !testRows.has(i)));
  const test = byId(order.filter((i) => testRows.has(i)));

  const feature = (k: number, rows: number[]): Column => {
    const kind = FEATURES[k][2];
    if (kind === "string" || kind === "date") return { kind: "string", values: rows.map((i) => films[i].features[k] as string | null) };
    const values = Float64Array.from(rows, (i) => (films[i].features[k] === null ? NaN : (films[i].features[k] as number)));
    // pandas reads an integer column with gaps as float64, so only gap-free columns may stay "int".
    if (kind === "int" && values.some(Number.isNaN)) throw new Error(`"${FEATURES[k][0]}" has missing values among rated films`);
    return { kind, values };
  };
  const features = (rows: number[]) => FEATURES.map(([, name], k) => [name, feature(k, rows)] as [string, Column]);
  const ids = (rows: number[]): Column => ({ kind: "int", values: Float64Array.from(rows, (i) => filmId.get(i)!) });
  const target = (rows: number[]): Column => ({ kind: "float", values: Float64Array.from(rows, (i) => films[i].rating!) });

  // The sample submission predicts the train mean, to one decimal as the ratings themselves are.
  const mean = train.reduce((s, i) => s + films[i].rating!, 0) / train.length;
  const constant = Math.round(mean * 10) / 10;

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([["id", ids(train)], ...features(train), [TARGET, target(train)]]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([["id", ids(test)], ...features(test)]));
  writeCsv(
    path.join(ctx.public, "sample_submission.csv"),
    makeTable([["id", ids(test)], [TARGET, { kind: "float", values: new Float64Array(test.length).fill(constant) }]]),
  );
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([["id", ids(test)], [TARGET, target(test)]]));
}
