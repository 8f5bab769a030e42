import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Column, Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, sortOrder, submissionColumn } from "../../grading/columns.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { numpySum } from "../../metrics/sum.js";
import { pySplit } from "../../pycompat/pystr.js";

/** A cell as upstream sees it after `fillna("").astype(str)`: missing is empty, anything else its Python str(). */
function textAt(col: Column, row: number): string {
  const missing =
    (col.kind === "float" && Number.isNaN(col.values[row])) ||
    ((col.kind === "string" || col.kind === "object") && col.values[row] === null);
  return missing ? "" : pyStrAt(col, row);
}

/** The distinct lower-cased words of a text, split on Python's whitespace. */
function wordSet(text: string): Set<string> {
  return new Set(pySplit(text.toLowerCase()));
}

/**
 * Mean word-level Jaccard similarity of `selected_text`, rows matched by `textID` (both sides
 * sorted, then compared element-wise). A row where both texts have no words divides by zero,
 * which makes the whole submission invalid upstream.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "textID");
  const ansText = answersColumn(ans, "selected_text");
  const subId = submissionColumn(submission, "textID");
  const subText = submissionColumn(submission, "selected_text");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per textID.`,
    );
  }
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, "textID");
  const scores = new Float64Array(ansOrder.length);
  for (let k = 0; k < ansOrder.length; k++) {
    const a = wordSet(textAt(subText, subOrder[k]));
    const b = wordSet(textAt(ansText, ansOrder[k]));
    let common = 0;
    for (const w of a) if (b.has(w)) common++;
    const union = a.size + b.size - common;
    if (union === 0) {
      throw new InvalidSubmissionError(
        `Row for textID ${cellText(textAt(subId, subOrder[k]))} (data row ${subOrder[k] + 1}) has an empty ` +
          `selected_text and so does the answer, so its Jaccard score is undefined (0/0); predict at least one word.`,
      );
    }
    scores[k] = common / union;
  }
  return numpySum(scores) / scores.length;
}
