import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import {
  alignToAnswers,
  answersColumn,
  requireSameIdSet,
  sortOrder,
  submissionColumn,
  valuesInOrder,
} from "../../grading/columns.js";
import { cohenKappa } from "../../metrics/kappa.js";

/**
 * Quadratic weighted kappa of the predicted diagnosis (0–4), rows matched by `id_code`.
 * Ids are compared as sets, so a repeated id passes that check and then fails on length.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const subTarget = submissionColumn(submission, "diagnosis");
  const ansTarget = answersColumn(ans, "diagnosis");
  if (submission.rowCount === 0) throw new InvalidSubmissionError("Submission has no rows.");
  const subId = submissionColumn(submission, "id_code");
  const ansId = answersColumn(ans, "id_code");
  requireSameIdSet(subId, ansId, "id_code");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; an id_code appears more than once.`,
    );
  }
  const ansOrder = sortOrder(ansId);
  const yPred = valuesInOrder(subTarget, alignToAnswers(subId, ansId, ansOrder, "id_code"));
  const yTrue = valuesInOrder(ansTarget, ansOrder);
  return cohenKappa(yPred, yTrue, { weights: "quadratic" });
}
