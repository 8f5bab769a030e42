import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { alignByIdSet, requireProbabilityRange } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, numericInOrder, submissionColumn, valuesInOrder } from "../../grading/columns.js";
import { logLoss } from "../../metrics/log-loss.js";

/** Binary log loss of the predicted probability that an image shows a dog (label 1). */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansLabel = answersColumn(ans, "label");
  submissionColumn(submission, "id");
  const subLabel = submissionColumn(submission, "label");
  const { subOrder, ansOrder } = alignByIdSet(submission, ans, "id");
  // Element-wise 0 <= p <= 1, so NaN is rejected here (unlike the min/max check used for AUC).
  requireProbabilityRange(numericInOrder(subLabel, null, "label"), "label", false);
  return logLoss(valuesInOrder(ansLabel, ansOrder), numericInOrder(subLabel, subOrder, "label"));
}
