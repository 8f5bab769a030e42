import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, numericInOrder, submissionColumn } from "../../grading/columns.js";
import { weightedAuc } from "./weighted-auc.js";

/**
 * Weighted AUC of the stego score `Label`, rows matched by image `Id`. Any finite number is a
 * valid score (only the ranking counts); NaN and infinities are refused.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "Id");
  const ansLabel = numericInOrder(answersColumn(ans, "Label"), null, "Label");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test image.`,
    );
  }
  const subId = submissionColumn(submission, "Id");
  const subLabel = submissionColumn(submission, "Label");
  const order = alignToAnswers(subId, ansId, null, "Id");
  const values = numericInOrder(subLabel, null, "Label");
  const scores = new Float64Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const v = values[order[i]];
    if (!Number.isFinite(v)) {
      const what = Number.isNaN(v) ? "a missing value (NaN)" : cellText(v);
      throw new InvalidSubmissionError(`Column "Label" must hold finite numbers, but data row ${order[i] + 1} holds ${what}.`);
    }
    scores[i] = v;
  }
  const positive = Array.from(ansLabel, (v) => v === 1);
  const nPos = positive.filter(Boolean).length;
  if (nPos === 0 || nPos === positive.length) throw new Error("Answers must hold both labels 0 and 1.");
  return weightedAuc(positive, scores);
}
