import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { cellAt, type Column, type Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, numericInOrder, sortOrder, submissionColumn } from "../../grading/columns.js";
import { pyFloat } from "../../pycompat/pynum.js";
import { mae } from "../../metrics/regression.js";

/**
 * One submitted pressure as a number. A text column is converted cell by cell, as numpy does
 * for an object array, so text in a row that is never scored does no harm.
 */
function pressureAt(col: Column, row: number): number {
  if (col.kind !== "string") return numericInOrder(col, [row], "pressure")[0];
  const v = col.values[row];
  if (v === null) return NaN;
  const x = pyFloat(v);
  if (x === null) {
    throw new InvalidSubmissionError(`Column "pressure" must hold numbers, but data row ${row + 1} holds ${cellText(v)}.`);
  }
  return x;
}

/**
 * Mean absolute error of the predicted airway pressure over the inspiratory phase only: rows
 * are matched by `id`, and those whose answer has `u_out` = 1 are not scored (as on Kaggle), so
 * a missing or odd value there is ignored.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansPressure = answersColumn(ans, "pressure");
  const ansUout = answersColumn(ans, "u_out");
  const subId = submissionColumn(submission, "id");
  const subPressure = submissionColumn(submission, "pressure");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test id.`,
    );
  }
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, "id");
  const uOut = numericInOrder(ansUout, ansOrder, "u_out");
  const truth = numericInOrder(ansPressure, ansOrder, "pressure");
  const yTrue: number[] = [];
  const yPred: number[] = [];
  for (let j = 0; j < ansOrder.length; j++) {
    if (uOut[j] !== 0) continue;
    const row = subOrder[j];
    const p = pressureAt(subPressure, row);
    if (!Number.isFinite(p)) {
      const what = Number.isNaN(p) ? "a missing value (NaN)" : cellText(p);
      throw new InvalidSubmissionError(
        `Column "pressure" must hold finite numbers in the scored (u_out = 0) rows, but data row ${row + 1} ` +
          `(id ${cellText(cellAt(subId, row))}) holds ${what}.`,
      );
    }
    yTrue.push(truth[j]);
    yPred.push(p);
  }
  return mae(yTrue, yPred);
}
