import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { cellAt, type Column, makeTable, takeColumn } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { indices, randomIds } from "../_shared/random-ids.js";
import { requiredText, sourceColumn } from "../_shared/source-columns.js";

/** Share of customers held out as the test set, in each churn class. */
const TEST_FRACTION = 0.3;
const SEED = 7043;

export const TARGET = "churn";
const LABELS = ["No", "Yes"];

/** modeldata's `wa_churn` columns besides the label, in the source's order; all are published. */
export const FEATURES = [
  "female", "senior_citizen", "partner", "dependents", "tenure", "phone_service", "multiple_lines", "internet_service",
  "online_security", "online_backup", "device_protection", "tech_support", "streaming_tv", "streaming_movies", "contract",
  "paperless_billing", "payment_method", "monthly_charges", "total_charges",
];

/**
 * Split the 7,043 customers 70/30, stratified by churn. A few dozen customers share every
 * feature with another one (mostly new customers on the cheapest plans); each such group is
 * kept on one side of the split, so no test row has a training twin whose label it could copy.
 * Groups whose members all churned, all stayed, or did both are three strata of their own. Ids
 * come from a second shuffle, so they say nothing about the source's order or the side of the
 * split.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.churn;
  const source = readCsv(file, { file });
  const unexpected = source.columns.filter((c) => c !== TARGET && !FEATURES.includes(c));
  if (unexpected.length > 0) throw new Error(`${file}: unexpected column(s) ${unexpected.join(", ")}; the preparer knows ${FEATURES.length + 1}`);
  const columns = FEATURES.map((name) => sourceColumn(source, name, file));
  const label = requiredText(sourceColumn(source, TARGET, file), TARGET, file);
  label.forEach((v, i) => {
    if (!LABELS.includes(v)) throw new Error(`${file}: data row ${i + 1} has ${TARGET} "${v}", expected ${LABELS.join(" or ")}`);
  });

  const n = source.rowCount;
  const groups = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const key = JSON.stringify(columns.map((col) => cellAt(col, i)));
    const rows = groups.get(key);
    if (rows) rows.push(i);
    else groups.set(key, [i]);
  }
  const strata = new Map<string, number[][]>([["No", []], ["Yes", []], ["mixed", []]]);
  for (const rows of groups.values()) {
    const labels = new Set(rows.map((i) => label[i]));
    strata.get(labels.size === 1 ? label[rows[0]] : "mixed")!.push(rows);
  }
  const rng = new Mulberry32(SEED);
  const isTest = new Uint8Array(n);
  for (const members of strata.values()) {
    const size = members.reduce((s, g) => s + g.length, 0);
    const want = Math.round(size * TEST_FRACTION);
    let taken = 0;
    for (const g of rng.shuffle(members)) {
      if (taken >= want) break;
      for (const i of g) isTest[i] = 1;
      taken += g.length;
    }
  }
  const id = randomIds(rng, indices(n));
  const train = id.sortById(indices(n).filter((i) => !isTest[i]));
  const test = id.sortById(indices(n).filter((i) => isTest[i]));

  const ids = id.column;
  const features = (rows: number[]): [string, Column][] => FEATURES.map((name, k) => [name, takeColumn(columns[k], rows)]);
  const target = (rows: number[]): [string, Column] => [TARGET, { kind: "string", values: rows.map((i) => label[i]) }];

  // The sample submission gives every customer the training churn rate, to three decimals.
  const rate = Math.round((1000 * train.filter((i) => label[i] === "Yes").length) / train.length) / 1000;

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), ...features(train), target(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), ...features(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), [TARGET, { kind: "float", values: new Float64Array(test.length).fill(rate) }]]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), target(test)]));
}
