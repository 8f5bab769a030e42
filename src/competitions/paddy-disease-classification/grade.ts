import type { Answers } from "../../core/competition.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, describeColumns, identityOrder, valuesInOrder } from "../../grading/columns.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { accuracy } from "../../metrics/accuracy.js";
import type { Label } from "../../metrics/labels.js";

/**
 * The predicted labels as upstream builds them: blanks filled with "" and the column turned
 * into a Python list. Once a blank was filled the list mixes text with whatever else the column
 * held, and numpy then reads every entry as text ("1.0", "True"), so blanks and numbers count
 * as wrong guesses rather than errors; a column without blanks keeps its own type.
 */
function predictedLabels(col: Column, order: ArrayLike<number>): Label[] {
  const rows = Array.from(order);
  if (!rows.some((row) => cellAt(col, row) === null)) {
    // Numbers that are not whole make a continuous target, which scikit-learn refuses to classify.
    if (col.kind === "float") {
      const bad = rows.find((row) => !Number.isInteger(col.values[row]));
      if (bad !== undefined) {
        throw new InvalidSubmissionError(
          `Column "label" must hold disease names (e.g. "blast"), but data row ${bad + 1} holds the number ${pyStrAt(col, bad)}.`,
        );
      }
    }
    return valuesInOrder(col, order);
  }
  return rows.map((row) => (cellAt(col, row) === null ? "" : pyStrAt(col, row)));
}

/** Accuracy of the predicted disease `label`, rows matched by `image_id`; blank labels count as wrong. */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "image_id");
  const ansLabel = answersColumn(ans, "label");
  const missing = ["image_id", "label"].filter((c) => !submission.data.has(c));
  if (missing.length > 0) {
    throw new InvalidSubmissionError(
      `Submission must have the columns "image_id" and "label"; ${missing.map((c) => `"${c}"`).join(" and ")} ` +
        `missing (found ${describeColumns(submission)}).`,
    );
  }
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test image.`,
    );
  }
  // Accuracy does not depend on row order, so the answers stay in file order.
  const subOrder = alignToAnswers(submission.data.get("image_id")!, ansId, null, "image_id");
  const yTrue = valuesInOrder(ansLabel, identityOrder(ans.rowCount));
  const yPred = predictedLabels(submission.data.get("label")!, subOrder);
  return accuracy(yTrue, yPred);
}
