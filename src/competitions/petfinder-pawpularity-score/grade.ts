import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { regressionInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { cellText, numericInOrder, submissionColumn } from "../../grading/columns.js";
import { rmse } from "../../metrics/regression.js";

/** RMSE of the predicted Pawpularity, rows matched by `Id`; every prediction must lie in [1, 100]. */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  submissionColumn(submission, "Id");
  const values = numericInOrder(submissionColumn(submission, "Pawpularity"), null, "Pawpularity");
  // Upstream's element-wise between(1, 100) also refuses missing values and infinities.
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v >= 1 && v <= 100) continue;
    const what = Number.isNaN(v) ? "a missing value (NaN)" : cellText(v);
    throw new InvalidSubmissionError(
      `Column "Pawpularity" must hold scores between 1 and 100 inclusive, but data row ${i + 1} holds ${what}.`,
    );
  }
  const { yTrue, yPred } = regressionInputs(submission, ans, { id: "Id", target: "Pawpularity" });
  return rmse(yTrue, yPred);
}
