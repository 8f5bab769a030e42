import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { isPyJsonObject, readPyJson, writePyJson, type PyJson, type PyJsonObject } from "../../pycompat/pyjson.js";
import { writeZip } from "../../io/zip-write.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

/**
 * Upstream's split: Kaggle's labelled requests (train.json) are divided in the same proportion
 * as Kaggle's own train/test (random_state 0). The new test requests keep only the fields of
 * Kaggle's test.json, in the key order of its first record. Both sides are written back as
 * Python's json.dump(indent=4) would, and also zipped (train.zip holding train.json, and so on).
 * Answers are the 0/1 outcome per request_id; the sample submission predicts 0.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  const trainFile = path.join(ctx.raw, "train.json");
  const testFile = path.join(ctx.raw, "test.json");
  const oldTrain = requestList(readPyJson(trainFile), trainFile);
  const oldTest = requestList(readPyJson(testFile), testFile);
  sameFieldsEverywhere(oldTrain, trainFile);
  const testFields = sameFieldsEverywhere(oldTest, testFile);

  // A proportion, never a count: sklearn then takes ceil(ratio * n) requests for the test side.
  const ratio = oldTest.length / (oldTrain.length + oldTest.length);
  const { train, test } = trainTestSplitIndices(oldTrain.length, { testSize: ratio, randomState: 0 });
  const newTrain = train.map((i) => oldTrain[i]);
  const newTest = test.map((i) => oldTrain[i]);
  const unlabelled = newTest.map((r) => keepFields(r, testFields, trainFile));

  for (const [name, value] of [["train", newTrain], ["test", unlabelled]] as const) {
    const json = path.join(ctx.public, `${name}.json`);
    writePyJson(json, value, { indent: 4 });
    await writeZip(path.join(ctx.public, `${name}.zip`), [{ source: json, name: `${name}.json` }]);
  }

  const ids: Column = { kind: "string", values: newTest.map((r) => requestId(r, trainFile)) };
  const outcomes = Float64Array.from(newTest, (r) => outcome(r, trainFile));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([["request_id", ids], ["requester_received_pizza", { kind: "int", values: outcomes }]]));
  const zeros: Column = { kind: "int", values: new Float64Array(newTest.length) };
  writeCsv(path.join(ctx.public, "sampleSubmission.csv"), makeTable([["request_id", ids], ["requester_received_pizza", zeros]]));
}

/** The file's top level as a non-empty list of request objects. */
function requestList(v: PyJson, file: string): PyJsonObject[] {
  if (!Array.isArray(v) || v.length === 0) throw new UserError(`${file}: expected a non-empty JSON list of requests`);
  v.forEach((r, i) => {
    if (!isPyJsonObject(r)) throw new UserError(`${file}: request #${i} is not a JSON object`);
  });
  return v as PyJsonObject[];
}

/** The first request's keys, after checking every request has the same set (upstream asserts this). */
function sameFieldsEverywhere(requests: PyJsonObject[], file: string): string[] {
  const fields = [...requests[0].keys()];
  requests.forEach((r, i) => {
    const odd = r.size !== fields.length || fields.some((f) => !r.has(f));
    if (odd) throw new UserError(`${file}: request #${i} has fields ${[...r.keys()].join(", ")}; expected the same set as request #0 (${fields.join(", ")})`);
  });
  return fields;
}

function keepFields(r: PyJsonObject, fields: string[], file: string): PyJsonObject {
  return new Map(
    fields.map((f) => {
      if (!r.has(f)) throw new UserError(`${file}: request ${String(r.get("request_id"))} lacks field "${f}", which test.json has`);
      return [f, r.get(f)!];
    }),
  );
}

function requestId(r: PyJsonObject, file: string): string {
  const id = r.get("request_id");
  if (typeof id !== "string") throw new UserError(`${file}: a request has no string request_id (got ${String(id)})`);
  return id;
}

/** Python's int() of the outcome: a bool gives 0/1, an int itself, a float its truncation. */
function outcome(r: PyJsonObject, file: string): number {
  const v = r.get("requester_received_pizza");
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint" && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(v);
  if (typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) return Math.trunc(v) + 0;
  throw new UserError(`${file}: request ${String(r.get("request_id"))} has requester_received_pizza ${String(v)}; expected true or false`);
}
