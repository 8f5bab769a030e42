import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { cellAt, type Table } from "../../core/table.js";
import { regressionInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { cellText, numericInOrder } from "../../grading/columns.js";
import { rmsle } from "../../metrics/regression.js";

/** The predicted column. */
export const TARGET = "Sale_Price";

/**
 * Root mean squared error between log(1 + predicted) and log(1 + true) sale prices, rows matched
 * by `id` (scikit-learn's root_mean_squared_log_error); every prediction must be a finite,
 * non-negative number.
 */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yPred } = regressionInputs(submission, requireTable(answers), { id: "id", target: TARGET });
  // The metric would refuse a negative price too, but only the file's own row number helps its author.
  const inFileOrder = numericInOrder(submission.data.get(TARGET)!, null, TARGET);
  const row = inFileOrder.findIndex((v) => v < 0);
  if (row >= 0) {
    throw new InvalidSubmissionError(
      `Column "${TARGET}" must hold prices of 0 or more (the score compares their logarithms), but data row ${row + 1} ` +
        `(id ${cellText(cellAt(submission.data.get("id")!, row))}) holds ${cellText(inFileOrder[row])}.`,
    );
  }
  return rmsle(yTrue, yPred, { domain: "nonnegative" });
}
