import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { cellAt, type Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, numericInOrder, submissionColumn } from "../../grading/columns.js";
import { topKRecall } from "../../metrics/top-k-recall.js";

/** The share of test customers the mailing reaches. */
export const MAILED_FRACTION = 0.2;

/**
 * Recall among the 20% of test customers with the highest `CARAVAN` scores (800 of 4,000): the
 * share of all caravan-policy owners that mailing them would reach. Customers tied with the last
 * selected score share the remaining places (each tied owner counts with the probability of
 * being picked), so only the order of the scores matters, and a constant scores 0.2.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansTarget = answersColumn(ans, "CARAVAN");
  const subId = submissionColumn(submission, "id");
  const subScore = submissionColumn(submission, "CARAVAN");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test id.`,
    );
  }
  const scores = numericInOrder(subScore, null, "CARAVAN");
  const bad = scores.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) {
    const what = Number.isNaN(scores[bad]) ? "is empty (NaN)" : `holds ${cellText(scores[bad])}`;
    throw new InvalidSubmissionError(
      `Column "CARAVAN" must hold a finite score on every row, but data row ${bad + 1} (id ${cellText(cellAt(subId, bad))}) ${what}.`,
    );
  }
  const order = alignToAnswers(subId, ansId, null, "id");
  const yScore = Float64Array.from(order, (row) => scores[row]);
  const yTrue = numericInOrder(ansTarget, null, "CARAVAN");
  return topKRecall(yTrue, yScore, Math.round(ans.rowCount * MAILED_FRACTION));
}
