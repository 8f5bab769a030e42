/**
 * The preparer Herbarium 2020 and 2021 share: their Kaggle folders differ only in where the
 * labelled `train/` folder sits, in the metadata's text encoding and in the name of one
 * dataset-wide list (regions or institutions) that the test metadata leaves out.
 */
import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { writeCsv } from "../../io/csv-write.js";
import type { PyJsonObject } from "../../pycompat/pyjson.js";
import { readMetadataJson, type MetadataEncoding } from "./metadata-json.js";
import {
  categorySubdir,
  constantIntColumn,
  copyImage,
  groupByCategory,
  labelColumn,
  metadataObject,
  pairSamples,
  publicTestMetadata,
  pyZeroPad,
  relativeFileName,
  shuffledTestSamples,
  splitByCategory,
  twoColumnTable,
  withEntries,
  writeSortedJson,
  type CategoryGroups,
  type Sample,
} from "./split-by-category.js";

/** Where one competition keeps its data, relative to raw/ and public/. */
export interface HerbariumLayout {
  /** The folder holding train/ and (on Kaggle) test/, e.g. "nybg2020"; "" for the top level. */
  root: string;
  encoding: MetadataEncoding;
  /** The top-level list besides categories that the test metadata drops. */
  trainOnlyList: string;
}

interface Paths {
  rawTrain: string;
  metadata: string;
}

/**
 * Each category gives 20% of its images to a new test set (see split-by-category.ts for small
 * categories). Train images keep their records and paths; test images, shuffled, are renamed by
 * position (id "17", file images/000/17.jpg) so neither reveals the category.
 */
export function prepareHerbarium(ctx: UpstreamPrepareContext, layout: HerbariumLayout): void {
  const rawTrain = path.join(ctx.raw, layout.root, "train");
  const p: Paths = { rawTrain, metadata: path.join(rawTrain, "metadata.json") };
  const meta = metadataObject(readMetadataJson(p.metadata, layout.encoding), p.metadata);
  const groups = groupByCategory(pairSamples(meta, "id", p.metadata), p.metadata);
  const { train, test } = splitByCategory(groups, { testSize: 0.2, smallCategoriesByTail: true }, p.metadata);
  writeTrain(meta, train, p, path.join(ctx.public, layout.root, "train"));
  const images = writeTestImages(shuffledTestSamples(test, p.metadata), p, path.join(ctx.public, layout.root, "test"));
  const testMeta = publicTestMetadata(meta, ["categories", layout.trainOnlyList], images.map((x) => x.image), p.metadata);
  writeSortedJson(path.join(ctx.public, layout.root, "test", "metadata.json"), testMeta);
  writeAnswers(ctx, images, p.metadata);
}

function writeTrain(meta: PyJsonObject, train: CategoryGroups, p: Paths, out: string): void {
  const annotations: PyJsonObject[] = [];
  const images: PyJsonObject[] = [];
  for (const [category, samples] of train) {
    // Upstream makes every category's folder, whatever the file names say.
    fs.mkdirSync(path.join(out, "images", categorySubdir(category)), { recursive: true });
    for (const { annotation, image } of samples) {
      annotations.push(annotation);
      images.push(image);
      const name = relativeFileName(image, p.metadata);
      copyImage(path.join(p.rawTrain, name), path.join(out, name), p.metadata);
    }
  }
  writeSortedJson(path.join(out, "metadata.json"), withEntries(meta, { annotations, images }));
}

/** Copies the test images under their positional names; returns the renamed image records. */
function writeTestImages(samples: Sample[], p: Paths, out: string): Sample[] {
  return samples.map(({ annotation, image }, idx) => {
    const fileName = `images/${pyZeroPad(Math.floor(idx / 1000), 3)}/${idx}.jpg`;
    copyImage(path.join(p.rawTrain, relativeFileName(image, p.metadata)), path.join(out, fileName), p.metadata);
    return { annotation, image: withEntries(image, { id: String(idx), file_name: fileName }) };
  });
}

function writeAnswers(ctx: UpstreamPrepareContext, test: Sample[], file: string): void {
  const ids = labelColumn(test.map((s) => s.image.get("id")!), `${file} (test ids)`);
  const labels = labelColumn(test.map((s) => s.annotation.get("category_id")!), `${file} (category_id)`);
  writeCsv(path.join(ctx.private, "answers.csv"), twoColumnTable(["Id", "Predicted"], ids, labels));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), twoColumnTable(["Id", "Predicted"], ids, constantIntColumn(0, test.length)));
}
