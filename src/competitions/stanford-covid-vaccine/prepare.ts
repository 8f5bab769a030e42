import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column } from "../../core/table.js";
import { readCsvHeader } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import type { PyJson, PyJsonObject } from "../../pycompat/pyjson.js";
import { sampleIndices } from "../../rng/pandas-sample.js";
import { formatJsonLines, readJsonLines, type JsonFrame } from "./records.js";

const TARGETS = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"];

/** Python's `"%.10f" % x`: like toFixed(10), but exact ties go to the even digit and -0 keeps its sign. */
export function formatFixed10(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  const a = Math.abs(x);
  if (a >= 1e21) return `${sign}${BigInt(a)}.0000000000`;
  const scaled = a * 2048;
  // Only odd multiples of 2^-11 sit exactly halfway between two 10-decimal numbers.
  if (Number.isInteger(scaled) && scaled % 2 === 1) {
    const below = (BigInt(scaled) * 5n ** 10n - 1n) / 2n;
    const n = below % 2n === 0n ? below : below + 1n;
    const digits = n.toString().padStart(11, "0");
    return `${sign}${digits.slice(0, -10)}.${digits.slice(-10)}`;
  }
  return sign + a.toFixed(10);
}

function intField(row: PyJsonObject, name: string, where: string): number {
  const v = row.get(name);
  if (typeof v !== "bigint") throw new UserError(`${where}: "${name}" should be a whole number, got ${String(v)}`);
  return Number(v);
}

function numberAt(list: PyJson, j: number, name: string, where: string): number {
  if (!Array.isArray(list)) throw new UserError(`${where}: "${name}" should be a list`);
  const v = list[j];
  if (v === null) return NaN;
  if (typeof v !== "number" && typeof v !== "bigint") throw new UserError(`${where}: "${name}"[${j}] should be a number`);
  return Number(v);
}

function requireColumns(frame: JsonFrame, names: string[]): void {
  for (const n of names) if (!frame.columns.includes(n)) throw new UserError(`${frame.file}: no "${n}" field (fields: ${frame.columns.join(", ")})`);
}

/** The held-out rows: n_test of the SN_filter > 0 rows, drawn by `DataFrame.sample(random_state=0)`, in file order. */
function testMask(frame: JsonFrame): boolean[] {
  const nTest = Math.floor(frame.rows.length * 0.1);
  if (nTest === 0) throw new UserError(`${frame.file}: ${frame.rows.length} records are too few to hold out 10% for the test set`);
  const eligible: number[] = [];
  frame.rows.forEach((r, i) => {
    const sn = r.get("SN_filter");
    if (typeof sn !== "bigint" && typeof sn !== "number") throw new UserError(`${frame.file}: record ${i + 1} has a non-numeric SN_filter`);
    if (Number(sn) > 0) eligible.push(i);
  });
  if (eligible.length < nTest) throw new UserError(`${frame.file}: only ${eligible.length} records pass SN_filter, but ${nTest} are needed for the test set`);
  const mask = frame.rows.map(() => false);
  for (const p of sampleIndices(eligible.length, { n: nTest, randomState: 0 })) mask[eligible[p]] = true;
  return mask;
}

/** The long answers table: one row per sequence position, unscored positions zero and not kept. */
function answerColumns(test: PyJsonObject[], file: string): { ids: string[]; targets: number[][]; keep: boolean[] } {
  const ids: string[] = [];
  const targets: number[][] = TARGETS.map(() => []);
  const keep: boolean[] = [];
  test.forEach((row, i) => {
    const where = `${file}: test record ${i + 1}`;
    const id = row.get("id");
    if (typeof id !== "string" && typeof id !== "bigint") throw new UserError(`${where}: "id" should be text`);
    const scored = intField(row, "seq_scored", where);
    const length = intField(row, "seq_length", where);
    for (const t of TARGETS) {
      const list = row.get(t);
      if (!Array.isArray(list) || list.length !== scored) throw new UserError(`${where}: "${t}" should be a list of seq_scored (${scored}) numbers`);
    }
    if (scored >= length) throw new UserError(`${where}: seq_scored (${scored}) should be below seq_length (${length})`);
    for (let j = 0; j < length; j++) {
      ids.push(`${id}_${j}`);
      TARGETS.forEach((t, k) => targets[k].push(j < scored ? numberAt(row.get(t)!, j, t, where) : 0));
      keep.push(j < scored);
    }
  });
  return { ids, targets, keep };
}

function text(values: number[]): Column {
  return { kind: "string", values: values.map((v) => (Number.isNaN(v) ? null : formatFixed10(v))) };
}

/**
 * Upstream's split of Kaggle's train.json: 10% of the records (drawn only among those passing
 * SN_filter) become the test set. Public gets the remaining train records and the test records
 * cut to test.json's fields, both re-indexed from 0 as JSON lines; private/test.csv has one row
 * per sequence position with the five targets (zero past seq_scored) and a keep flag.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const trainFile = path.join(ctx.raw, "train.json");
  const testFile = path.join(ctx.raw, "test.json");
  const train = readJsonLines(trainFile);
  const oldTest = readJsonLines(testFile);
  // Upstream reads the sample submission only to check its header.
  readCsvHeader(path.join(ctx.raw, "sample_submission.csv"));
  requireColumns(train, ["id", "SN_filter", "seq_length", "seq_scored", ...TARGETS]);
  requireColumns(train, oldTest.columns);

  const mask = testMask(train);
  const newTrain = train.rows.filter((_, i) => !mask[i]);
  const newTest = train.rows.filter((_, i) => mask[i]);

  const answers = answerColumns(newTest, trainFile);
  const ids: Column = { kind: "string", values: answers.ids };
  const zeros = text(answers.ids.map(() => 0));
  writeCsv(
    path.join(ctx.private, "test.csv"),
    makeTable([["id_seqpos", ids], ...TARGETS.map((t, k): [string, Column] => [t, text(answers.targets[k])]), ["keep", { kind: "bool", values: Uint8Array.from(answers.keep, Number) }]]),
  );

  const reindex = (rows: PyJsonObject[]) => rows.map((r, i) => new Map(r).set("index", BigInt(i)));
  const trainColumns = train.columns.includes("index") ? train.columns : [...train.columns, "index"];
  const testColumns = oldTest.columns.includes("index") ? oldTest.columns : [...oldTest.columns, "index"];
  fs.writeFileSync(path.join(ctx.public, "train.json"), formatJsonLines(reindex(newTrain), trainColumns, trainFile));
  fs.writeFileSync(path.join(ctx.public, "test.json"), formatJsonLines(reindex(newTest), testColumns, trainFile));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([["id_seqpos", ids], ...TARGETS.map((t): [string, Column] => [t, zeros])]));
}
