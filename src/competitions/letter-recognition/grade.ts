import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { cellAt, type Table } from "../../core/table.js";
import { accuracyInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, cellText } from "../../grading/columns.js";
import { accuracy } from "../../metrics/accuracy.js";

/** The 26 classes: the capital letters, as the `char` column holds them. */
export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");

/**
 * Accuracy of the predicted `char`, rows matched by `id`. A prediction that is not one capital
 * letter (a lower-case letter, a class number, an empty cell) is refused rather than counted as
 * wrong, since it means the submission encodes the classes differently.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const { yTrue, yPred } = accuracyInputs(submission, ans, { id: "id", target: "char" });
  const bad = yPred.findIndex((p) => typeof p !== "string" || !LETTERS.includes(p));
  if (bad >= 0) {
    const id = cellText(cellAt(answersColumn(ans, "id"), bad));
    const value = yPred[bad];
    const what = value === null || (typeof value === "number" && Number.isNaN(value)) ? "an empty cell" : cellText(value);
    throw new InvalidSubmissionError(`Column "char" must hold one capital letter A-Z on every row, but the row for id ${id} holds ${what}.`);
  }
  return accuracy(yTrue, yPred);
}
