import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { alignByIdSet } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, submissionColumn, valuesInOrder } from "../../grading/columns.js";
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
  const { subOrder, ansOrder } = alignByIdSet(submission, ans, "id_code");
  return cohenKappa(valuesInOrder(subTarget, subOrder), valuesInOrder(ansTarget, ansOrder), { weights: "quadratic" });
}
