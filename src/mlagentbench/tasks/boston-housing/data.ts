import fs from "node:fs";
import path from "node:path";
import { makeTable, takeColumn, type Column, type Table } from "../../../core/table.js";
import { parseCsv } from "../../../io/csv-read.js";
import { writeCsv } from "../../../io/csv-write.js";
import { trainTestSplitIndices } from "../../../rng/sklearn-split.js";
import type { PackageSource } from "../../../core/competition.js";

/** The Boston house-price table scikit-learn ships; Debian installs it with python3-sklearn. */
export const SOURCE: Extract<PackageSource, { kind: "debian" }> = {
  kind: "debian",
  package: "python3-sklearn",
  path: "/usr/lib/python3/dist-packages/sklearn/datasets/data/boston_house_prices.csv",
};

/** The target: median value of owner-occupied homes, in $1000s. */
export const TARGET = "MEDV";
/** The id column every public file starts with. */
export const ID = "Id";

/** The columns the source file must have, in order. */
const SOURCE_COLUMNS = ["CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX", "PTRATIO", "B", "LSTAT", TARGET];
// B is a transformed share of Black residents per town; a model of house prices should not be built on it,
// so the column is dropped from everything the task publishes.
const DROPPED = new Set(["B"]);
/** The feature columns published in train.csv and test.csv, in order. */
export const FEATURES = SOURCE_COLUMNS.filter((c) => c !== TARGET && !DROPPED.has(c));

/** Rows the shipped file holds; anything else means the package ships different data. */
const ROW_COUNT = 506;
/** Share of rows held back as the hidden test set, and the seed of that split (sklearn's train_test_split). */
export const TEST_SIZE = 0.2;
export const SPLIT_SEED = 42;

/** The source rows, numeric and complete, with the dropped column removed. */
export function readSource(file: string): Table {
  const text = fs.readFileSync(file, "utf8");
  const newline = text.indexOf("\n");
  // The file opens with a count line ("506,13,,…") before the header.
  const countLine = newline < 0 ? text : text.slice(0, newline);
  const declared = Number(countLine.split(",")[0]);
  if (!Number.isInteger(declared) || declared !== ROW_COUNT) {
    throw new Error(`${file} line 1: expected the row count ${ROW_COUNT} before the header, found ${JSON.stringify(countLine.slice(0, 40))}`);
  }
  const table = parseCsv(text.slice(newline + 1), { file });
  if (table.columns.join(",") !== SOURCE_COLUMNS.join(",")) {
    throw new Error(`${file} line 2: expected the columns ${SOURCE_COLUMNS.join(", ")}, found ${table.columns.join(", ")}`);
  }
  if (table.rowCount !== ROW_COUNT) throw new Error(`${file}: ${table.rowCount} data rows, expected ${ROW_COUNT}`);
  const kept: [string, Column][] = [];
  for (const name of table.columns) {
    if (DROPPED.has(name)) continue;
    const column = table.data.get(name)!;
    if (column.kind !== "int" && column.kind !== "float") {
      throw new Error(`${file}: column ${name} must hold numbers only, but it was read as ${column.kind}`);
    }
    const bad = column.values.findIndex((v) => !Number.isFinite(v));
    // Data row r sits on line r + 3: after the count line and the header.
    if (bad >= 0) throw new Error(`${file} line ${bad + 3}: column ${name} is empty or not finite`);
    kept.push([name, column]);
  }
  return makeTable(kept);
}

/** The public and hidden tables of the task: train (with MEDV), test (without), a sample submission, the answers. */
export interface BostonHousingSplit {
  train: Table;
  test: Table;
  sampleSubmission: Table;
  answers: Table;
}

/**
 * Split the source rows into train and test with sklearn's train_test_split (so Python can reproduce it) and
 * number them: train rows get Ids 1..n in the split's shuffled order, test rows the Ids after them, so an Id
 * says nothing about a house's place in the source file (which is ordered by town).
 */
export function splitBostonHousing(source: Table): BostonHousingSplit {
  const { train, test } = trainTestSplitIndices(source.rowCount, { testSize: TEST_SIZE, randomState: SPLIT_SEED });
  const ids = (first: number, n: number): Column => ({ kind: "int", values: Float64Array.from({ length: n }, (_, i) => first + i) });
  const trainIds = ids(1, train.length);
  const testIds = ids(train.length + 1, test.length);
  const pick = (rows: number[], names: string[]): [string, Column][] => names.map((n) => [n, takeColumn(source.data.get(n)!, rows)]);
  const target = source.data.get(TARGET)!;
  const trainTarget = Float64Array.from(train, (r) => target.values[r] as number).sort();
  // The sample submission predicts the training median for every house: valid, and easy to beat.
  const mid = trainTarget.length >> 1;
  const median = trainTarget.length % 2 ? trainTarget[mid] : (trainTarget[mid - 1] + trainTarget[mid]) / 2;
  return {
    train: makeTable([[ID, trainIds], ...pick(train, [...FEATURES, TARGET])]),
    test: makeTable([[ID, testIds], ...pick(test, FEATURES)]),
    sampleSubmission: makeTable([[ID, testIds], [TARGET, { kind: "float", values: new Float64Array(test.length).fill(median) }]]),
    answers: makeTable([[ID, testIds], ...pick(test, [TARGET])]),
  };
}

/** Write train.csv, test.csv and sample_submission.csv (never the answers) into `dir`. */
export function writePublicFiles(split: BostonHousingSplit, dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  writeCsv(path.join(dir, "train.csv"), split.train);
  writeCsv(path.join(dir, "test.csv"), split.test);
  writeCsv(path.join(dir, "sample_submission.csv"), split.sampleSubmission);
}
