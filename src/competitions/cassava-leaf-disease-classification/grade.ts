import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { accuracyInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { cellText } from "../../grading/columns.js";
import { accuracy } from "../../metrics/accuracy.js";
import { type Label, typeOfTarget } from "../../metrics/labels.js";

const HINT = 'Column "label" must hold integer class ids (0–4)';

/**
 * Accuracy of the predicted disease class (0–4), rows matched by `image_id`. Labels keep their
 * CSV types, so 3.0 counts as 3; NaN or fractional labels make the submission invalid, while
 * text labels are valid but never equal an integer answer.
 */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yPred } = accuracyInputs(submission, requireTable(answers), { id: "image_id", target: "label" });
  const col = submission.data.get("label")!;
  if (col.kind === "string") return textAccuracy(yTrue, yPred);
  if (col.kind === "float" || col.kind === "object") {
    // scikit-learn refuses these too; checking first lets the message name the row.
    for (let i = 0; i < col.values.length; i++) {
      const v = col.values[i];
      if (v === null || (typeof v === "number" && !Number.isInteger(v))) {
        const what = v === null || Number.isNaN(v) ? "a missing value" : cellText(v);
        throw new InvalidSubmissionError(`${HINT}, but data row ${i + 1} holds ${what}.`);
      }
    }
  }
  return accuracy(yTrue, yPred);
}

/**
 * scikit-learn only checks that label types agree when both sides look binary; a multiclass
 * comparison of text with integers goes ahead element-wise, and no text equals a number.
 */
function textAccuracy(yTrue: Label[], yPred: Label[]): number {
  const at = yPred.findIndex((v) => v === null);
  if (at >= 0) throw new InvalidSubmissionError(`${HINT}, but data row ${at + 1} holds a missing value.`);
  if (typeOfTarget(yTrue) === "binary" && typeOfTarget(yPred) === "binary") {
    const sample = yPred.find((v) => v !== null);
    throw new InvalidSubmissionError(`${HINT}; text labels such as ${cellText(sample ?? null)} cannot be compared with them.`);
  }
  return accuracy(yTrue, yPred);
}
