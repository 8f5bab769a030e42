import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { cellAt, type Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { cellText, numericInOrder } from "../../grading/columns.js";
import { rocAuc } from "../../metrics/roc-auc.js";

const ID = "BraTS21ID";
const TARGET = "MGMT_value";

/**
 * ROC AUC of the predicted probability that a patient's tumour has a methylated MGMT promoter,
 * rows matched by `BraTS21ID` (read as numbers, so "00012" and "12" are the same patient).
 */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yScore } = aurocInputs(submission, requireTable(answers), { id: ID, target: TARGET });
  // The range check lets NaN through and scikit-learn then refuses it; name the row instead.
  const own = numericInOrder(submission.data.get(TARGET)!, null, TARGET);
  const row = own.findIndex((v) => Number.isNaN(v));
  if (row >= 0) {
    throw new InvalidSubmissionError(
      `Column "${TARGET}" must hold a probability on every row, but data row ${row + 1} ` +
        `(${ID} ${cellText(cellAt(submission.data.get(ID)!, row))}) is empty (NaN).`,
    );
  }
  return rocAuc(yTrue, yScore);
}
