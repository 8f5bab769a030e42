import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { alignByIdSet, requireProbabilityRange } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, numericInOrder, submissionColumn, valuesInOrder } from "../../grading/columns.js";
import { logLoss } from "../../metrics/log-loss.js";

/** Binary log loss of the predicted probability that an image shows an iceberg, rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansLabel = answersColumn(ans, "is_iceberg");
  submissionColumn(submission, "id");
  const subLabel = submissionColumn(submission, "is_iceberg");
  // Upstream compares id sets and never the row counts; a repeated id then fails in log_loss
  // on the length mismatch, which alignByIdSet reports up front.
  const { subOrder, ansOrder } = alignByIdSet(submission, ans, "id");
  // An element-wise 0 <= p <= 1 check, so a missing probability (NaN) is refused too.
  requireProbabilityRange(numericInOrder(subLabel, null, "is_iceberg"), "is_iceberg", false);
  return logLoss(valuesInOrder(ansLabel, ansOrder), numericInOrder(subLabel, subOrder, "is_iceberg"));
}
