import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { numericInOrder } from "../../grading/columns.js";
import { rocAuc } from "../../metrics/roc-auc.js";

/**
 * ROC AUC over every (recording, species) pair flattened into one column: `Id` is
 * rec_id * 100 + species and `Probability` the predicted presence, rows matched by `Id`.
 */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yScore } = aurocInputs(submission, requireTable(answers), { id: "Id", target: "Probability" });
  if (yScore.some(Number.isNaN)) {
    // The metric refuses NaN too, but only the submission's own row number helps its author.
    const raw = numericInOrder(submission.data.get("Probability")!, null, "Probability");
    const row = raw.findIndex(Number.isNaN);
    throw new InvalidSubmissionError(`Column "Probability" must hold a number in every row, but data row ${row + 1} is empty (NaN).`);
  }
  return rocAuc(yTrue, yScore);
}
