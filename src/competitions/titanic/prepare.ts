import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { parseArff } from "../../io/arff.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";

/** Share of passengers held out as the test set, per class of the target (stratified). */
const TEST_FRACTION = 0.3;
const SEED = 1912;

/** Source columns kept, renamed to Kaggle's Titanic names; boat, body and home.dest leak the outcome. */
const KEEP: [source: string, name: string, kind: "int" | "float" | "string"][] = [
  ["pclass", "Pclass", "int"],
  ["name", "Name", "string"],
  ["sex", "Sex", "string"],
  ["age", "Age", "float"],
  ["sibsp", "SibSp", "int"],
  ["parch", "Parch", "int"],
  ["ticket", "Ticket", "string"],
  ["fare", "Fare", "float"],
  ["cabin", "Cabin", "string"],
  ["embarked", "Embarked", "string"],
];

/**
 * Split the 1,309 passengers into a labelled train set and an unlabelled test set. Passenger
 * ids are assigned by a shuffle, so they carry no information (the source is sorted by class
 * and name).
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.titanic;
  const arff = parseArff(zlib.gunzipSync(fs.readFileSync(file)).toString("utf8"), file);
  const col = (name: string) => {
    const k = arff.attributes.findIndex((a) => a.name === name);
    if (k < 0) throw new Error(`${file}: no attribute "${name}"`);
    return arff.rows.map((r) => r[k]);
  };
  const survived = col("survived").map((v) => Number(v));
  const rng = new Mulberry32(SEED);
  const order = rng.shuffle(arff.rows.map((_, i) => i));
  const testRows = new Set<number>();
  for (const label of [0, 1]) {
    const members = order.filter((i) => survived[i] === label);
    members.slice(0, Math.round(members.length * TEST_FRACTION)).forEach((i) => testRows.add(i));
  }
  // Ids come from a second shuffle so they say nothing about the row's side of the split either.
  const idOrder = rng.shuffle(arff.rows.map((_, i) => i));
  const passengerId = new Map(idOrder.map((row, k) => [row, k + 1]));
  const byId = (rows: number[]) => rows.sort((a, b) => passengerId.get(a)! - passengerId.get(b)!);
  const train = byId(order.filter((i) => !testRows.has(i)));
  const test = byId(order.filter((i) => testRows.has(i)));

  const features = KEEP.map(([source, name, kind]) => [name, kind, col(source)] as const);
  const column = (kind: "int" | "float" | "string", values: (string | null)[], rows: number[]): Column => {
    if (kind === "string") return { kind, values: rows.map((i) => values[i]) };
    return { kind, values: Float64Array.from(rows, (i) => (values[i] === null ? NaN : Number(values[i]))) };
  };
  const ids = (rows: number[]): Column => ({ kind: "int", values: Float64Array.from(rows, (i) => passengerId.get(i)!) });
  const target = (rows: number[]): Column => ({ kind: "int", values: Float64Array.from(rows, (i) => survived[i]) });

  writeCsv(
    path.join(ctx.public, "train.csv"),
    makeTable([["PassengerId", ids(train)], ...features.map(([n, k, v]) => [n, column(k, v, train)] as [string, Column]), ["Survived", target(train)]]),
  );
  writeCsv(
    path.join(ctx.public, "test.csv"),
    makeTable([["PassengerId", ids(test)], ...features.map(([n, k, v]) => [n, column(k, v, test)] as [string, Column])]),
  );
  writeCsv(
    path.join(ctx.public, "sample_submission.csv"),
    makeTable([["PassengerId", ids(test)], ["Survived", { kind: "int", values: new Float64Array(test.length) }]]),
  );
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([["PassengerId", ids(test)], ["Survived", target(test)]]));
}
