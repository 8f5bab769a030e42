/**
 * The preparation shared by the English and Russian text-normalization competitions: Kaggle's
 * `<lang>_train.csv` (one row per token) is split by whole sentences, sentence ids are renumbered
 * on each side, and every output is written with csv.QUOTE_NONNUMERIC, as upstream writes them.
 */
import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { writeZip } from "../../io/zip-write.js";
import { dropColumns, takeRows, withColumn } from "../../prepare/frame.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

const REQUIRED = ["sentence_id", "token_id", "class", "before", "after"];
const NONNUMERIC = { quoting: "nonnumeric" } as const;

type IntColumn = { kind: "int"; values: Float64Array };

/** The named column, which must hold integers without gaps (pandas int64). */
function intColumn(t: Table, name: string, file: string): IntColumn {
  const col = t.data.get(name);
  if (!col) throw new UserError(`${file}: no "${name}" column (columns: ${t.columns.join(", ")})`);
  if (col.kind !== "int") throw new UserError(`${file}: column "${name}" must hold whole numbers with no gaps, got ${col.kind} values`);
  return col;
}

/** Distinct values in order of first appearance (pandas `Series.unique()`). */
function uniqueInOrder(values: Float64Array): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (const v of values) {
    if (!seen.has(v)) {
      seen.add(v);
      out.push(v);
    }
  }
  return out;
}

/** Each sentence id replaced by the rank of its first appearance, from 0 (upstream's enumerate(unique()) map). */
function renumber(ids: IntColumn): IntColumn {
  const rank = new Map<number, number>();
  const out = new Float64Array(ids.values.length);
  ids.values.forEach((v, i) => {
    let r = rank.get(v);
    if (r === undefined) rank.set(v, (r = rank.size));
    out[i] = r;
  });
  return { kind: "int", values: out };
}

/** "<sentence>_<token>" ids, as `astype(str)` joins two int64 columns. */
function tokenIds(t: Table): Column {
  const s = t.data.get("sentence_id")!.values as Float64Array;
  const k = t.data.get("token_id")!.values as Float64Array;
  return { kind: "string", values: Array.from(s, (v, i) => `${v}_${k[i]}`) };
}

/** Rows of `t` whose sentence id is (or is not) among `held`, in file order, sentence ids renumbered. */
function sentencesSide(t: Table, ids: IntColumn, held: Set<number>, inHeld: boolean): Table {
  const rows: number[] = [];
  ids.values.forEach((v, i) => {
    if (held.has(v) === inHeld) rows.push(i);
  });
  const side = takeRows(t, rows);
  return withColumn(side, "sentence_id", renumber(side.data.get("sentence_id") as IntColumn));
}

/** Write a CSV into public/, zip it alone under its own name, and remove the bare CSV. */
async function writeZippedCsv(dir: string, name: string, table: Table): Promise<void> {
  const csv = path.join(dir, name);
  writeCsv(csv, table, NONNUMERIC);
  await writeZip(`${csv}.zip`, [{ source: csv, name }]);
  fs.rmSync(csv);
}

/** Upstream's text-normalization preparer for language prefix `lang` ("en" or "ru"). */
export async function prepareTextNormalization(ctx: UpstreamPrepareContext, lang: string): Promise<void> {
  // Upstream unpacks the stage-2 test and sample files as well, though only train is read.
  for (const stem of [`${lang}_test_2`, `${lang}_train`, `${lang}_sample_submission_2`]) {
    await extractArchive(path.join(ctx.raw, `${stem}.csv.zip`), ctx.raw);
  }
  const file = path.join(ctx.raw, `${lang}_train.csv`);
  const old = readCsv(file, { file });
  for (const c of REQUIRED) if (!old.data.has(c)) throw new UserError(`${file}: no "${c}" column (expected ${REQUIRED.join(", ")})`);
  const ids = intColumn(old, "sentence_id", file);
  intColumn(old, "token_id", file);
  // sklearn splits the distinct sentence ids; only which ids land in test matters, not their order.
  const unique = uniqueInOrder(ids.values);
  let split: { train: number[]; test: number[] };
  try {
    split = trainTestSplitIndices(unique.length, { testSize: 0.1, randomState: 0 });
  } catch (e) {
    throw new UserError(`${file}: cannot hold out 10% of ${unique.length} sentence(s): ${(e as Error).message}`);
  }
  const held = new Set(split.test.map((i) => unique[i]));
  const train = sentencesSide(old, ids, held, false);
  const answersFull = sentencesSide(old, ids, held, true);
  const test = dropColumns(answersFull, ["after", "class"], file);
  const idCol = tokenIds(test);
  const answers = makeTable([["id", idCol], ["after", answersFull.data.get("after")!]]);
  const sample = makeTable([["id", idCol], ["after", test.data.get("before")!]]);
  writeCsv(path.join(ctx.private, "answers.csv"), answers, NONNUMERIC);
  writeCsv(path.join(ctx.private, "sample_submission.csv"), sample, NONNUMERIC);
  await writeZippedCsv(ctx.public, `${lang}_train.csv`, train);
  await writeZippedCsv(ctx.public, `${lang}_test_2.csv`, test);
  await writeZippedCsv(ctx.public, `${lang}_sample_submission_2.csv`, sample);
}
