import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { indices, randomIds } from "../_shared/random-ids.js";
import { requiredText, sourceColumn } from "../_shared/source-columns.js";

/** Share of reviews, per class, held out as the test set. */
const TEST_FRACTION = 0.3;
const SEED = 20121031;

/** The source's two classes: a five-star review is "great", any other rating "other". */
const GREAT = "great";
const OTHER = "other";
const COLUMNS = ["product", "review", "score"];

interface Review {
  product: string;
  review: string;
  great: number;
}

/** The reviews of one exported data frame, or an error naming the file, column or row at fault. */
function readReviews(file: string): Review[] {
  const source = readCsv(file, { file, text: COLUMNS });
  const [product, review, score] = COLUMNS.map((name) => requiredText(sourceColumn(source, name, file), name, file));
  return score.map((s, i) => {
    if (s !== GREAT && s !== OTHER) throw new Error(`${file}: data row ${i + 1} has score "${s}", expected "${GREAT}" or "${OTHER}"`);
    if (review[i].trim().length === 0) throw new Error(`${file}: data row ${i + 1} has an empty review`);
    return { product: product[i], review: review[i], great: s === GREAT ? 1 : 0 };
  });
}

/**
 * Pool the package's two samples of Amazon fine-food reviews and split them afresh, stratified
 * by class (30% test). A review text that occurs more than once (the store shows one review
 * under every variant of a product) is kept once, so no text is on both sides of the split;
 * the copies always agree on the score, and a text whose copies disagreed would be dropped.
 * Ids come from a seeded shuffle of all kept reviews; each file is sorted by id.
 */
export function prepare(ctx: PrepareContext): void {
  const all = [...readReviews(ctx.sources.train), ...readReviews(ctx.sources.test)];
  const byText = new Map<string, Review[]>();
  for (const r of all) byText.set(r.review, [...(byText.get(r.review) ?? []), r]);
  const reviews = [...byText.values()].filter((copies) => copies.every((c) => c.great === copies[0].great)).map((copies) => copies[0]);

  const rng = new Mulberry32(SEED);
  const order = rng.shuffle(reviews.map((_, i) => i));
  const isTest = new Uint8Array(reviews.length);
  for (const cls of [1, 0]) {
    const members = order.filter((i) => reviews[i].great === cls);
    for (const i of members.slice(0, Math.round(members.length * TEST_FRACTION))) isTest[i] = 1;
  }
  const { sortById, column: ids } = randomIds(rng, indices(reviews.length));
  const rows = (test: number) => sortById(indices(reviews.length).filter((i) => isTest[i] === test));
  const train = rows(0);
  const test = rows(1);

  const text = (name: "product" | "review", r: number[]): [string, Column] => [name, { kind: "string", values: r.map((i) => reviews[i][name]) }];
  const label = (r: number[]): [string, Column] => ["great", { kind: "int", values: Float64Array.from(r, (i) => reviews[i].great) }];

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), text("product", train), text("review", train), label(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), text("product", test), text("review", test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), ["great", { kind: "float", values: new Float64Array(test.length).fill(0.5) }]]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), label(test)]));
}
