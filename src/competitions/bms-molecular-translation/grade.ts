import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, submissionColumn } from "../../grading/columns.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { levenshtein } from "../../metrics/levenshtein.js";

/**
 * Mean Levenshtein distance between each predicted InChI string and the true one, rows matched
 * by `image_id` (both sides sorted, then compared element-wise). Both columns go through
 * pandas' `astype(str)` first, as upstream's do: an empty cell is scored as the text "nan" rather
 * than refused, and a number as its Python spelling.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "image_id");
  const ansInchi = answersColumn(ans, "InChI");
  const subId = submissionColumn(submission, "image_id");
  const subInchi = submissionColumn(submission, "InChI");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test "image_id".`,
    );
  }
  // Distances are integers, so their float64 sum is exact and the pairing order cannot matter.
  const subOrder = alignToAnswers(subId, ansId, null, "image_id");
  let total = 0;
  for (let k = 0; k < ans.rowCount; k++) {
    total += levenshtein(pyStrAt(ansInchi, k), pyStrAt(subInchi, subOrder[k]));
  }
  return total / ans.rowCount;
}
