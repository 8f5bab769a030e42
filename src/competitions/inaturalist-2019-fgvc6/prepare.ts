import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { extractArchive } from "../../io/extract.js";
import type { PyJsonObject } from "../../pycompat/pyjson.js";
import { PythonRandom } from "../../rng/python-random.js";
import { publicTestMetadata, readCategorySplit, relativeFileName, shuffledTestSamples, withEntries, writeAnswers, writeSortedJson, type Sample } from "../_shared/split-by-category.js";
import { compareWalkOrder, writeTar, type TarMember } from "./tar-write.js";

const TRAIN_FOLDER = "train_val2019";
const TEST_FOLDER = "test2019";

/**
 * Upstream's split of Kaggle's train2019.json: each category gives 12% of its images (Kaggle's
 * test/train+val ratio) to a new test set, small categories as in split-by-category.ts. Test
 * images move to test2019/<file name> and are shuffled; val2019.json is copied unchanged. The
 * images end up in two plain (not gzipped, despite the name) tars, train_val2019.tar.gz and
 * test2019.tar.gz, written straight from the raw files; see README.md for how they compare
 * with upstream's.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  if (!fs.existsSync(path.join(ctx.raw, TRAIN_FOLDER))) await extractArchive(path.join(ctx.raw, `${TRAIN_FOLDER}.tar.gz`), ctx.raw);
  const file = path.join(ctx.raw, "train2019.json");
  const { meta, train, test } = readCategorySplit(file, "utf-8", "id", { testSize: 0.12, smallCategoriesByTail: true });

  const trainSamples = [...train.values()].flat();
  const annotations = trainSamples.map((s) => s.annotation);
  const images = trainSamples.map((s) => s.image);
  writeSortedJson(path.join(ctx.public, "train2019.json"), withEntries(meta, { annotations, images }));
  copyFile(path.join(ctx.raw, "val2019.json"), path.join(ctx.public, "val2019.json"));

  const testSamples = shuffledTestSamples(test, file);
  const testImages = testSamples.map((s) => withEntries(s.image, { file_name: `${TEST_FOLDER}/${baseName(s.image, file)}` }));
  writeSortedJson(path.join(ctx.public, "test2019.json"), publicTestMetadata(meta, ["categories"], testImages, file));
  // Upstream seeds a fresh random.Random(42) for every row, so each row gets its first draw.
  const guess = new PythonRandom(42).randint(0, 1009);
  writeAnswers(ctx, testSamples, file, { idKey: "id", columns: ["id", "predicted"], sampleSubmission: "kaggle_sample_submission.csv", guess });

  writeTar(path.join(ctx.public, `${TEST_FOLDER}.tar.gz`), archiveOrder(testMembers(ctx.raw, testSamples, file), TEST_FOLDER));
  writeTar(path.join(ctx.public, `${TRAIN_FOLDER}.tar.gz`), archiveOrder(trainMembers(ctx.raw, trainSamples, file), TRAIN_FOLDER));
}

function copyFile(src: string, dst: string): void {
  if (!fs.existsSync(src)) throw new UserError(`${src} is missing; Kaggle's inaturalist-2019-fgvc6 data ships it`);
  fs.copyFileSync(src, dst);
}

/** The last "/"-separated part of an image's file_name (upstream's split("/")[-1]). */
function baseName(image: PyJsonObject, file: string): string {
  return relativeFileName(image, file).split("/").at(-1)!;
}

/** Train images keep their path under train_val2019/, which is the tar's root. */
function trainMembers(raw: string, samples: Sample[], file: string): TarMember[] {
  return samples.map(({ image }) => {
    const name = relativeFileName(image, file);
    if (!name.startsWith(`${TRAIN_FOLDER}/`)) throw new UserError(`${file}: image file_name "${name}" is not under ${TRAIN_FOLDER}/`);
    return { name: name.slice(TRAIN_FOLDER.length + 1), source: path.join(raw, name) };
  });
}

function testMembers(raw: string, samples: Sample[], file: string): TarMember[] {
  return samples.map(({ image }) => ({ name: baseName(image, file), source: path.join(raw, relativeFileName(image, file)) }));
}

/** Members in the order a sorted walk of the copied folder finds them; each name only once. */
function archiveOrder(members: TarMember[], folder: string): TarMember[] {
  const seen = new Set<string>();
  for (const m of members) {
    // Upstream would copy both onto one file and then fail its image count check.
    if (seen.has(m.name)) throw new UserError(`two ${folder} images would both be stored as "${m.name}"; expected distinct file names`);
    seen.add(m.name);
  }
  return [...members].sort((a, b) => compareWalkOrder(a.name, b.name));
}

/** The same members as upstream's tarfile archives, with fixed headers and order (see README.md). */
export const unverifiable = ["public/train_val2019.tar.gz", "public/test2019.tar.gz"];
