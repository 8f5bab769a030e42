import { fileURLToPath } from "node:url";
import { kaggleResearchTask, readAnswers, readSubmissionWithIds } from "../kaggle-data.js";
import type { TaskContext } from "../types.js";
import { fathomnetScore } from "./score.js";
import { splitFathomnet } from "./split.js";

/** The Kaggle competition the data comes from. */
export const COMPETITION = "fathomnet-out-of-sample-detection";

/** The research problem, in the task's own words. */
export const STATEMENT = `The workspace holds annotations of underwater images from the Monterey Bay area, collected by MBARI and labelled with 290 categories of bottom-dwelling animals (data_description.txt describes them). multilabel_classification/train.csv lists, for each training image (id), the categories present in it; object_detection/train.json has the same images with bounding boxes in COCO format, and object_detection/eval.json lists the test images; category_key.csv names the categories. The images themselves are not part of the Kaggle download and not in the workspace; the JSON files give each one's URL (coco_url). For each test image, predict the categories present, most likely first, and how likely the image is to come from a different distribution than the training images (out-of-sample). train.py is a first attempt that predicts the most frequent training categories for every image. Improve on it, for instance with image models when the images are available, or with the co-occurrence of categories.

How your work is scored: the evaluator runs train.py from the workspace and reads the submission.csv it writes, with the columns id (an image's file_name without ".png"), categories (category ids separated by spaces, most likely first; at most the first 20 count) and osd (a score for being out-of-sample), one row per image of object_detection/eval.json. The score is the mean of two parts: the out-of-sample AUC rescaled to 2·AUC − 1, and MAP@20 of the categories; higher is better (at most 1). The true categories of the test images are not in the workspace. The data folders and category_key.csv may not be changed.`;

/** The FathomNet score of submission.csv against the answers, matched by id. */
export function gradeFathomnet(workspaceDir: string, ctx: TaskContext): number {
  const answers = readAnswers(ctx, "answer.csv", ["id", "categories"]);
  const submission = readSubmissionWithIds(workspaceDir, ["id", "categories"]);
  return fathomnetScore(answers, submission);
}

/** Classify the animals in deep-sea images and spot images from another distribution. */
export const fathomnetTask = kaggleResearchTask({
  name: "fathomnet",
  competition: COMPETITION,
  statement: STATEMENT,
  metric: "0.5 · (2·AUC − 1 of the out-of-sample scores + MAP@20 of the categories), at most 1",
  direction: "higher",
  filesDir: fileURLToPath(new URL("./files/", import.meta.url)),
  taskDir: fileURLToPath(new URL(".", import.meta.url)),
  readOnly: ["images", "multilabel_classification", "object_detection", "category_key.csv"],
  timeoutMs: 3_600_000,
  split: splitFathomnet,
  grade: gradeFathomnet,
});
