import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Column, Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, numericInOrder, sortOrder, submissionColumn } from "../../grading/columns.js";
import { pyFloat } from "../../pycompat/pynum.js";
import { rmse } from "../../metrics/regression.js";

/**
 * RMSE of the cleaned pixel intensities, one row per pixel (`id` = image_row_col), rows matched
 * by id after sorting both sides. Values are not range-checked: any finite number is scored.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansValue = answersColumn(ans, "value");
  const subId = submissionColumn(submission, "id");
  const values = pixelValues(submissionColumn(submission, "value"));
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per pixel id.`,
    );
  }
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, "id");
  const yPred = Float64Array.from(subOrder, (row) => values[row]);
  // The metric would refuse these too, but only the submission's own row number helps its author.
  yPred.forEach((v, k) => {
    if (Number.isFinite(v)) return;
    const what = Number.isNaN(v) ? "a missing value (NaN)" : cellText(v);
    throw new InvalidSubmissionError(`Column "value" must hold finite numbers, but data row ${subOrder[k] + 1} holds ${what}.`);
  });
  return rmse(numericInOrder(ansValue, ansOrder, "value"), yPred);
}

/**
 * The `value` column as upstream's `astype(float)` sees it. A column pandas left as text is
 * converted cell by cell with Python's float(), which also takes "1_000", " 0.5" or "Infinity".
 */
function pixelValues(col: Column): Float64Array {
  if (col.kind !== "string") return numericInOrder(col, null, "value");
  return Float64Array.from(col.values, (cell, i) => {
    if (cell === null) return NaN;
    const v = pyFloat(cell);
    if (v === null) {
      throw new InvalidSubmissionError(`Column "value" must hold numbers, but data row ${i + 1} holds ${cellText(cell)}.`);
    }
    return v;
  });
}
