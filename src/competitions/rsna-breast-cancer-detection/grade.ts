import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, numericInOrder, sortOrder, submissionColumn } from "../../grading/columns.js";
import { probabilisticFbeta } from "./pfbeta.js";

const ID = "prediction_id";
const TARGET = "cancer";

/**
 * Probabilistic F1 of the predicted cancer probabilities, rows matched by prediction_id
 * ("<patient_id>_<laterality>"). As upstream, predictions outside [0, 1] are clipped rather
 * than refused, and a blank prediction is accepted but makes the score 0.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, ID);
  const ansCancer = answersColumn(ans, TARGET);
  const subId = submissionColumn(submission, ID);
  const subCancer = submissionColumn(submission, TARGET);
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per "${ID}".`,
    );
  }
  if (subCancer.kind === "string") {
    const row = subCancer.values.findIndex((v) => v !== null);
    throw new InvalidSubmissionError(
      `Column "${TARGET}" must hold probabilities as numbers, but data row ${row + 1} holds ${cellText(subCancer.values[row] ?? null)}.`,
    );
  }
  // The soft counts are running sums, so the rows are taken in upstream's sorted-id order.
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, ID);
  const labels = numericInOrder(ansCancer, ansOrder, TARGET);
  const predictions = numericInOrder(subCancer, subOrder, TARGET);
  return probabilisticFbeta(labels, predictions, 1);
}
