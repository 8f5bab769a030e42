import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyTree } from "../../prepare/copy-tree.js";
import { comparePyStr } from "../../pycompat/pystr.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

const KEPT = ["UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"];
// Upstream's constant guess for every position in the sample submission.
const SAMPLE_LATITUDE = 37.904611315634504;
const SAMPLE_LONGITUDE = -86.48107806249548;

/** The YYYY-MM-DD day a drive ("2021-4-28-US-MTV-1") was recorded, month and day padded to two digits. */
export function driveDate(drive: string): string {
  const parts = drive.split("-");
  if (parts.length < 3 || !parts.slice(0, 3).every((p) => /^[0-9]+$/.test(p))) {
    throw new UserError(`train/${drive}: a drive folder's name should start with YEAR-MONTH-DAY-, got "${drive}"`);
  }
  const [y, m, d] = parts;
  return `${y}-${m.padStart(2, "0")}-${d.padStart(2, "0")}`;
}

function subfolders(dir: string): string[] {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UserError(`${dir} is missing: expected a folder of drives`);
  return fs
    .readdirSync(dir)
    .filter((n) => fs.statSync(path.join(dir, n)).isDirectory())
    .sort(comparePyStr);
}

/** Every ground_truth.csv under a test drive, checked to sit at <drive>/<phone>/ground_truth.csv. */
function groundTruths(testDir: string, drives: string[]): { drive: string; phone: string; file: string }[] {
  const found: { drive: string; phone: string; file: string }[] = [];
  const walk = (dir: string, rel: string[]): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full, [...rel, e.name]);
      else if (e.name === "ground_truth.csv") {
        if (rel.length !== 2) throw new UserError(`${full}: ground_truth.csv should sit in <drive>/<phone>/, found it at ${[...rel, e.name].join("/")}`);
        found.push({ drive: rel[0], phone: rel[1], file: full });
      }
    }
  };
  for (const d of drives) walk(path.join(testDir, d), [d]);
  return found.sort((a, b) => comparePyStr(a.drive, b.drive) || comparePyStr(a.phone, b.phone));
}

/** pandas' concat of one column across frames: ints widen to floats where the parts disagree. */
function concatColumn(parts: Column[], name: string, where: string): Column {
  const kinds = new Set(parts.map((c) => c.kind));
  if (kinds.size === 1 && (kinds.has("int") || kinds.has("float"))) {
    return { kind: parts[0].kind as "int" | "float", values: Float64Array.from(parts.flatMap((c) => Array.from(c.values as Float64Array))) };
  }
  if (kinds.size === 2 && kinds.has("int") && kinds.has("float")) {
    return { kind: "float", values: Float64Array.from(parts.flatMap((c) => Array.from(c.values as Float64Array))) };
  }
  if (kinds.size === 1 && kinds.has("bigint")) return { kind: "bigint", values: parts.flatMap((c) => c.values as bigint[]) };
  throw new UserError(`${where}: column "${name}" should be numeric in every ground_truth.csv, got ${[...kinds].join(" and ")} columns`);
}

/** The test answers: each test phone's ground truth positions, labelled "<drive>-<phone>". */
function testAnswers(files: { drive: string; phone: string; file: string }[], where: string): Table {
  const tables = files.map((f) => ({ trip: `${f.drive}-${f.phone}`, t: readCsv(f.file, { file: f.file }) })).filter((x) => x.t.rowCount > 0);
  if (tables.length === 0) throw new UserError(`${where}: the test drives hold no ground truth rows`);
  for (const { t } of tables) {
    for (const c of KEPT) if (!t.data.has(c)) throw new UserError(`${where}: a ground_truth.csv has no "${c}" column (columns: ${t.columns.join(", ")})`);
  }
  const trip: Column = { kind: "string", values: tables.flatMap(({ trip, t }) => Array<string>(t.rowCount).fill(trip)) };
  return makeTable([["tripId", trip], ...KEPT.map((c): [string, Column] => [c, concatColumn(tables.map(({ t }) => t.data.get(c)!), c, where)])]);
}

function constant(rows: number, v: number): Column {
  return { kind: "float", values: new Float64Array(rows).fill(v) };
}

/**
 * Upstream's split of Kaggle's train drives by recording day: 10% of the distinct days
 * (random_state 0) become the test set. Drives are copied whole to public/train or public/test;
 * the test phones' ground truth becomes private/test.csv and is removed from public/test; the
 * sample submission guesses one fixed position everywhere; metadata/ is copied as it is.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const trainDir = path.join(ctx.raw, "train");
  const drives = subfolders(trainDir);
  const dates = [...new Set(drives.map(driveDate))].sort(comparePyStr);
  let split;
  try {
    split = trainTestSplitIndices(dates.length, { testSize: 0.1, randomState: 0 });
  } catch (e) {
    throw new UserError(`${trainDir}: ${dates.length} recording days cannot be split 90/10 (${(e as Error).message})`);
  }
  const testDates = new Set(split.test.map((i) => dates[i]));
  const testDrives = drives.filter((d) => testDates.has(driveDate(d)));
  for (const d of drives) copyTree(path.join(trainDir, d), path.join(ctx.public, testDates.has(driveDate(d)) ? "test" : "train", d), "drive folder");

  const publicTest = path.join(ctx.public, "test");
  const truths = groundTruths(publicTest, testDrives);
  const answers = testAnswers(truths, publicTest);
  writeCsv(path.join(ctx.private, "test.csv"), answers);
  for (const t of truths) fs.unlinkSync(t.file);

  copyTree(path.join(ctx.raw, "metadata"), path.join(ctx.public, "metadata"), "metadata folder");
  const n = answers.rowCount;
  const sample = makeTable([
    ["tripId", answers.data.get("tripId")!],
    ["UnixTimeMillis", answers.data.get("UnixTimeMillis")!],
    ["LatitudeDegrees", constant(n, SAMPLE_LATITUDE)],
    ["LongitudeDegrees", constant(n, SAMPLE_LONGITUDE)],
  ]);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
}
