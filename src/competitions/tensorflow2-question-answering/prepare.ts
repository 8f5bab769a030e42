import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { decodeLine, readRawLines } from "../../io/lines.js";
import { isPyJsonObject, parsePyJson, type PyJson, type PyJsonObject } from "../../pycompat/pyjson.js";
import { pyStrip } from "../../pycompat/pystr.js";
import { trainTestSplitIndices, type SplitIndices } from "../../rng/sklearn-split.js";
import { ujsonQuote, ujsonValue } from "../_shared/pandas-json.js";

/** Lines pandas reads per chunk; each chunk is split on its own. */
export const CHUNK_LINES = 1000;
const TEST_KEYS = ["example_id", "question_text", "document_text", "long_answer_candidates"];

/** A chunk's records as text, with the line each starts on (blank lines already dropped). */
interface Chunk {
  lines: string[];
  lineNos: number[];
}

/** Chunks of {@link CHUNK_LINES} physical lines, as pandas' chunked read_json takes them. */
function* chunks(file: string): Generator<Chunk, void, undefined> {
  let chunk: Chunk = { lines: [], lineNos: [] };
  let physical = 0;
  let lineNo = 0;
  for (const line of readRawLines(file)) {
    lineNo++;
    physical++;
    const text = pyStrip(decodeLine(line.bytes, file, lineNo));
    if (text !== "") {
      chunk.lines.push(text);
      chunk.lineNos.push(lineNo);
    }
    if (physical === CHUNK_LINES) {
      yield chunk;
      chunk = { lines: [], lineNos: [] };
      physical = 0;
    }
  }
  if (physical > 0) yield chunk;
}

function parseRecord(text: string, where: string): PyJsonObject {
  const v = parsePyJson(text, where);
  if (!isPyJsonObject(v)) throw new UserError(`${where}: expected a JSON object per line`);
  return v;
}

/**
 * The record with pandas' column order (the chunk's first record's keys) and example_id as text
 * (upstream's astype(str)). Records of one chunk must share their keys: pandas would fill the
 * gaps with nulls and change column dtypes, which Kaggle's file never calls for.
 */
function normalise(rec: PyJsonObject, columns: string[], where: string): PyJsonObject {
  if (rec.size !== columns.length || columns.some((c) => !rec.has(c))) {
    throw new UserError(`${where}: has fields ${[...rec.keys()].join(", ")}; the first record of its chunk has ${columns.join(", ")}`);
  }
  const id = rec.get("example_id");
  if (typeof id !== "bigint") throw new UserError(`${where}: example_id should be an integer, got ${JSON.stringify(String(id))}`);
  return new Map(columns.map((c): [string, PyJson] => [c, c === "example_id" ? id.toString() : rec.get(c)!]));
}

function record(rec: PyJsonObject, keys: readonly string[], where: string): string {
  return `{${keys.map((k) => `${ujsonQuote(k, where)}:${ujsonValue(rec.get(k)!, where)}`).join(",")}}\n`;
}

function field(obj: PyJson | undefined, key: string, where: string): PyJson {
  const v = obj !== undefined && isPyJsonObject(obj) ? obj.get(key) : undefined;
  if (v === undefined) throw new UserError(`${where}: annotation has no "${key}"`);
  return v;
}

function tokenSpan(span: PyJson, where: string): string {
  const start = field(span, "start_token", where);
  const end = field(span, "end_token", where);
  if (typeof start !== "bigint" || typeof end !== "bigint") throw new UserError(`${where}: token positions should be integers`);
  return `${start}:${end}`;
}

/** The gold short and long answers of a record: its one annotation, as upstream reads it. */
function goldAnswers(rec: PyJsonObject, where: string): [string, string] {
  const annotations = rec.get("annotations");
  if (!Array.isArray(annotations) || annotations.length !== 1) throw new UserError(`${where}: expected exactly one annotation`);
  const a = annotations[0];
  const yesNo = field(a, "yes_no_answer", where);
  const shorts = field(a, "short_answers", where);
  if (!Array.isArray(shorts)) throw new UserError(`${where}: short_answers should be a list`);
  // A yes/no answer wins over spans; of several spans only the first counts.
  let short = "";
  if (yesNo !== "NONE") {
    if (typeof yesNo !== "string") throw new UserError(`${where}: yes_no_answer should be text`);
    short = yesNo;
  } else if (shorts.length > 0) short = tokenSpan(shorts[0], where);
  const long = field(a, "long_answer", where);
  const longStart = field(long, "start_token", where);
  return [short, longStart === -1n ? "" : tokenSpan(long, where)];
}

/** A file opened for writing from scratch, written piece by piece. */
class Output {
  private readonly fd: number;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, "w");
  }

  write(text: string): void {
    const b = Buffer.from(text, "utf8");
    let off = 0;
    while (off < b.length) off += fs.writeSync(this.fd, b, off, b.length - off);
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

function splitChunk(n: number, cache: Map<number, SplitIndices>, where: string): SplitIndices {
  let s = cache.get(n);
  if (!s) {
    try {
      // Every chunk restarts the generator at seed 0, so chunks of one size share one permutation.
      s = trainTestSplitIndices(n, { testSize: 0.1, randomState: 0 });
    } catch (e) {
      throw new UserError(`${where}: a chunk of ${n} records cannot be split 90/10 (${(e as Error).message})`);
    }
    cache.set(n, s);
  }
  return s;
}

/**
 * Upstream's split of Kaggle's simplified-nq-train.jsonl (17 GB): read in chunks of 1,000 lines,
 * each chunk split 90/10 (random_state 0) and appended to public/simplified-nq-train.jsonl,
 * private/test.jsonl and (without the annotations and URL) public/simplified-nq-test.jsonl,
 * written as pandas' to_json writes records. The gold submission has a short and a long answer
 * per test question; the sample submission leaves both empty. Streams: a chunk at a time.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "simplified-nq-train.jsonl");
  if (!fs.existsSync(file)) throw new UserError(`${file} does not exist`);
  const train = new Output(path.join(ctx.public, "simplified-nq-train.jsonl"));
  const test = new Output(path.join(ctx.private, "test.jsonl"));
  const publicTest = new Output(path.join(ctx.public, "simplified-nq-test.jsonl"));
  const goldIds: string[] = [];
  const goldAnswersOut: string[] = [];
  const cache = new Map<number, SplitIndices>();
  try {
    for (const chunk of chunks(file)) {
      const at = (i: number) => `${file}: line ${chunk.lineNos[i]}`;
      if (chunk.lines.length === 0) throw new UserError(`${file}: a chunk of ${CHUNK_LINES} lines holds no records`);
      const columns = [...parseRecord(chunk.lines[0], at(0)).keys()];
      for (const k of TEST_KEYS) if (!columns.includes(k)) throw new UserError(`${at(0)}: record has no "${k}"`);
      const split = splitChunk(chunk.lines.length, cache, `${file}: lines ${chunk.lineNos[0]}-${chunk.lineNos.at(-1)}`);
      for (const i of split.train) train.write(record(normalise(parseRecord(chunk.lines[i], at(i)), columns, at(i)), columns, at(i)));
      for (const i of split.test) {
        const rec = normalise(parseRecord(chunk.lines[i], at(i)), columns, at(i));
        test.write(record(rec, columns, at(i)));
        publicTest.write(record(rec, TEST_KEYS, at(i)));
        const id = rec.get("example_id") as string;
        const [short, long] = goldAnswers(rec, at(i));
        goldIds.push(`${id}_short`, `${id}_long`);
        goldAnswersOut.push(short, long);
      }
      // Lines are dropped chunk by chunk, so memory holds one chunk at a time.
      chunk.lines.length = 0;
    }
  } finally {
    train.close();
    test.close();
    publicTest.close();
  }
  const ids = { kind: "string" as const, values: goldIds };
  writeCsv(path.join(ctx.private, "gold_submission.csv"), makeTable([["example_id", ids], ["PredictionString", { kind: "string", values: goldAnswersOut }]]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([["example_id", ids], ["PredictionString", { kind: "string", values: goldIds.map(() => "") }]]));
}
