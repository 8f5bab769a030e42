/**
 * The grading rule both text-normalization competitions share: one row per token id, and the
 * normalised text compared after both sides are turned into Python strings.
 */
import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { bytesOf, type Table } from "../../core/table.js";
import type { TextBytes } from "../../core/text-bytes.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, submissionColumn } from "../../grading/columns.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { accuracy } from "../../metrics/accuracy.js";

/**
 * Accuracy of the `after` column, rows matched by `id` ("<sentence>_<token>"). Both sides go
 * through pandas' astype(str) first, so a missing value (the tokens "NA", "None", "null", an
 * empty cell, ...) counts as the text "nan" and an all-numeric column as its printed numbers.
 */
export function gradeNormalization(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansAfter = answersColumn(ans, "after");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per token id, ` +
        `as in the sample submission.`,
    );
  }
  const subAfter = submissionColumn(submission, "after");
  const subId = submissionColumn(submission, "id");
  // Equal id multisets is exactly when upstream's sort-then-compare check passes.
  const subOrder = alignToAnswers(subId, ansId, null, "id");
  const n = ans.rowCount;
  const a = bytesOf(ansAfter);
  const b = bytesOf(subAfter);
  if (a && b && n > 0) {
    // Both read as text: compare bytes, which is what comparing the strings would give.
    let correct = 0;
    for (let i0 = 0; i0 < n; i0 += 64) {
      const i1 = Math.min(n, i0 + 64);
      // The submission's rows come in the answers' order, scattered: fetch a batch, then compare.
      b.touchRows(subOrder, i0, i1);
      for (let i = i0; i < i1; i++) if (samePyStr(a, i, b, subOrder[i])) correct++;
    }
    return correct / n;
  }
  const yTrue: string[] = new Array(n);
  const yPred: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    yTrue[i] = pyStrAt(ansAfter, i);
    yPred[i] = pyStrAt(subAfter, subOrder[i]);
  }
  return accuracy(yTrue, yPred);
}

const NAN = Buffer.from("nan");

/** Whether two cells are equal after astype(str), where a missing value is the text "nan". */
function samePyStr(a: TextBytes, i: number, b: TextBytes, j: number): boolean {
  const naA = a.isNa(i);
  const naB = b.isNa(j);
  if (naA || naB) return naA && naB ? true : naA ? b.equalsBytes(j, NAN) : a.equalsBytes(i, NAN);
  return a.equalRows(i, b, j);
}
