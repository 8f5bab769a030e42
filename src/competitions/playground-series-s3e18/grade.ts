import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, identityOrder, numericInOrder, submissionColumn, valuesInOrder } from "../../grading/columns.js";
import { rocAuc } from "../../metrics/roc-auc.js";

const TARGETS = ["EC1", "EC2"] as const;

/**
 * Mean of the ROC AUCs of `EC1` and `EC2` (macro average), rows matched by `id`. Upstream checks
 * no range, so any finite scores rank; missing or non-numeric scores are refused.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const subId = submissionColumn(submission, "id");
  const missing = TARGETS.filter((c) => !submission.data.has(c));
  if (missing.length > 0) {
    throw new InvalidSubmissionError(
      `Submission must have both "EC1" and "EC2" columns (predicted probabilities); missing ${missing.map((c) => `"${c}"`).join(", ")}.`,
    );
  }
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test id.`,
    );
  }
  // ROC AUC does not depend on row order, so the answers stay in file order.
  const subOrder = alignToAnswers(subId, ansId, null, "id");
  let total = 0;
  for (const target of TARGETS) {
    const scores = numericInOrder(submissionColumn(submission, target), subOrder, target);
    for (let i = 0; i < scores.length; i++) {
      if (!Number.isFinite(scores[i])) {
        throw new InvalidSubmissionError(
          `Column "${target}" must hold finite numbers, but data row ${subOrder[i] + 1} holds ` +
            `${Number.isNaN(scores[i]) ? "a missing value (NaN)" : String(scores[i])}.`,
        );
      }
    }
    total += rocAuc(valuesInOrder(answersColumn(ans, target), identityOrder(ans.rowCount)), scores);
  }
  return total / TARGETS.length;
}
