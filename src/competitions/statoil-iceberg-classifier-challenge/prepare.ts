import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { isPyJsonObject, readPyJson, writePyJson, type PyJson, type PyJsonObject } from "../../pycompat/pyjson.js";
import { extractSevenZip, writeSevenZip } from "../../io/sevenzip.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";
import { scanListKeys } from "./json-keys.js";

function sampleList(value: PyJson, file: string): PyJsonObject[] {
  if (!Array.isArray(value) || value.length === 0) throw new UserError(`${file}: expected a non-empty JSON list of samples`);
  return value.map((s, i) => {
    if (!isPyJsonObject(s)) throw new UserError(`${file}: sample ${i} is not a JSON object`);
    return s;
  });
}

/** The first sample's keys, after checking every sample has exactly that set (upstream asserts it). */
function consistentFields(samples: PyJsonObject[], file: string): string[] {
  const fields = [...samples[0].keys()];
  samples.forEach((s, i) => {
    if (s.size !== fields.length || fields.some((f) => !s.has(f))) {
      throw new UserError(`${file}: sample ${i} has fields ${[...s.keys()].join(", ")}; the first sample has ${fields.join(", ")}`);
    }
  });
  return fields;
}

/** The fields of test.json's first sample, after checking every sample has that set; streamed, as the file is 1.5 GB. */
function testFieldsOf(file: string): string[] {
  let fields: string[] = [];
  const count = scanListKeys(file, (keys, i) => {
    if (i === 0) fields = keys;
    else if (keys.length !== fields.length || fields.some((f) => !keys.includes(f))) {
      throw new UserError(`${file}: sample ${i} has fields ${keys.join(", ")}; the first sample has ${fields.join(", ")}`);
    }
  });
  if (count === 0) throw new UserError(`${file}: expected a non-empty JSON list of samples`);
  return fields;
}

/** Python's int() of the label: an int, a bool, or a float cut toward zero. */
function label(s: PyJsonObject, i: number, file: string): number {
  const v = s.get("is_iceberg");
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" && Number.isFinite(v)) return Math.trunc(v);
  throw new UserError(`${file}: sample ${i} has is_iceberg ${JSON.stringify(String(v))}; expected 0 or 1`);
}

function idText(s: PyJsonObject, i: number, file: string): string {
  const v = s.get("id");
  if (typeof v !== "string") throw new UserError(`${file}: sample ${i} has no text "id"`);
  return v;
}

/** Write `value` as json.dump would to a scratch file and store it as the single member of `archive`. */
async function writeJson7z(value: PyJson, scratch: string, member: string, archive: string): Promise<void> {
  const file = path.join(scratch, member);
  writePyJson(file, value);
  await writeSevenZip(archive, [{ source: file, name: member }]);
}

/**
 * Upstream's split: 20% of Kaggle's labelled images (data/processed/train.json inside
 * train.json.7z, random_state 0) become the test set, keeping only the fields Kaggle's own
 * test.json has. Both sides are written as json.dump writes them and archived as
 * train.json.7z / test.json.7z (stored where py7zr uses LZMA2: see README.md); the answers and a sample
 * submission predicting 0.5 go to private/, the sample also archived into public/.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  await extractSevenZip(path.join(ctx.raw, "train.json.7z"), ctx.raw);
  await extractSevenZip(path.join(ctx.raw, "test.json.7z"), ctx.raw);
  const trainFile = path.join(ctx.raw, "data", "processed", "train.json");
  const testFile = path.join(ctx.raw, "data", "processed", "test.json");
  const oldTrain = sampleList(readPyJson(trainFile), trainFile);
  consistentFields(oldTrain, trainFile);
  const testFields = testFieldsOf(testFile);
  for (const f of testFields) {
    if (!oldTrain[0].has(f)) throw new UserError(`${trainFile}: samples lack the field "${f}" that test.json's samples have`);
  }

  // sklearn indexes a plain list: test is the head of the permutation, train the rest.
  const split = trainTestSplitIndices(oldTrain.length, { testSize: 0.2, randomState: 0 });
  const newTrain = split.train.map((i) => oldTrain[i]);
  const newTest = split.test.map((i) => oldTrain[i]);
  const unlabelled = newTest.map((s): PyJsonObject => new Map(testFields.map((f) => [f, s.get(f)!])));

  const scratch = path.join(ctx.private, "tmp_data");
  fs.mkdirSync(scratch, { recursive: true });
  await writeJson7z(newTrain, scratch, "train.json", path.join(ctx.public, "train.json.7z"));
  await writeJson7z(unlabelled, scratch, "test.json", path.join(ctx.public, "test.json.7z"));

  const ids = { kind: "string" as const, values: newTest.map((s, i) => idText(s, i, trainFile)) };
  const labels = Float64Array.from(newTest, (s, i) => label(s, i, trainFile));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([["id", ids], ["is_iceberg", { kind: "int", values: labels }]]));
  const sample = path.join(ctx.private, "sample_submission.csv");
  writeCsv(sample, makeTable([["id", ids], ["is_iceberg", { kind: "float", values: new Float64Array(newTest.length).fill(0.5) }]]));
  await writeSevenZip(path.join(ctx.public, "sample_submission.csv.7z"), [{ source: sample, name: "sample_submission.csv" }]);
  fs.rmSync(scratch, { recursive: true, force: true });
}

/** Stored where py7zr compresses with LZMA2: the same member bytes in other archive bytes (see README.md). */
export const unverifiable = ["public/train.json.7z", "public/test.json.7z", "public/sample_submission.csv.7z"];
