import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, sortOrder, submissionColumn, valuesInOrder } from "../../grading/columns.js";
import { cohenKappa } from "../../metrics/kappa.js";

/**
 * Quadratic weighted kappa of the predicted essay score, rows matched by `essay_id` (both sides
 * sorted, then compared element-wise, so every id exactly once).
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "essay_id");
  const ansTarget = answersColumn(ans, "score");
  if (ans.rowCount === 0) throw new Error("Answers have no rows.");
  const subTarget = submissionColumn(submission, "score");
  const subId = submissionColumn(submission, "essay_id");
  if (submission.rowCount === 0) throw new InvalidSubmissionError("Submission has no rows; submit one row per essay_id.");
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, "essay_id");
  // Predictions must be whole-number labels: scikit-learn refuses continuous targets, and the error says so.
  return cohenKappa(valuesInOrder(subTarget, subOrder), valuesInOrder(ansTarget, ansOrder), { weights: "quadratic" });
}
