import type { Answers } from "../../core/competition.js";
import type { Column, Table } from "../../core/table.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, identityOrder, submissionColumn, valuesInOrder } from "../../grading/columns.js";
import { f1 } from "../../metrics/fbeta.js";
import type { Label } from "../../metrics/labels.js";

/**
 * Labels as upstream hands them to scikit-learn: a Python list, which numpy turns into a text
 * array when it holds any text, so a blank species among named ones becomes the label "nan"
 * (a wrong guess, not an error); numeric or all-blank columns keep their numbers.
 */
function labelsAsListed(col: Column, order: ArrayLike<number>): Label[] {
  const values = valuesInOrder(col, order);
  if (col.kind !== "string") return values.map((v) => (v === null ? NaN : v));
  return values.map((v) => (v === null ? "nan" : v));
}

/** Micro-averaged F1 (equal to accuracy for one species per image) of `species`, rows matched by `file`. */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansFile = answersColumn(ans, "file");
  const ansSpecies = answersColumn(ans, "species");
  const subFile = submissionColumn(submission, "file");
  const subSpecies = submissionColumn(submission, "species");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test image.`,
    );
  }
  // Against text answers scikit-learn refuses every non-text column (number/text mix, NaN or
  // continuous values), so say so in the submission's terms.
  if (subSpecies.kind !== "string") {
    throw new InvalidSubmissionError(
      `Column "species" must hold species names as text (e.g. "Sugar beet"), but it holds ` +
        `${subSpecies.kind === "float" ? "numbers or only blanks" : subSpecies.kind === "bool" || subSpecies.kind === "object" ? "True/False values" : "numbers"}.`,
    );
  }
  // Micro F1 does not depend on row order, so the answers stay in file order.
  const subOrder = alignToAnswers(subFile, ansFile, null, "file");
  const yTrue = labelsAsListed(ansSpecies, identityOrder(ans.rowCount));
  const yPred = labelsAsListed(subSpecies, subOrder);
  return f1(yTrue, yPred, { average: "micro" });
}
