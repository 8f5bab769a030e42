import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { sourceColumn, textValues } from "../_shared/source-columns.js";

/** Share of users whose later ratings are held out; the others are published whole. */
export const TARGET_USER_FRACTION = 0.6;
/** Share of each target user's ratings, the latest ones, held out (whole rating times only). */
export const HELD_OUT_FRACTION = 0.2;
/** How many movies the sample submission (and every scored list) holds. */
export const LIST_LENGTH = 10;
const SEED = 20161016;

const RATING_COLUMNS = ["userId", "movieId", "rating", "timestamp"] as const;

/** The named source column, which must hold whole numbers in every row. */
function intValues(col: Column, name: string, file: string): Float64Array {
  if (col.kind !== "int") throw new Error(`${file}: column "${name}" should hold whole numbers in every row, but it was read as ${col.kind}`);
  return col.values;
}

/** A per-movie attribute that the source repeats on every rating row; every copy must agree. */
function perMovie<T>(movie: Float64Array, values: ArrayLike<T>, name: string, file: string): Map<number, T> {
  const out = new Map<number, T>();
  for (let i = 0; i < movie.length; i++) {
    const m = movie[i];
    if (!out.has(m)) out.set(m, values[i]);
    else if (out.get(m) !== values[i]) {
      throw new Error(`${file}: movie ${m} has ${name} "${String(values[i])}" in data row ${i + 1} but "${String(out.get(m))}" in an earlier row`);
    }
  }
  return out;
}

/**
 * The first held-out rating time of one user: the earliest of their rating times from which on
 * at most HELD_OUT_FRACTION of their ratings (rounded) fall, so that ratings made in the same
 * second never straddle the boundary. When the last time alone holds more than that, it is the
 * last time (every source user rated at two or more distinct times).
 */
export function heldOutStart(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  const quota = Math.round(sorted.length * HELD_OUT_FRACTION);
  let start = sorted[sorted.length - 1];
  for (let i = sorted.length - 1; i >= 0; i--) {
    if (i > 0 && sorted[i - 1] === sorted[i]) continue;
    if (sorted.length - i > quota) break;
    start = sorted[i];
  }
  return start;
}

/**
 * Split the 100,004 ratings (671 users, 9,066 movies, 1995–2016) for a top-10 recommendation
 * task. A seeded 60% of the users are target users: each one's latest 20% of ratings (whole
 * rating times only) are held out, and the task is to name the movies they rate then. Their
 * earlier ratings are test.csv; the complete histories of the other users are train.csv.
 * movies.csv describes every movie rated in a public file (and no other, so that the catalogue
 * does not reveal movies only the held-out period rates). User ids come from a seeded shuffle.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.ratings;
  const source = readCsv(file, { file });
  const column = (name: string): Column => sourceColumn(source, name, file);
  const [user, movie, , time] = RATING_COLUMNS.map((name) => (name === "rating" ? null : intValues(column(name), name, file)));
  const ratingCol = column("rating");
  if (ratingCol.kind !== "float" && ratingCol.kind !== "int") throw new Error(`${file}: column "rating" should hold numbers, but it was read as ${ratingCol.kind}`);
  const rating = ratingCol.values;
  const n = source.rowCount;
  const pairs = new Set<string>();
  for (let i = 0; i < n; i++) {
    if (!(rating[i] >= 0.5 && rating[i] <= 5 && Number.isInteger(rating[i] * 2))) {
      throw new Error(`${file}: data row ${i + 1} has rating ${rating[i]}, expected 0.5 to 5 in half stars`);
    }
    const pair = `${user![i]} ${movie![i]}`;
    if (pairs.has(pair)) throw new Error(`${file}: data row ${i + 1} rates movie ${movie![i]} by user ${user![i]} a second time`);
    pairs.add(pair);
  }
  const yearCol = column("year");
  if (yearCol.kind !== "float" && yearCol.kind !== "int") throw new Error(`${file}: column "year" should hold numbers, but it was read as ${yearCol.kind}`);
  const titles = perMovie(movie!, textValues(column("title"), "title", file), "title", file);
  const yearText = Array.from(yearCol.values, (v, i) => {
    if (Number.isNaN(v)) return null;
    if (!Number.isInteger(v)) throw new Error(`${file}: data row ${i + 1} has year ${v}, expected a whole year`);
    return String(v);
  });
  const years = perMovie(movie!, yearText, "year", file);
  const genresCol = column("genres");
  const genres = perMovie(movie!, textValues(genresCol, "genres", file), "genres", file);

  const rowsOf = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const rows = rowsOf.get(user![i]);
    if (rows) rows.push(i);
    else rowsOf.set(user![i], [i]);
  }
  const users = [...rowsOf.keys()].sort((a, b) => a - b);
  const rng = new Mulberry32(SEED);
  const targets = new Set(rng.shuffle([...users]).slice(0, Math.round(users.length * TARGET_USER_FRACTION)));
  const idOf = new Map(rng.shuffle([...users]).map((u, k) => [u, k + 1]));

  const train: number[] = [];
  const history: number[] = [];
  const heldOut = new Map<number, number[]>();
  for (const u of users) {
    const rows = rowsOf.get(u)!;
    if (!targets.has(u)) {
      train.push(...rows);
      continue;
    }
    const start = heldOutStart(rows.map((i) => time![i]));
    history.push(...rows.filter((i) => time![i] < start));
    heldOut.set(idOf.get(u)!, rows.filter((i) => time![i] >= start).map((i) => movie![i]));
  }
  // By user id, then by time; ratings of one second by movie id.
  const ordered = (rows: number[]) =>
    rows.sort((a, b) => idOf.get(user![a])! - idOf.get(user![b])! || time![a] - time![b] || movie![a] - movie![b]);
  const ratings = (rows: number[]) =>
    makeTable([
      ["userId", { kind: "int", values: Float64Array.from(rows, (i) => idOf.get(user![i])!) }],
      ["movieId", { kind: "int", values: Float64Array.from(rows, (i) => movie![i]) }],
      ["rating", { kind: "float", values: Float64Array.from(rows, (i) => rating[i]) }],
      ["timestamp", { kind: "int", values: Float64Array.from(rows, (i) => time![i]) }],
    ]);
  writeCsv(path.join(ctx.public, "train.csv"), ratings(ordered(train)));
  writeCsv(path.join(ctx.public, "test.csv"), ratings(ordered(history)));

  const published = [...new Set([...train, ...history].map((i) => movie![i]))].sort((a, b) => a - b);
  writeCsv(
    path.join(ctx.public, "movies.csv"),
    makeTable([
      ["movieId", { kind: "int", values: Float64Array.from(published) }],
      ["title", { kind: "string", values: published.map((m) => titles.get(m)!) }],
      // A few movies have no title or year; their cells stay empty.
      ["year", { kind: "string", values: published.map((m) => years.get(m)!) }],
      ["genres", { kind: "string", values: published.map((m) => genres.get(m)!) }],
    ]),
  );

  const targetIds = [...heldOut.keys()].sort((a, b) => a - b);
  const userColumn: Column = { kind: "int", values: Float64Array.from(targetIds) };
  const sample = published.slice(0, LIST_LENGTH).join(" ");
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([["userId", userColumn], ["movies", { kind: "string", values: targetIds.map(() => sample) }]]));
  const answers = targetIds.map((u) => [...heldOut.get(u)!].sort((a, b) => a - b).join(" "));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([["userId", userColumn], ["movies", { kind: "string", values: answers }]]));
}
