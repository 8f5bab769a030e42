import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, submissionColumn } from "../../grading/columns.js";
import { f1 } from "../../metrics/fbeta.js";
import { pySplit } from "../../pycompat/pystr.js";

/**
 * Micro-averaged F1 of the space-separated disease labels, rows matched by `image`. The classes
 * are the labels that occur in the answers: a predicted label outside them is ignored, repeating
 * a label counts once, and a missing prediction means "no labels".
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansImage = answersColumn(ans, "image");
  const ansLabels = answersColumn(ans, "labels");
  const subImage = submissionColumn(submission, "image");
  const subLabels = submissionColumn(submission, "labels");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test "image".`,
    );
  }
  // Micro F1 sums over rows, so the answers can stay in file order.
  const subOrder = alignToAnswers(subImage, ansImage, null, "image");
  const truth = labelSets(ansLabels, (row, what) => {
    throw new Error(`Answers "labels" row ${row + 1} is not text (${what}).`);
  });
  const predicted = labelSets(subLabels, (row, what) => {
    throw new InvalidSubmissionError(
      `Column "labels" must hold space-separated disease names (or be empty), but data row ${row + 1} holds ${what}.`,
    );
  });
  const classes = [...new Set(truth.flat())].sort();
  const indicator = (labels: string[]) => {
    const present = new Set(labels);
    return classes.map((c) => (present.has(c) ? 1 : 0));
  };
  const yTrue = truth.map(indicator);
  const yPred = Array.from(subOrder, (row) => indicator(predicted[row]));
  return f1(yTrue, yPred, { average: "micro" });
}

/**
 * Each row's labels as pandas' `fillna("").str.split()` gives them. A column pandas did not read
 * as text only works when it is entirely empty; otherwise the `.str` accessor or the binarizer fails.
 */
function labelSets(col: Column, fail: (row: number, what: string) => never): string[][] {
  if (col.kind === "string") return col.values.map((v) => (v === null ? [] : pySplit(v)));
  const out: string[][] = [];
  for (let i = 0; i < col.values.length; i++) {
    const v = cellAt(col, i);
    if (v !== null && !(typeof v === "number" && Number.isNaN(v))) fail(i, cellText(v));
    out.push([]);
  }
  return out;
}
