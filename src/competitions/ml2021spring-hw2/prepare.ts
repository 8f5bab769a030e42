import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";
import { readNpyHeader, readVector, saveRows } from "./npy.js";

const TIMIT = path.join("timit_11", "timit_11");

/** A label vector as a CSV column: text labels stay text, integer labels stay integers. */
function labelColumn(labels: (string | number)[]): Column {
  if (labels.every((v) => typeof v === "number")) return { kind: "int", values: Float64Array.from(labels as number[]) };
  return { kind: "string", values: labels.map(String) };
}

/**
 * Upstream's split of Kaggle's TIMIT frames: train_11.npy is split (random_state 0) with the
 * test share Kaggle's own test_11.npy had; the held-out frames become the public test array and
 * their labels the answers, numbered from 0.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const dir = path.join(ctx.raw, TIMIT);
  const files = { data: path.join(dir, "train_11.npy"), labels: path.join(dir, "train_label_11.npy"), test: path.join(dir, "test_11.npy") };
  const data = readNpyHeader(files.data);
  const labelsHead = readNpyHeader(files.labels);
  const oldTest = readNpyHeader(files.test);
  const n = data.shape[0];
  if (labelsHead.shape[0] !== n) throw new UserError(`${files.labels}: ${labelsHead.shape[0]} labels for ${n} rows of ${files.data}`);
  const labels = readVector(files.labels, labelsHead);
  const testShare = oldTest.shape[0] / (n + oldTest.shape[0]);
  const { train, test } = trainTestSplitIndices(n, { testSize: testShare, randomState: 0 });
  const out = path.join(ctx.public, TIMIT);
  fs.mkdirSync(out, { recursive: true });
  saveRows(files.data, data, train, path.join(out, "train_11.npy"));
  saveRows(files.labels, labelsHead, train, path.join(out, "train_label_11.npy"));
  saveRows(files.data, data, test, path.join(out, "test_11.npy"));
  const ids: Column = { kind: "int", values: Float64Array.from(test, (_, i) => i) };
  const answers = makeTable([["Id", ids], ["ClassId", labelColumn(Array.from(test, (i) => labels[i]))]]);
  const zeros: Column = { kind: "int", values: new Float64Array(test.length) };
  writeCsv(path.join(ctx.public, "sampleSubmission.csv"), makeTable([["Id", ids], ["ClassId", zeros]]));
  writeCsv(path.join(ctx.private, "answers.csv"), answers);
}
