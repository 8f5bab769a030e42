import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import {
  alignToAnswers,
  answersColumn,
  cellText,
  identityOrder,
  numericInOrder,
  submissionColumn,
  valuesInOrder,
} from "../../grading/columns.js";
import { matthewsCorrcoef, matthewsCorrcoefNumeric } from "../../metrics/mcc.js";

const ID = "contact_id";
const TARGET = "contact";

function isNumeric(col: Column): boolean {
  return col.kind === "int" || col.kind === "float" || col.kind === "bool";
}

/** The first submitted contact that cannot be a class label (a probability, text or a gap), if any. */
function firstNonLabel(col: Column): number {
  for (let i = 0; i < col.values.length; i++) {
    const v = cellAt(col, i);
    if (v === null || typeof v === "string" || (typeof v === "number" && !Number.isInteger(v))) return i;
  }
  return -1;
}

/**
 * Matthews correlation between the predicted and true contact labels, rows matched by
 * contact_id. Predictions must be class labels (0 or 1), as scikit-learn refuses probabilities.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, ID);
  const ansContact = answersColumn(ans, TARGET);
  if (!submission.data.has(ID) || !submission.data.has(TARGET)) {
    throw new InvalidSubmissionError(`Submission must have the columns "${ID}" and "${TARGET}"; found ${submission.columns.map((c) => `"${c}"`).join(", ") || "none"}.`);
  }
  const subId = submissionColumn(submission, ID);
  const subContact = submissionColumn(submission, TARGET);
  // Upstream asks for equal id sets and equal lengths; with each answer id listed once, that is
  // exactly a one-to-one match, which this checks in one pass. MCC ignores row order, so the
  // answers stay in file order.
  const subOrder = alignToAnswers(subId, ansId, null, ID);
  try {
    if (isNumeric(ansContact) && isNumeric(subContact)) {
      return matthewsCorrcoefNumeric(numericInOrder(ansContact, null, TARGET), numericInOrder(subContact, subOrder, TARGET));
    }
    return matthewsCorrcoef(valuesInOrder(ansContact, identityOrder(ans.rowCount)), valuesInOrder(subContact, subOrder));
  } catch (err) {
    const bad = firstNonLabel(subContact);
    const where = bad >= 0 ? `; data row ${bad + 1} holds ${cellText(cellAt(subContact, bad))}` : "";
    throw new InvalidSubmissionError(
      `Column "${TARGET}" must hold predicted labels (0 for no contact, 1 for contact), not probabilities or text${where} ` +
        `(${(err as Error).message}).`,
    );
  }
}
