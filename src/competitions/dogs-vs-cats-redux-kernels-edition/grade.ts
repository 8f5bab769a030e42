import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireProbabilityRange } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import {
  alignToAnswers,
  answersColumn,
  numericInOrder,
  requireSameIdSet,
  sortOrder,
  submissionColumn,
  valuesInOrder,
} from "../../grading/columns.js";
import { logLoss } from "../../metrics/log-loss.js";

/** Binary log loss of the predicted probability that an image shows a dog (label 1). */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansLabel = answersColumn(ans, "label");
  const subId = submissionColumn(submission, "id");
  const subLabel = submissionColumn(submission, "label");
  requireSameIdSet(subId, ansId, "id");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; ids must not repeat.`,
    );
  }
  // Element-wise 0 <= p <= 1, so NaN is rejected here (unlike the min/max check used for AUC).
  requireProbabilityRange(numericInOrder(subLabel, null, "label"), "label", false);
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, "id");
  return logLoss(valuesInOrder(ansLabel, ansOrder), numericInOrder(subLabel, subOrder, "label"));
}
