import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { numericInOrder } from "../../grading/columns.js";
import { rocAuc } from "../../metrics/roc-auc.js";

/** ROC AUC of the predicted signal probability `target`, rows matched by cadence `id`. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yScore } = aurocInputs(submission, requireTable(answers), { id: "id", target: "target" });
  // Upstream's range check skips NaN and the AUC then fails; name the row instead of the metric's error.
  const scores = numericInOrder(submission.data.get("target")!, null, "target");
  const row = scores.findIndex((v) => Number.isNaN(v));
  if (row >= 0) {
    throw new InvalidSubmissionError(`Column "target" must hold a probability on every row, but data row ${row + 1} is missing (NaN).`);
  }
  return rocAuc(yTrue, yScore);
}
