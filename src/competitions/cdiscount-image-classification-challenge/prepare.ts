import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column } from "../../core/table.js";
import { BsonFileWriter, bsonScalar, decodeBson, encodeBson, readBsonFile, type BsonDocument } from "../../io/bson.js";
import { writeCsv } from "../../io/csv-write.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

// The category upstream's sample submission predicts for every product.
const SAMPLE_CATEGORY = 1000010653;
const EXAMPLE_ROWS = 100;

/**
 * Upstream's split: the products of Kaggle's train.bson are divided 90/10 (random_state 0).
 * Train products go to public/train.bson (the first 100 also to train_example.bson), test
 * products to public/test.bson without their category_id; every document is re-encoded the way
 * pymongo decodes and encodes it. Answers list the test products' categories sorted by _id.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const trainFile = path.join(ctx.raw, "train.bson");
  const { ids, categories } = readLabels(trainFile);
  const split = trainTestSplitIndices(ids.length, { testSize: 0.1, randomState: 0 });
  const testRows = [...split.test].sort((a, b) => ids[a] - ids[b]);
  const idColumn: Column = { kind: "int", values: Float64Array.from(testRows, (i) => ids[i]) };
  const answers = makeTable([["_id", idColumn], ["category_id", { kind: "int", values: Float64Array.from(testRows, (i) => categories[i]) }]]);
  writeCsv(path.join(ctx.private, "answers.csv"), answers);
  const guess: Column = { kind: "int", values: new Float64Array(testRows.length).fill(SAMPLE_CATEGORY) };
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([["_id", idColumn], ["category_id", guess]]));

  writeSides(ctx, trainFile, new Set(split.train.map((i) => ids[i])), new Set(split.test.map((i) => ids[i])));
  const names = path.join(ctx.raw, "category_names.csv");
  if (!fs.existsSync(names)) throw new UserError(`${names} is missing`);
  fs.copyFileSync(names, path.join(ctx.public, "category_names.csv"));
}

/** An integer field of a product as a JS number (pandas int64). */
function intField(doc: BsonDocument, key: string, where: string): number {
  if (!doc.has(key)) throw new UserError(`${where}: no "${key}" field`);
  const v = bsonScalar(doc.get(key));
  const n = typeof v === "bigint" && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || doc.get(key)!.type === 0x01) {
    throw new UserError(`${where}: "${key}" should be an integer (BSON int32 or int64)`);
  }
  return n;
}

/** Every product's _id and category_id, decoding each document fully as pymongo would (so bad BSON stops here). */
function readLabels(file: string): { ids: number[]; categories: number[] } {
  const ids: number[] = [];
  const categories: number[] = [];
  const seen = new Set<number>();
  let k = 0;
  for (const bytes of readBsonFile(file)) {
    const where = `${file} document #${k++}`;
    const doc = decodeBson(bytes, where);
    const id = intField(doc, "_id", where);
    // Sorting answers by a repeated _id would depend on numpy's unstable sort; real ids are unique.
    if (seen.has(id)) throw new UserError(`${where}: _id ${id} appears more than once`);
    seen.add(id);
    ids.push(id);
    categories.push(intField(doc, "category_id", where));
  }
  if (ids.length === 0) throw new UserError(`${file}: no documents`);
  return { ids, categories };
}

/** One pass doing upstream's three filters: train.bson, test.bson (labels dropped) and train_example.bson. */
function writeSides(ctx: UpstreamPrepareContext, file: string, trainIds: Set<number>, testIds: Set<number>): void {
  const train = new BsonFileWriter(path.join(ctx.public, "train.bson"));
  const test = new BsonFileWriter(path.join(ctx.public, "test.bson"));
  const example = new BsonFileWriter(path.join(ctx.public, "train_example.bson"));
  let examples = 0;
  let k = 0;
  try {
    for (const bytes of readBsonFile(file)) {
      const where = `${file} document #${k++}`;
      const doc = decodeBson(bytes, where);
      const id = intField(doc, "_id", where);
      if (trainIds.has(id)) {
        const out = encodeBson(doc);
        train.write(out);
        if (examples < EXAMPLE_ROWS) {
          example.write(out);
          examples++;
        }
      } else if (testIds.has(id)) {
        doc.delete("category_id");
        test.write(encodeBson(doc));
      }
    }
  } finally {
    train.close();
    test.close();
    example.close();
  }
}
