import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyTree } from "../../prepare/copy-tree.js";
import { selectColumns, takeRows, withColumn } from "../../prepare/frame.js";
import { comparePyStrings } from "../../prepare/groupby.js";
import { PythonRandom } from "../../rng/python-random.js";
import { pythonRoundHalfEven } from "../../rng/pandas-sample.js";

const UID = "StudyInstanceUID";
// Upstream keeps this share of studies (and of the box and segmentation subsets) for training.
const TRAIN_RATIO = 0.1;

/** The study ids of a table, which must all be present text. */
function studyIds(t: Table, file: string): string[] {
  const col = t.data.get(UID);
  if (!col) throw new UserError(`${file}: no "${UID}" column (columns: ${t.columns.join(", ")})`);
  if (col.kind !== "string") throw new UserError(`${file}: column "${UID}" must hold text ids, found ${col.kind} values`);
  const gap = col.values.indexOf(null);
  if (gap >= 0) throw new UserError(`${file}: row ${gap + 1} has no ${UID}`);
  return col.values as string[];
}

/** Python's `round(n * 0.1)`: the float product rounded half to even. */
function tenth(n: number): number {
  return pythonRoundHalfEven(n * TRAIN_RATIO);
}

/** `rng.sample(population, k)`, with upstream's failure turned into a message about the data. */
function sample(rng: PythonRandom, population: string[], k: number, what: string): string[] {
  if (k < 0 || k > population.length) {
    throw new UserError(`cannot pick ${k} ${what} from ${population.length}: the box, segmentation and study counts do not fit upstream's split`);
  }
  return rng.sample(population, k);
}

/** Study ids of the segmentation files (`<uid>.nii`), sorted as Python sorts str. */
function segmentationIds(dir: string): string[] {
  if (!fs.existsSync(dir)) throw new UserError(`${dir} is missing: expected Kaggle's folder of <StudyInstanceUID>.nii segmentations`);
  return fs.readdirSync(dir).filter((n) => n.endsWith(".nii")).map((n) => n.slice(0, -".nii".length)).sort(comparePyStrings);
}

interface Picks {
  train: Set<string>;
  boxes: Set<string>;
  segmentations: string[];
}

/**
 * Upstream's draws with `random.Random(0)`, in its order: part of the studies with both boxes and
 * segmentations, then segmentation-only, then box-only studies, then any other studies up to a
 * tenth of train.csv.
 */
function pickTrainStudies(allIds: string[], boxIds: string[], segIds: string[]): Picks {
  const rng = new PythonRandom(0);
  const segSet = new Set(segIds);
  const overlap = boxIds.filter((u) => segSet.has(u));
  const inOverlap = new Set(overlap);
  const both = sample(rng, overlap, tenth(overlap.length), "studies with boxes and segmentations");
  const segExtra = sample(rng, segIds.filter((u) => !inOverlap.has(u)), tenth(segIds.length) - both.length, "segmented studies");
  const boxExtra = sample(rng, boxIds.filter((u) => !inOverlap.has(u)), tenth(boxIds.length) - both.length, "studies with boxes");
  const chosen = [...both, ...segExtra, ...boxExtra];
  const taken = new Set(chosen);
  const rest = sample(rng, allIds.filter((u) => !taken.has(u)), tenth(allIds.length) - chosen.length, "further studies");
  return { train: new Set([...chosen, ...rest]), boxes: new Set([...both, ...boxExtra]), segmentations: [...both, ...segExtra] };
}

/** Rows whose study is (or, with `keep` false, is not) in `ids`, in file order. */
function rowsWhere(t: Table, uids: string[], ids: Set<string>, keep: boolean): Table {
  const rows: number[] = [];
  uids.forEach((u, i) => {
    if (ids.has(u) === keep) rows.push(i);
  });
  return takeRows(t, rows);
}

/** The common dtype pandas' melt gives the label columns: int64 if all are, else float64. */
function meltKind(t: Table, names: string[], file: string): "int" | "float" {
  let kind: "int" | "float" = "int";
  for (const n of names) {
    const k = t.data.get(n)!.kind;
    if (k === "float") kind = "float";
    else if (k !== "int") throw new UserError(`${file}: column "${n}" must hold 0/1 fracture labels, found ${k} values`);
  }
  return kind;
}

/** `melt(id_vars=UID, var_name="prediction_type", value_name="fractured")` plus row_id: column by column, all studies each. */
function meltAnswers(test: Table, file: string): Table {
  const uids = studyIds(test, file);
  const labels = test.columns.filter((c) => c !== UID);
  const kind = meltKind(test, labels, file);
  const n = uids.length * labels.length;
  const fractured = new Float64Array(n);
  const types: string[] = [];
  const ids: string[] = [];
  const rowIds: string[] = [];
  labels.forEach((name, j) => {
    const values = test.data.get(name)!.values as Float64Array;
    uids.forEach((u, i) => {
      fractured[j * uids.length + i] = values[i];
      ids.push(u);
      types.push(name);
      rowIds.push(`${u}_${name}`);
    });
  });
  const text = (values: string[]): Column => ({ kind: "string", values });
  return makeTable([
    [UID, text(ids)],
    ["prediction_type", text(types)],
    ["fractured", { kind, values: fractured }],
    ["row_id", text(rowIds)],
  ]);
}

/** Copy each study's folder of slices from Kaggle's train_images/ into public/<folder>/. */
function copyStudies(ctx: UpstreamPrepareContext, uids: Iterable<string>, folder: string): void {
  const dest = path.join(ctx.public, folder);
  fs.mkdirSync(dest, { recursive: true });
  for (const u of uids) copyTree(path.join(ctx.raw, "train_images", u), path.join(dest, u), `folder of CT slices for study ${u}`);
}

/**
 * Upstream's split: a tenth of Kaggle's studies (keeping the shares of studies with boxes, with
 * segmentations and with both) stay in train; the other nine tenths become the test set, one
 * answer row per study and label column.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const boxFile = path.join(ctx.raw, "train_bounding_boxes.csv");
  const old = readCsv(file, { file });
  const boxes = readCsv(boxFile, { file: boxFile });
  const uids = studyIds(old, file);
  const boxUids = studyIds(boxes, boxFile);
  const boxIds = [...new Set(boxUids)].sort(comparePyStrings);
  const segDir = path.join(ctx.raw, "segmentations");
  const picks = pickTrainStudies(uids, boxIds, segmentationIds(segDir));

  const train = rowsWhere(old, uids, picks.train, true);
  const answers = meltAnswers(rowsWhere(old, uids, picks.train, false), file);
  const half = { kind: "float" as const, values: new Float64Array(answers.rowCount).fill(0.5) };
  const test = selectColumns(answers, [UID, "prediction_type", "row_id"], file);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "train_bounding_boxes.csv"), rowsWhere(boxes, boxUids, picks.boxes, true));
  writeCsv(path.join(ctx.private, "answers.csv"), answers);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(selectColumns(answers, ["row_id", "fractured"], file), "fractured", half));
  writeCsv(path.join(ctx.public, "test.csv"), test);

  fs.mkdirSync(path.join(ctx.public, "segmentations"), { recursive: true });
  for (const u of picks.segmentations) {
    fs.copyFileSync(path.join(segDir, `${u}.nii`), path.join(ctx.public, "segmentations", `${u}.nii`));
  }
  copyStudies(ctx, studyIds(train, file), "train_images");
  copyStudies(ctx, new Set(studyIds(test, file)), "test_images");
}
