import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { zipDirectory } from "../../io/zip-write.js";
import { comparePyStr } from "../../pycompat/pystr.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

/**
 * Upstream's split: Kaggle's labelled photos (train.zip, sorted by file name) lose 10% to the
 * test set (random_state 0). Train photos are renumbered per class (cat.0.jpg, dog.0.jpg, ...
 * in split order), test photos become 1.jpg, 2.jpg, ...; both folders stay in public/ and are
 * zipped next to themselves. Answers: label 1 for a dog; the sample submission says 0.5.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  const archive = path.join(ctx.raw, "train.zip");
  await extractArchive(archive, ctx.raw);
  // Upstream also unpacks Kaggle's unlabelled test.zip only to delete it again; nothing of it is
  // used, so it is left packed.
  const photos = path.join(ctx.raw, "train");
  const names = labelledPhotos(photos, archive);
  const { train, test } = trainTestSplitIndices(names.length, { testSize: 0.1, randomState: 0 });

  const trainDir = path.join(ctx.public, "train");
  fs.mkdirSync(trainDir, { recursive: true });
  const counters = { cat: 0, dog: 0 };
  for (const i of train) {
    // Upstream's rule, kept as is: any name containing "cat" is a cat, everything else a dog.
    const kind = names[i].includes("cat") ? "cat" : "dog";
    fs.copyFileSync(path.join(photos, names[i]), path.join(trainDir, `${kind}.${counters[kind]++}.jpg`));
  }
  const testDir = path.join(ctx.public, "test");
  fs.mkdirSync(testDir, { recursive: true });
  test.forEach((i, k) => fs.copyFileSync(path.join(photos, names[i]), path.join(testDir, `${k + 1}.jpg`)));

  await zipDirectory(trainDir, path.join(ctx.public, "train.zip"));
  await zipDirectory(testDir, path.join(ctx.public, "test.zip"));
  fs.rmSync(photos, { recursive: true, force: true });

  const ids = { kind: "int" as const, values: Float64Array.from(test, (_, k) => k + 1) };
  const labels = Float64Array.from(test, (i) => (names[i].includes("dog") ? 1 : 0));
  writeCsv(path.join(ctx.private, "answers.csv"), makeTable([["id", ids], ["label", { kind: "int", values: labels }]]));
  const half = new Float64Array(test.length).fill(0.5);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([["id", ids], ["label", { kind: "float", values: half }]]));
}

/** Names in `dir` matching "*.jpg" (hidden ones too, as pathlib's glob has it), in Python's string order. */
function labelledPhotos(dir: string, archive: string): string[] {
  if (!fs.existsSync(dir)) throw new UserError(`${archive} has no train/ folder of photos`);
  const names = fs.readdirSync(dir).filter((n) => n.endsWith(".jpg"));
  for (const n of names) {
    if (!fs.statSync(path.join(dir, n)).isFile()) throw new UserError(`${path.join(dir, n)} is not a file`);
  }
  if (names.length < 2) throw new UserError(`${archive}: train/ holds ${names.length} .jpg photo(s); at least 2 are needed to split`);
  return names.sort(comparePyStr);
}
