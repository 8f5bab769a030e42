import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, makeTable, type Table } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { trainTestSplitTable, withColumn } from "../../prepare/frame.js";
import { comparePyStr } from "../../pycompat/pystr.js";

/** One row (file, species) per .png in each species folder of train/, both levels sorted. */
function listTrainImages(trainDir: string): Table {
  if (!fs.existsSync(trainDir) || !fs.statSync(trainDir).isDirectory()) {
    throw new UserError(`${trainDir}: expected a folder of species folders holding the training images`);
  }
  const files: string[] = [];
  const species: string[] = [];
  for (const label of fs.readdirSync(trainDir).sort(comparePyStr)) {
    const folder = path.join(trainDir, label);
    if (!fs.statSync(folder).isDirectory()) continue;
    for (const name of fs.readdirSync(folder).sort(comparePyStr)) {
      if (!name.endsWith(".png")) continue;
      files.push(name);
      species.push(label);
    }
  }
  if (files.length === 0) throw new UserError(`${trainDir}: no .png images in any species folder`);
  return makeTable([
    ["file", { kind: "string", values: files }],
    ["species", { kind: "string", values: species }],
  ]);
}

function copyImage(src: string, dest: string): void {
  if (!fs.existsSync(src) || !fs.statSync(src).isFile()) throw new UserError(`${src}: expected an image file`);
  fs.copyFileSync(src, dest);
}

/**
 * Upstream's split: the images in Kaggle's train/<species>/ folders are listed, 14% of them
 * (random_state 0) become the test set, copied flat into public/test; the rest keep their species
 * folders under public/train. The sample submission guesses "Sugar beet" everywhere.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const trainDir = path.join(ctx.raw, "train");
  const old = listTrainImages(trainDir);
  const { train, test } = trainTestSplitTable(old, { testSize: 0.14, randomState: 0 });
  const guess = { kind: "string" as const, values: new Array<string>(test.rowCount).fill("Sugar beet") };
  writeCsv(path.join(ctx.private, "answers.csv"), test);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(test, "species", guess));
  fs.mkdirSync(path.join(ctx.public, "test"), { recursive: true });
  fs.mkdirSync(path.join(ctx.public, "train"), { recursive: true });
  const at = (t: Table, c: string, i: number) => String(cellAt(t.data.get(c)!, i));
  for (let i = 0; i < train.rowCount; i++) {
    const [file, label] = [at(train, "file", i), at(train, "species", i)];
    const dest = path.join(ctx.public, "train", label);
    fs.mkdirSync(dest, { recursive: true });
    copyImage(path.join(trainDir, label, file), path.join(dest, file));
  }
  for (let i = 0; i < test.rowCount; i++) {
    const [file, label] = [at(test, "file", i), at(test, "species", i)];
    copyImage(path.join(trainDir, label, file), path.join(ctx.public, "test", file));
  }
}
