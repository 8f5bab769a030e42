import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { alignByIdSet, requireProbabilityRange } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, numericInOrder, submissionColumn, valuesInOrder } from "../../grading/columns.js";
import { logLoss } from "../../metrics/log-loss.js";

/** The answers' classes in scikit-learn's sorted order; the submitted probability is the second's. */
export const CLASSES = ["No", "Yes"] as const;

/**
 * Binary log loss of the predicted probability that the customer churned (`churn` = "Yes"),
 * rows matched by `id`; probabilities are clipped to [eps, 1 - eps] as scikit-learn does.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansLabel = answersColumn(ans, "churn");
  submissionColumn(submission, "id");
  const subLabel = submissionColumn(submission, "churn");
  const { subOrder, ansOrder } = alignByIdSet(submission, ans, "id");
  // Element-wise 0 <= p <= 1, so a missing probability (NaN) is refused too.
  requireProbabilityRange(numericInOrder(subLabel, null, "churn"), "churn", false);
  return logLoss(valuesInOrder(ansLabel, ansOrder) as string[], numericInOrder(subLabel, subOrder, "churn"), { labels: [...CLASSES] });
}
