import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { copyTestImages, writeTrainImages } from "../_shared/herbarium-folders.js";
import { categorySubdir, pyZeroPad, readCategorySplit, shuffledTestSamples, withEntries, writeAnswers, writeSortedJson, type Sample } from "../_shared/split-by-category.js";

/**
 * Upstream's split of Kaggle's labelled herbarium sheets (train_metadata.json, train_images/):
 * every category, however small, goes through train_test_split with 20% to test. Train images
 * are renumbered within their category ("15504__001", file 155/04/15504__001.jpg) so the ids
 * have no gaps; test images, shuffled, are numbered by position ("17", 000/test-000017.jpg).
 * The public test metadata is just the list of test image records.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train_metadata.json");
  const { meta, train, test } = readCategorySplit(file, "utf-8", "image_id", { testSize: 0.2, smallCategoriesByTail: false });
  const rawImages = path.join(ctx.raw, "train_images");
  const out = path.join(ctx.public, "train_images");
  writeTrainImages(meta, train, { raw: rawImages, out, categoryRoot: "", metadata: path.join(ctx.public, "train_metadata.json"), rename: renumbered }, file);
  const nameOf = (idx: number): string => `${pyZeroPad(Math.floor(idx / 1000), 3)}/test-${pyZeroPad(idx, 6)}.jpg`;
  const renamed = copyTestImages(shuffledTestSamples(test, file), { raw: rawImages, out: path.join(ctx.public, "test_images"), idKey: "image_id", nameOf }, file);
  writeSortedJson(path.join(ctx.public, "test_metadata.json"), renamed.map((s) => s.image));
  writeAnswers(ctx, renamed, file, { idKey: "image_id", columns: ["Id", "Predicted"], sampleSubmission: "sample_submission.csv", guess: 42 });
}

/** A train sample's records under its id within the category, e.g. "15504__001" in 155/04/. */
function renumbered({ annotation, image }: Sample, category: bigint, idx: number): Sample {
  const id = `${pyZeroPad(category, 5)}__${pyZeroPad(idx + 1, 3)}`;
  return {
    annotation: withEntries(annotation, { image_id: id }),
    image: withEntries(image, { image_id: id, file_name: `${categorySubdir(category)}/${id}.jpg` }),
  };
}
