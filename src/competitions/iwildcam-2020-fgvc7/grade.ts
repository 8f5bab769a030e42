import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { accuracyInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { cellText } from "../../grading/columns.js";
import { accuracy } from "../../metrics/accuracy.js";

/**
 * Accuracy of the predicted species `Category`, rows matched by image `Id`.
 * Ids must match the answers' ids exactly once each; labels compare as numpy does (1 equals 1.0 but not "1").
 */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yPred } = accuracyInputs(submission, requireTable(answers), { id: "Id", target: "Category" });
  // scikit-learn refuses these too, but only the offending value helps the submission's author.
  for (const label of yPred) {
    if (label === null || (typeof label === "number" && !Number.isInteger(label))) {
      throw new InvalidSubmissionError(
        `Column "Category" must hold whole-number category ids with no empty cells, but it holds ${label === null || Number.isNaN(label) ? "a missing value" : cellText(label)}.`,
      );
    }
  }
  return accuracy(yTrue, yPred);
}
