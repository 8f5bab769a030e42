import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, numericInOrder, submissionColumn, valuesInOrder } from "../../grading/columns.js";
import { rocAuc } from "../../metrics/roc-auc.js";
import { pandasTextSortOrder } from "./comment-order.js";

/**
 * ROC AUC of the predicted insult probability. The data has no id column, so rows are matched
 * on the `Comment` text itself: upstream sorts both sides by it and requires equal texts.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const cols = { id: "Comment", target: "Insult" };
  // Checks columns, row count, numeric values in [0, 1] and equal comment multisets.
  const aligned = aurocInputs(submission, ans, cols);
  const subComment = submissionColumn(submission, cols.id);
  const ansComment = answersColumn(ans, cols.id);
  if (subComment.kind !== "string" || ansComment.kind !== "string") return rocAuc(aligned.yTrue, aligned.yScore);
  // Some comments occur more than once (with different labels). Upstream pairs those rows in
  // the order its unstable sort leaves them, not first-with-first, so the same sort is used here.
  const subOrder = pandasTextSortOrder(subComment.values);
  const ansOrder = pandasTextSortOrder(ansComment.values);
  const yScore = numericInOrder(submissionColumn(submission, cols.target), subOrder, cols.target);
  const yTrue = valuesInOrder(answersColumn(ans, cols.target), ansOrder);
  return rocAuc(yTrue, yScore);
}
