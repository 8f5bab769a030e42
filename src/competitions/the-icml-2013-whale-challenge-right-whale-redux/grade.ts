import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { numericInOrder } from "../../grading/columns.js";
import { rocAuc } from "../../metrics/roc-auc.js";

/** ROC AUC of the predicted right-whale-call `probability`, rows matched by the clip file name `clip`. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yScore } = aurocInputs(submission, requireTable(answers), { id: "clip", target: "probability" });
  // Upstream's range check skips NaN and the metric then fails; name the row instead.
  if (yScore.some(Number.isNaN)) {
    const raw = numericInOrder(submission.data.get("probability")!, null, "probability");
    const row = raw.findIndex(Number.isNaN);
    throw new InvalidSubmissionError(`Column "probability" must hold a probability in every row, but data row ${row + 1} is empty (NaN).`);
  }
  return rocAuc(yTrue, yScore);
}
