import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { writeCsv } from "../../io/csv-write.js";
import type { PyJsonObject } from "../../pycompat/pyjson.js";
import { readMetadataJson } from "../_shared/metadata-json.js";
import {
  categorySubdir,
  constantIntColumn,
  copyImage,
  groupByCategory,
  labelColumn,
  metadataObject,
  pairSamples,
  pyZeroPad,
  relativeFileName,
  shuffledTestSamples,
  splitByCategory,
  twoColumnTable,
  withEntries,
  writeSortedJson,
  type CategoryGroups,
  type Sample,
} from "../_shared/split-by-category.js";

/**
 * Upstream's split of Kaggle's labelled herbarium sheets (train_metadata.json, train_images/):
 * every category, however small, goes through train_test_split with 20% to test. Train images
 * are renumbered within their category ("15504__001", file 155/04/15504__001.jpg) so the ids
 * have no gaps; test images, shuffled, are numbered by position ("17", 000/test-000017.jpg).
 * The public test metadata is just the list of test image records.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train_metadata.json");
  const meta = metadataObject(readMetadataJson(file, "utf-8"), file);
  const groups = groupByCategory(pairSamples(meta, "image_id", file), file);
  const { train, test } = splitByCategory(groups, { testSize: 0.2, smallCategoriesByTail: false }, file);
  const rawImages = path.join(ctx.raw, "train_images");
  writeTrain(meta, train, rawImages, ctx.public, file);
  const renamed = writeTest(shuffledTestSamples(test, file), rawImages, ctx.public, file);
  writeAnswers(ctx, renamed, file);
}

function writeTrain(meta: PyJsonObject, train: CategoryGroups, rawImages: string, pub: string, file: string): void {
  const annotations: PyJsonObject[] = [];
  const images: PyJsonObject[] = [];
  const out = path.join(pub, "train_images");
  for (const [category, samples] of train) {
    const subdir = categorySubdir(category);
    fs.mkdirSync(path.join(out, subdir), { recursive: true });
    samples.forEach(({ annotation, image }, idx) => {
      const id = `${pyZeroPad(category, 5)}__${pyZeroPad(idx + 1, 3)}`;
      const fileName = `${subdir}/${id}.jpg`;
      annotations.push(withEntries(annotation, { image_id: id }));
      images.push(withEntries(image, { image_id: id, file_name: fileName }));
      copyImage(path.join(rawImages, relativeFileName(image, file)), path.join(out, fileName), file);
    });
  }
  writeSortedJson(path.join(pub, "train_metadata.json"), withEntries(meta, { annotations, images }));
}

/** Copies the test images under their positional names; returns the samples with renamed records. */
function writeTest(samples: Sample[], rawImages: string, pub: string, file: string): Sample[] {
  const renamed = samples.map(({ annotation, image }, idx) => {
    const fileName = `${pyZeroPad(Math.floor(idx / 1000), 3)}/test-${pyZeroPad(idx, 6)}.jpg`;
    copyImage(path.join(rawImages, relativeFileName(image, file)), path.join(pub, "test_images", fileName), file);
    return { annotation, image: withEntries(image, { image_id: String(idx), file_name: fileName }) };
  });
  writeSortedJson(path.join(pub, "test_metadata.json"), renamed.map((s) => s.image));
  return renamed;
}

function writeAnswers(ctx: UpstreamPrepareContext, test: Sample[], file: string): void {
  const ids = labelColumn(test.map((s) => s.image.get("image_id")!), `${file} (test ids)`);
  const labels = labelColumn(test.map((s) => s.annotation.get("category_id")!), `${file} (category_id)`);
  writeCsv(path.join(ctx.private, "answers.csv"), twoColumnTable(["Id", "Predicted"], ids, labels));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), twoColumnTable(["Id", "Predicted"], ids, constantIntColumn(42, test.length)));
}
