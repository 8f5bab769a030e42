import { fileURLToPath } from "node:url";
import { InvalidSubmissionError } from "../../../core/errors.js";
import type { Column } from "../../../core/table.js";
import { alignRows, kaggleResearchTask, readAnswers, readSubmissionWithIds, splitTrainFile, submissionColumn, textCells } from "../kaggle-data.js";
import type { TaskContext } from "../types.js";

/** The Kaggle competition the data comes from. */
export const COMPETITION = "spaceship-titanic";

/** The research problem, in the task's own words. */
export const STATEMENT = `The spaceship Titanic collided with a spacetime anomaly, and some of its passengers were transported to another dimension. task_descriptor.txt describes the data. train.csv lists passengers with their id (PassengerId, "gggg_pp": group and number within the group), home planet, whether they were in cryosleep, their cabin ("deck/number/side"), destination, age, VIP status, what they spent at the room service, food court, shopping mall, spa and VR deck, their name, and whether they were transported (Transported: True or False). test.csv lists other passengers with the same columns except Transported. train.py is a first attempt: a logistic regression on a few one-hot encoded columns that prints its accuracy on a held-out part of train.csv and writes predictions for test.csv to submission.csv. Improve on it: use the spending columns, groups and cabins, handle missing values, and try other models, checking every idea on held-out data.

How your work is scored: the evaluator runs train.py from the workspace and reads the submission.csv it writes. That file needs a header row and one row per passenger of test.csv, with the columns PassengerId and Transported (True or False). The score is the share of test passengers whose Transported value is predicted correctly (accuracy, from 0 to 1); higher is better. The true values for test.csv are not in the workspace. train.csv and test.csv may not be changed.`;

/** Upstream's split: the first 80% of Kaggle's train.csv train, the rest is the test set. */
export function splitSpaceship(raw: string, pub: string, priv: string): void {
  splitTrainFile(raw, pub, priv, { trainFraction: 0.8, answerColumns: ["PassengerId", "Transported"], hiddenColumns: ["Transported"] });
}

// True/False as pandas reads them, or 0/1, which compare equal to them in upstream's check.
function booleanAt(col: Column, i: number, where: string): boolean {
  if (col.kind === "bool") return col.values[i] === 1;
  if (col.kind === "int" && (col.values[i] === 0 || col.values[i] === 1)) return col.values[i] === 1;
  if (col.kind === "object" && col.values[i] !== null) return col.values[i]!;
  const cell = textCells(col)[i];
  throw new InvalidSubmissionError(`${where} row ${i + 1}: Transported must be True or False, got ${cell === null ? "an empty cell" : JSON.stringify(cell)}`);
}

/** Accuracy of submission.csv's Transported against the answers, matched by PassengerId. */
export function gradeSpaceship(workspaceDir: string, ctx: TaskContext): number {
  const answers = readAnswers(ctx, "answer.csv", ["PassengerId"]);
  const ids = textCells(answers.data.get("PassengerId")!) as string[];
  const truth = answers.data.get("Transported")!;
  const submission = readSubmissionWithIds(workspaceDir, ["PassengerId"]);
  const rows = alignRows(submission, "PassengerId", ids);
  const predicted = submissionColumn(submission, "Transported");
  let correct = 0;
  for (let k = 0; k < ids.length; k++) {
    if (booleanAt(predicted, rows[k], "submission.csv") === booleanAt(truth, k, "answer.csv")) correct++;
  }
  return correct / ids.length;
}

/** Predict which passengers of the spaceship Titanic were transported to another dimension. */
export const spaceshipTitanicTask = kaggleResearchTask({
  name: "spaceship-titanic",
  competition: COMPETITION,
  statement: STATEMENT,
  metric: "accuracy of Transported on the held-out passengers (0 to 1)",
  direction: "higher",
  filesDir: fileURLToPath(new URL("./files/", import.meta.url)),
  taskDir: fileURLToPath(new URL(".", import.meta.url)),
  readOnly: ["train.csv", "test.csv"],
  timeoutMs: 600_000,
  split: splitSpaceship,
  grade: gradeSpaceship,
});
