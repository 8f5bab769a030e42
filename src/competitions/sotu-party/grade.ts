import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { accuracyInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { pyFloatRepr } from "../../pycompat/pyfloat.js";
import type { Label } from "../../metrics/labels.js";
import { f1 } from "../../metrics/fbeta.js";

/** A label as text, as pandas' astype(str) writes it: a column read as numbers still compares as party names. */
function labelText(label: Label): string {
  if (typeof label === "string") return label;
  if (typeof label === "boolean") return label ? "True" : "False";
  if (typeof label === "number" && !Number.isInteger(label)) return pyFloatRepr(label);
  return String(label);
}

/**
 * Macro-averaged F1 of the predicted `party`, rows matched by `id`; the average runs over the
 * sorted union of true and predicted labels, as scikit-learn's default, so an invented label
 * counts as a class with F1 0.
 */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yPred } = accuracyInputs(submission, requireTable(answers), { id: "id", target: "party" });
  const empty = yPred.filter((p) => p === null || (typeof p === "number" && Number.isNaN(p))).length;
  if (empty > 0) {
    throw new InvalidSubmissionError(`Column "party" is empty in ${empty} row(s); predict a party for every id.`);
  }
  return f1(yTrue.map(labelText), yPred.map(labelText), { average: "macro" });
}
