import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable } from "../../core/table.js";
import { writeFileAtomic } from "../../core/atomic.js";
import { formatCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { readPngLuma } from "../../io/png.js";
import { comparePyStr } from "../../pycompat/pystr.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

const HEADER = "id,value\n";

/** Names matching pathlib's `glob("*.png")`, which (unlike glob.glob) keeps dotfiles; the suffix is case-sensitive. */
function pngNames(dir: string): string[] {
  if (!fs.existsSync(dir)) throw new UserError(`${dir} is missing: the archive should unpack into it`);
  return fs.readdirSync(dir).filter((n) => n.endsWith(".png"));
}

/** shutil.move for one file: a rename, or copy and delete when public and private sit on different disks. */
function moveFile(src: string, dest: string): void {
  try {
    fs.renameSync(src, dest);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EXDEV") throw e;
    fs.copyFileSync(src, dest);
    fs.unlinkSync(src);
  }
}

/** Move every `*.png` in `from` whose name is in `names` into `to`. */
function moveSelected(from: string, to: string, names: Set<string>): void {
  fs.mkdirSync(to, { recursive: true });
  for (const name of pngNames(from)) if (names.has(name)) moveFile(path.join(from, name), path.join(to, name));
}

/** pathlib's `stem`: the name without its last suffix. */
function stem(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

/** The CSV rows (no header) of one image: "<stem>_<row>_<col>" ids, 1-based, with one value each. */
function pixelRows(id: string, width: number, height: number, value: (i: number) => number, kind: "float" | "int"): string {
  const n = width * height;
  const ids: string[] = new Array(n);
  const values = new Float64Array(n);
  for (let r = 0, i = 0; r < height; r++) {
    for (let c = 0; c < width; c++, i++) {
      ids[i] = `${id}_${r + 1}_${c + 1}`;
      values[i] = value(i);
    }
  }
  const text = formatCsv(makeTable([["id", { kind: "string", values: ids }], ["value", { kind, values }]]));
  return text.slice(HEADER.length);
}

/**
 * Upstream's split: a fifth of Kaggle's training scans (train_test_split over the sorted file
 * names, random_state 0) become the test set; their cleaned versions turn into answers.csv, one
 * row per pixel with the grey level / 255, and the sample submission predicts 1 everywhere.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  await extractArchive(path.join(ctx.raw, "train.zip"), ctx.public);
  const trainDir = path.join(ctx.public, "train");
  const names = pngNames(trainDir).sort(comparePyStr);
  if (names.length < 2) throw new UserError(`${trainDir}: need at least 2 PNG images to split, found ${names.length}`);
  const split = trainTestSplitIndices(names.length, { testSize: 0.2, randomState: 0 });
  const testNames = new Set(split.test.map((i) => names[i]));
  moveSelected(trainDir, path.join(ctx.public, "test"), testNames);

  await extractArchive(path.join(ctx.raw, "train_cleaned.zip"), ctx.public);
  const held = path.join(ctx.private, "train_cleaned");
  moveSelected(path.join(ctx.public, "train_cleaned"), held, testNames);
  const cleaned = pngNames(held).sort(comparePyStr);
  if (cleaned.length === 0) throw new UserError(`${path.join(ctx.raw, "train_cleaned.zip")}: no cleaned image for any test scan`);

  // One image decoded at a time; the sample submission needs only each image's name and size.
  const sizes: { id: string; width: number; height: number }[] = [];
  function* answers(): Generator<string> {
    yield HEADER;
    for (const name of cleaned) {
      const img = readPngLuma(path.join(held, name));
      sizes.push({ id: stem(name), width: img.width, height: img.height });
      yield pixelRows(stem(name), img.width, img.height, (i) => img.luma[i] / 255, "float");
    }
  }
  writeFileAtomic(path.join(ctx.private, "answers.csv"), answers());
  function* sample(): Generator<string> {
    yield HEADER;
    for (const s of sizes) yield pixelRows(s.id, s.width, s.height, () => 1, "int");
  }
  writeFileAtomic(path.join(ctx.public, "sampleSubmission.csv"), sample());
  fs.rmSync(held, { recursive: true, force: true });
}
