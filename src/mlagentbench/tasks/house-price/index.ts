import { fileURLToPath } from "node:url";
import { mae } from "../../../metrics/regression.js";
import { alignRows, copyIfPresent, kaggleResearchTask, numbersAt, range, readAnswers, readSubmissionWithIds, splitTrainFile, textCells } from "../kaggle-data.js";
import type { TaskContext } from "../types.js";

/** The Kaggle competition MLAgentBench's house-price task downloads (the Kaggle Learn copy of the Ames data). */
export const COMPETITION = "home-data-for-ml-course";

/** The research problem, in the task's own words. */
export const STATEMENT = `The workspace holds sales records of houses in Ames, Iowa. train.csv has one row per sold house: about eighty columns describing the lot, the building, its quality and condition, rooms, garage, basement, porches and the sale itself, and the price it sold for (SalePrice, in dollars). test.csv lists other sales with the same columns except SalePrice. data_description.txt explains every column and its codes. train.py is a first attempt: a random forest on a handful of numeric columns that prints its mean absolute error on a held-out part of train.csv and writes predictions for test.csv to submission.csv. Improve on it: read the column descriptions, engineer features (areas, ages, quality scores, neighbourhoods), handle missing values, and try other models, checking every idea on held-out data.

How your work is scored: the evaluator runs train.py from the workspace and reads the submission.csv it writes. That file needs a header row and one row per house of test.csv, with the columns Id and SalePrice. The score is the mean absolute error of SalePrice over the test houses, in dollars; lower is better. The true prices of the test houses are not in the workspace. train.csv and test.csv may not be changed.`;

/** Upstream's split: the first 80% of Kaggle's train.csv train, the rest is the test set. */
export function splitHousePrice(raw: string, pub: string, priv: string): void {
  splitTrainFile(raw, pub, priv, { trainFraction: 0.8, answerColumns: ["Id", "SalePrice"], hiddenColumns: ["SalePrice"] });
  copyIfPresent(raw, pub, "data_description.txt");
}

/** Mean absolute error of submission.csv's SalePrice against the answers, matched by Id. */
export function gradeHousePrice(workspaceDir: string, ctx: TaskContext): number {
  const answers = readAnswers(ctx, "answer.csv", ["Id"]);
  const ids = textCells(answers.data.get("Id")!) as string[];
  const submission = readSubmissionWithIds(workspaceDir, ["Id"]);
  const rows = alignRows(submission, "Id", ids);
  const truth = numbersAt(answers, "SalePrice", range(0, ids.length), "answer.csv");
  return mae(truth, numbersAt(submission, "SalePrice", rows));
}

/** Predict the sale prices of houses in Ames, Iowa. */
export const housePriceTask = kaggleResearchTask({
  name: "house-price",
  competition: COMPETITION,
  statement: STATEMENT,
  metric: "mean absolute error of SalePrice on the held-out houses (dollars)",
  direction: "lower",
  filesDir: fileURLToPath(new URL("./files/", import.meta.url)),
  taskDir: fileURLToPath(new URL(".", import.meta.url)),
  readOnly: ["train.csv", "test.csv"],
  timeoutMs: 600_000,
  split: splitHousePrice,
  grade: gradeHousePrice,
});
