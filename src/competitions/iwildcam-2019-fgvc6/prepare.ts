import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { zipDirectory } from "../../io/zip-write.js";
import { copyListedFiles } from "../../prepare/copy-listed.js";
import { dropColumns, selectColumns, takeRows } from "../../prepare/frame.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

const REQUIRED = ["id", "category_id", "location"];

/**
 * Upstream's split: Kaggle's camera locations (in order of first appearance) are divided by
 * sklearn with random_state 8 and 10% to test; every image of a test location becomes a test
 * image. Images are copied out of train_images.zip and zipped per side; the sample submission
 * guesses category 0 and, unlike the other files, keeps the original row numbers as an index.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  for (const c of REQUIRED) {
    if (!old.data.has(c)) throw new UserError(`${file}: no column "${c}" (columns: ${old.columns.join(", ")})`);
  }
  const { trainRows, testRows } = splitByLocation(old.data.get("location")!);
  const newTrain = takeRows(old, trainRows);
  const answers = takeRows(old, testRows);
  const newTest = dropColumns(answers, ["category_id"], file);
  const gold = renamed(selectColumns(answers, ["id", "category_id"], file));
  const sample = makeTable([
    // pandas writes an unnamed index as an empty header field.
    ["", { kind: "int", values: Float64Array.from(testRows) }],
    ["Id", answers.data.get("id")!],
    ["Category", { kind: "int", values: new Float64Array(testRows.length) }],
  ]);

  writeCsv(path.join(ctx.private, "test.csv"), answers);
  writeCsv(path.join(ctx.private, "answers.csv"), gold);
  writeCsv(path.join(ctx.public, "train.csv"), newTrain);
  writeCsv(path.join(ctx.public, "test.csv"), newTest);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);

  const images = path.join(ctx.raw, "train_images");
  const staged = !fs.existsSync(images);
  await extractArchive(path.join(ctx.raw, "train_images.zip"), images);
  for (const [table, side] of [[newTrain, "train_images"], [newTest, "test_images"]] as const) {
    const dest = path.join(ctx.public, side);
    copyListedFiles(table, "id", { from: images, to: dest, suffix: ".jpg", listedIn: file, note: "expected at the top level of train_images.zip" });
    await zipDirectory(dest, path.join(ctx.public, `${side}.zip`));
    fs.rmSync(dest, { recursive: true, force: true });
  }
  // Only a folder this run unpacked is removed; one the user unpacked beforehand stays.
  if (staged) fs.rmSync(images, { recursive: true, force: true });
}

/** Row numbers on each side, kept in file order as pandas' boolean masks keep them. */
function splitByLocation(locations: Column): { trainRows: number[]; testRows: number[] } {
  const keys: string[] = [];
  for (let i = 0; i < locations.values.length; i++) keys.push(cellKey(cellAt(locations, i)));
  // pandas' unique() keeps one NaN, which takes part in the shuffle but never matches `in`.
  const unique = [...new Set(keys)];
  const split = trainTestSplitIndices(unique.length, { testSize: 0.1, randomState: 8 });
  const testLocations = new Set(split.test.map((i) => unique[i]).filter((k) => k !== MISSING));
  const trainRows: number[] = [];
  const testRows: number[] = [];
  keys.forEach((k, i) => (testLocations.has(k) ? testRows : trainRows).push(i));
  return { trainRows, testRows };
}

const MISSING = "missing";

/** A value's identity for equality; numbers and text never collide. */
function cellKey(v: ReturnType<typeof cellAt>): string {
  if (v === null) return MISSING;
  return `${typeof v === "string" ? "s" : "n"}:${String(v)}`;
}

function renamed(t: Table): Table {
  return makeTable([
    ["Id", t.data.get("id")!],
    ["Category", t.data.get("category_id")!],
  ]);
}
