import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, submissionColumn } from "../../grading/columns.js";
import { levenshtein } from "../../metrics/levenshtein.js";

/**
 * A sentence cell as the edit-distance routine accepts it: only text. Upstream hands the raw
 * cell to python-Levenshtein, which raises a TypeError on a float (an empty cell reads as NaN)
 * or any other non-string value, so such a submission cannot be scored.
 */
function sentenceAt(col: Column, row: number, side: "submission" | "answers"): string {
  if (col.kind === "string") {
    const v = col.values[row];
    if (v !== null) return v;
  }
  const cell = cellAt(col, row);
  if (side === "answers") throw new Error(`Answers hold a non-text sentence at data row ${row + 1}: ${cellText(cell)}.`);
  throw new InvalidSubmissionError(
    `Column "sentence" must hold text in every row, but data row ${row + 1} holds ${cellText(cell)}` +
      (cell === null ? " (an empty cell)" : "") +
      `; write the full restored sentence for every id.`,
  );
}

/**
 * Mean Levenshtein distance (in characters) between each restored sentence and the original,
 * rows matched by `id` (both sides sorted, then compared element-wise).
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansText = answersColumn(ans, "sentence");
  const subId = submissionColumn(submission, "id");
  const subText = submissionColumn(submission, "sentence");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per id.`,
    );
  }
  // Distances are integers, so their float64 sum is exact and the pairing order cannot matter.
  const subOrder = alignToAnswers(subId, ansId, null, "id");
  let total = 0;
  for (let k = 0; k < ans.rowCount; k++) {
    total += levenshtein(sentenceAt(ansText, k, "answers"), sentenceAt(subText, subOrder[k], "submission"));
  }
  return total / ans.rowCount;
}
