/**
 * The folder layouts of the herbarium preparers. 2020 and 2021 share one preparer: their Kaggle
 * folders differ only in where the labelled `train/` folder sits, in the metadata's text encoding
 * and in the name of one dataset-wide list (regions or institutions) that the test metadata leaves
 * out. 2022 renames its train images, but copies train and test images the same way: train images
 * into one folder per category, test images, shuffled, under names made from their position.
 */
import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import type { PyJsonObject } from "../../pycompat/pyjson.js";
import type { MetadataEncoding } from "./metadata-json.js";
import { categorySubdir, copyImage, publicTestMetadata, pyZeroPad, readCategorySplit, relativeFileName, shuffledTestSamples, withEntries, writeAnswers, writeSortedJson, type CategoryGroups, type Sample } from "./split-by-category.js";

/** Where one competition keeps its data, relative to raw/ and public/. */
export interface HerbariumLayout {
  /** The folder holding train/ and (on Kaggle) test/, e.g. "nybg2020"; "" for the top level. */
  root: string;
  encoding: MetadataEncoding;
  /** The top-level list besides categories that the test metadata drops. */
  trainOnlyList: string;
}

/**
 * Herbarium 2020 and 2021: each category gives 20% of its images to a new test set (see
 * split-by-category.ts for small categories). Train images keep their records and paths; test
 * images, shuffled, are renamed by position (id "17", file images/000/17.jpg) so neither reveals
 * the category.
 */
export function prepareHerbarium(ctx: UpstreamPrepareContext, layout: HerbariumLayout): void {
  const rawTrain = path.join(ctx.raw, layout.root, "train");
  const file = path.join(rawTrain, "metadata.json");
  const { meta, train, test } = readCategorySplit(file, layout.encoding, "id", { testSize: 0.2, smallCategoriesByTail: true });
  const out = path.join(ctx.public, layout.root);
  writeTrainImages(meta, train, { raw: rawTrain, out: path.join(out, "train"), categoryRoot: "images", metadata: path.join(out, "train", "metadata.json") }, file);
  const nameOf = (idx: number): string => `images/${pyZeroPad(Math.floor(idx / 1000), 3)}/${idx}.jpg`;
  const images = copyTestImages(shuffledTestSamples(test, file), { raw: rawTrain, out: path.join(out, "test"), idKey: "id", nameOf }, file);
  const testMeta = publicTestMetadata(meta, ["categories", layout.trainOnlyList], images.map((x) => x.image), file);
  writeSortedJson(path.join(out, "test", "metadata.json"), testMeta);
  writeAnswers(ctx, images, file, { idKey: "id", columns: ["Id", "Predicted"], sampleSubmission: "sample_submission.csv", guess: 0 });
}

/** Where train images go. */
export interface TrainImages {
  /** The folder the records' file_names are relative to. */
  raw: string;
  /** The folder the copies' file_names are relative to. */
  out: string;
  /** Where, under `out`, each category's folder is made ("" for `out` itself). */
  categoryRoot: string;
  /** Where the train metadata is written. */
  metadata: string;
  /** A sample's records as the copy has them (by default unchanged); `idx` counts within its category. */
  rename?: (sample: Sample, category: bigint, idx: number) => Sample;
}

/** Copies the train images category by category and writes the train metadata listing them (json.dump, sorted keys). */
export function writeTrainImages(meta: PyJsonObject, train: CategoryGroups, to: TrainImages, file: string): void {
  const annotations: PyJsonObject[] = [];
  const images: PyJsonObject[] = [];
  for (const [category, samples] of train) {
    // Upstream makes every category's folder, whatever the file names say.
    fs.mkdirSync(path.join(to.out, to.categoryRoot, categorySubdir(category)), { recursive: true });
    samples.forEach((sample, idx) => {
      const kept = to.rename ? to.rename(sample, category, idx) : sample;
      annotations.push(kept.annotation);
      images.push(kept.image);
      copyImage(path.join(to.raw, relativeFileName(sample.image, file)), path.join(to.out, relativeFileName(kept.image, file)), file);
    });
  }
  writeSortedJson(to.metadata, withEntries(meta, { annotations, images }));
}

/** Where test images go and what they are renamed to. */
export interface TestImages {
  /** The folder the records' file_names are relative to. */
  raw: string;
  /** The folder the renamed file_names are relative to. */
  out: string;
  /** The image record's id field, which becomes the position as a string. */
  idKey: string;
  /** The new file_name of the image at position `idx` of the shuffled list. */
  nameOf: (idx: number) => string;
}

/** Copies the test images under their positional names; returns the samples with renamed image records. */
export function copyTestImages(samples: Sample[], to: TestImages, file: string): Sample[] {
  return samples.map(({ annotation, image }, idx) => {
    const fileName = to.nameOf(idx);
    copyImage(path.join(to.raw, relativeFileName(image, file)), path.join(to.out, fileName), file);
    return { annotation, image: withEntries(image, { [to.idKey]: String(idx), file_name: fileName }) };
  });
}
