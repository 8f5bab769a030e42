import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, makeTable, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { dropColumns, trainTestSplitTable, withColumn } from "../../prepare/frame.js";
import { comparePyStr } from "../../pycompat/pystr.js";

const TARGETS = ["formation_energy_ev_natom", "bandgap_energy_ev"];
// Upstream's constant predictions for the sample submission.
const SAMPLE_VALUES: [string, number][] = [
  ["formation_energy_ev_natom", 0.1779],
  ["bandgap_energy_ev", 1.8892],
];

/**
 * Renumber a split's ids 1, 2, ... in row order. Returns the new id column and the old → new
 * map; an id that repeats maps to its last position, as building a dict by enumeration does.
 */
function renumber(t: Table, file: string): { ids: Column; map: Map<number, number> } {
  const col = t.data.get("id");
  if (!col) throw new UserError(`${file}: no "id" column (columns: ${t.columns.join(", ")})`);
  const old: number[] = [];
  for (let i = 0; i < t.rowCount; i++) {
    const v = cellAt(col, i);
    if (typeof v !== "number") throw new UserError(`${file}: every id should be a number, found ${v === null ? "an empty one" : JSON.stringify(String(v))}`);
    old.push(v);
  }
  const map = new Map<number, number>();
  old.forEach((v, i) => map.set(v, i + 1));
  return { ids: { kind: "int", values: Float64Array.from(old, (v) => map.get(v)!) }, map };
}

/** Python's `int(name)` for a folder name of plain digits (with optional sign and surrounding spaces). */
function folderId(name: string, where: string): number {
  const t = name.trim();
  if (!/^[+-]?\d+$/.test(t)) throw new UserError(`${where}: folder "${name}" should be named by a numeric id`);
  return Number(t);
}

/**
 * What `sorted(glob("<root>/**\/*.xyz"))` lists without recursive=True: one folder level, hidden
 * entries skipped, as [folder, file] pairs in sorted path order.
 */
function geometryFiles(root: string): [string, string][] {
  if (!fs.existsSync(root)) throw new UserError(`${root} is missing: train.zip should unpack into it`);
  const out: [string, string][] = [];
  for (const d of fs.readdirSync(root, { withFileTypes: true })) {
    if (!d.isDirectory() || d.name.startsWith(".")) continue;
    for (const f of fs.readdirSync(path.join(root, d.name))) {
      if (f.endsWith(".xyz") && !f.startsWith(".")) out.push([d.name, f]);
    }
  }
  return out.sort((a, b) => comparePyStr(`${a[0]}/${a[1]}`, `${b[0]}/${b[1]}`));
}

/** Copy each geometry whose id is in `map` to `<dest>/<new id>/geometry.xyz` (later files of a folder overwrite earlier ones). */
function copyGeometries(root: string, files: [string, string][], map: Map<number, number>, dest: string): void {
  for (const [folder, file] of files) {
    const id = map.get(folderId(folder, root));
    if (id === undefined) continue;
    const to = path.join(dest, String(id));
    fs.mkdirSync(to, { recursive: true });
    fs.copyFileSync(path.join(root, folder, file), path.join(to, "geometry.xyz"));
  }
}

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the test set, both halves
 * renumbered from 1 in split order, each structure's geometry.xyz copied under its new id; the
 * sample submission holds upstream's constant predictions.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  for (const [archive, dest] of [
    ["train.zip", "train"],
    ["train.csv.zip", "train.csv"],
    ["test.zip", "test"],
    ["test.csv.zip", "test.csv"],
  ]) {
    await extractArchive(path.join(ctx.raw, archive), path.join(ctx.raw, dest));
  }
  const file = path.join(ctx.raw, "train.csv", "train.csv");
  const old = readCsv(file, { file });
  for (const t of TARGETS) if (!old.data.has(t)) throw new UserError(`${file}: no "${t}" column`);
  const split = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const train = renumber(split.train, file);
  const test = renumber(split.test, file);
  const newTrain = withColumn(split.train, "id", train.ids);
  const newTest = withColumn(split.test, "id", test.ids);
  writeCsv(path.join(ctx.public, "train.csv"), newTrain);
  writeCsv(path.join(ctx.private, "test.csv"), newTest);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(newTest, TARGETS, file));

  const root = path.join(ctx.raw, "train", "train");
  const files = geometryFiles(root);
  copyGeometries(root, files, train.map, path.join(ctx.public, "train"));
  copyGeometries(root, files, test.map, path.join(ctx.public, "test"));

  const n = newTest.rowCount;
  const sample = makeTable([
    ["id", test.ids],
    ...SAMPLE_VALUES.map(([name, v]): [string, Column] => [name, { kind: "float", values: new Float64Array(n).fill(v) }]),
  ]);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
}
