import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import {
  alignToAnswers,
  answersColumn,
  cellText,
  describeColumns,
  numericInOrder,
  sortOrder,
} from "../../grading/columns.js";
import { pearson } from "../../metrics/correlation.js";

/**
 * Pearson correlation of the predicted similarity `score` with the true one, rows matched by `id`
 * (both sides sorted, then compared element-wise). A constant or NaN-holding prediction column
 * scores NaN, which upstream counts as a valid (if useless) submission.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansScore = answersColumn(ans, "score");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test id.`,
    );
  }
  const subId = submission.data.get("id");
  const subScore = submission.data.get("score");
  if (!subId || !subScore) {
    throw new InvalidSubmissionError(`Submission must have columns "id" and "score"; found ${describeColumns(submission)}.`);
  }
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, "id");
  // scipy cannot add text to numbers, so any column pandas left as text (or as booleans with gaps) fails.
  if (subScore.kind === "string" || subScore.kind === "object") {
    const values: (string | boolean | null)[] = subScore.values;
    // Point at a cell that is not a number, not merely the first one.
    let bad = values.findIndex((v) => typeof v === "string" && !Number.isFinite(Number(v.trim() || "x")));
    if (bad < 0) bad = values.findIndex((v) => v !== null);
    throw new InvalidSubmissionError(
      `Column "score" must hold only numbers, but it is read as text: data row ${bad + 1} holds ${cellText(values[bad])}.`,
    );
  }
  const yPred = numericInOrder(subScore, subOrder, "score");
  const yTrue = numericInOrder(ansScore, ansOrder, "score");
  if (yPred.length < 2) throw new InvalidSubmissionError("Pearson correlation needs at least 2 rows.");
  return pearson(yTrue, yPred);
}
