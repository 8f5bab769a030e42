import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, makeTable, takeColumn, type Column, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { copyTree } from "../../prepare/copy-tree.js";
import { column } from "../../prepare/frame.js";
import { downloadToFile } from "../../sources/kaggle/download.js";
import { CLASS_NAMES } from "./classes.js";

/** The test labels Freesound released after the competition (on Zenodo), as upstream fetches them. */
export const META_URL = "https://zenodo.org/records/3612637/files/FSDKaggle2019.meta.zip?download=1";
const META = "FSDKaggle2019.meta";

/**
 * Upstream's preparation: Kaggle's files are copied into public/ as they are, and the answers are
 * the "Private" rows of the post-competition test labels, as fname plus one 0/1 column per class.
 * The labels zip is downloaded into raw/ unless it is already there (a copy placed by hand is
 * used and kept; a downloaded one is deleted afterwards, as upstream does).
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  const zip = path.join(ctx.raw, `${META}.zip`);
  // Fetched before anything is copied, so a failed download leaves public/ untouched.
  const downloaded = !fs.existsSync(zip);
  if (downloaded) await download(zip);
  for (const name of fs.readdirSync(ctx.raw).sort()) {
    if (name.includes(META)) continue;
    copyItem(path.join(ctx.raw, name), path.join(ctx.public, name));
  }
  const unpacked = path.join(ctx.raw, META);
  await extractArchive(zip, ctx.raw);
  try {
    const file = path.join(unpacked, "test_post_competition.csv");
    if (!fs.existsSync(file)) throw new UserError(`${zip} holds no ${META}/test_post_competition.csv`);
    writeCsv(path.join(ctx.private, "test.csv"), manyHot(privateRows(readCsv(file, { file }), file), file));
  } finally {
    fs.rmSync(unpacked, { recursive: true, force: true });
    if (downloaded) fs.rmSync(zip, { force: true });
  }
}

async function download(zip: string): Promise<void> {
  try {
    await downloadToFile({ url: META_URL, dest: zip });
  } catch (e) {
    throw new UserError(
      `Cannot download the test labels from ${META_URL} (${(e as Error).message}); download the file yourself and put it at ${zip}`,
    );
  }
}

/** `shutil.copytree` for a folder, `shutil.copy` for a file. */
function copyItem(src: string, dst: string): void {
  if (fs.statSync(src).isDirectory()) copyTree(src, dst);
  else fs.copyFileSync(src, dst);
}

/** The rows whose usage is exactly "Private", in file order, as fname and labels columns. */
function privateRows(t: Table, file: string): { fname: Column; labels: Column } {
  const usage = column(t, "usage", file);
  const rows: number[] = [];
  for (let i = 0; i < t.rowCount; i++) if (cellAt(usage, i) === "Private") rows.push(i);
  return { fname: takeColumn(column(t, "fname", file), rows), labels: takeColumn(column(t, "labels", file), rows) };
}

/** fname plus a 0/1 column per class: 1 where the class is one of the row's comma-separated labels. */
function manyHot(rows: { fname: Column; labels: Column }, file: string): Table {
  const n = rows.fname.values.length;
  const hot = CLASS_NAMES.map(() => new Float64Array(n));
  const index = new Map(CLASS_NAMES.map((c, j) => [c, j]));
  for (let i = 0; i < n; i++) {
    const labels = cellAt(rows.labels, i);
    if (typeof labels !== "string") {
      throw new UserError(`${file}: the labels of ${String(cellAt(rows.fname, i))} are ${labels === null ? "missing" : `not text (${labels})`}`);
    }
    // Labels outside the vocabulary have no column, so they are dropped.
    for (const label of labels.split(",")) {
      const j = index.get(label);
      if (j !== undefined) hot[j][i] = 1;
    }
  }
  return makeTable([["fname", rows.fname], ...CLASS_NAMES.map((c, j): [string, Column] => [c, { kind: "int", values: hot[j] }])]);
}
