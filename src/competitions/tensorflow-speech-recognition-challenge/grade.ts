import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { accuracyInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { accuracy } from "../../metrics/accuracy.js";

/**
 * Accuracy of the predicted word, rows matched by `fname`. The answers hold the raw training
 * folder names ("bed", "_background_noise_", ...), not Kaggle's 12 submission classes, so only
 * those exact strings score.
 */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yPred } = accuracyInputs(submission, requireTable(answers), { id: "fname", target: "label" });
  // scikit-learn refuses a missing label outright (a type error), whatever the other labels are.
  const missing = yPred.findIndex((v) => v === null || (typeof v === "number" && Number.isNaN(v)));
  if (missing >= 0) {
    throw new InvalidSubmissionError(
      `Column "label" has a missing value (an empty cell, or a token pandas reads as NaN such as "NA" or "None"); ` +
        `every clip needs a label (${missing + 1 === 1 ? "first" : "e.g."} the row for the answers' clip #${missing + 1}).`,
    );
  }
  // Numeric predictions against the words score 0 rather than failing: the shared accuracy, like
  // scikit-learn, refuses mixed label types only for a binary pair.
  return accuracy(yTrue, yPred);
}
