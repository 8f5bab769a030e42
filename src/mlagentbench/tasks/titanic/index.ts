import { fileURLToPath } from "node:url";
import { competition } from "../../../competitions/titanic/index.js";
import { offlineResearchTask } from "../starter.js";

/** The research problem, in the task's own words. */
export const STATEMENT = `The workspace holds passenger records from the Titanic's last voyage. train.csv lists passengers with their ticket class (Pclass), name, sex, age, number of siblings or spouses (SibSp) and of parents or children (Parch) aboard, ticket number, fare, cabin, port of embarkation and whether they survived (Survived: 1 yes, 0 no). test.csv lists other passengers with the same columns except Survived. train.py is a first attempt: a logistic regression on four columns that prints its accuracy on a held-out part of train.csv and writes its predictions for test.csv to submission.csv. Improve on it: try better features (titles in names, family size, cabin deck, missing-value handling) and other models, and check your ideas on held-out data before trusting them.

How your work is scored: the evaluator runs train.py from the workspace and reads the submission.csv it writes. That file needs a header row and one row per passenger of test.csv, with the columns PassengerId and Survived (0 or 1). The score is the share of test passengers whose survival is predicted correctly (accuracy, from 0 to 1); higher is better. The true outcomes for test.csv are not in the workspace. train.csv, test.csv and sample_submission.csv may not be changed.`;

/** Predict who survived the Titanic from the offline titanic competition's split. */
export const titanicTask = offlineResearchTask({
  name: "titanic",
  statement: STATEMENT,
  metric: "accuracy of Survived on the hidden test passengers (0 to 1)",
  competition,
  filesDir: fileURLToPath(new URL("./files/", import.meta.url)),
  taskDir: fileURLToPath(new URL(".", import.meta.url)),
  timeoutMs: 600_000,
  // The starter is within a few points of a perfect score: a 10% higher score is out of reach, a 10%
  // smaller error takes real work.
  improvementOf: "error",
});
