import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { bytesOf, takeColumn } from "../../core/table.js";
import { answersColumn, describeColumns, memberOf, sortOrder, submissionColumn } from "../../grading/columns.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { averagePrecisionAtK, meanOfRows } from "../../metrics/map-at-k.js";
import { averagePrecisionAtKBytes } from "../../metrics/map-at-k-bytes.js";

const K = 12;

/**
 * MAP@12 of the predicted article lists. The submission may cover more customers than the
 * answers (extra rows are dropped); predictions are split on single spaces after pandas'
 * `astype(str)`, so a missing prediction becomes the token "nan".
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const expected = ["customer_id", "prediction"];
  const cols = new Set(submission.columns);
  if (cols.size !== 2 || !expected.every((c) => cols.has(c))) {
    throw new InvalidSubmissionError(
      `Submission must have exactly the columns "customer_id" and "prediction"; found ${describeColumns(submission)}.`,
    );
  }
  const subId = submissionColumn(submission, "customer_id");
  const subPred = submissionColumn(submission, "prediction");
  const ansId = answersColumn(ans, "customer_id");
  const ansPred = answersColumn(ans, "prediction");

  const inSubmission = memberOf(subId, ansId);
  let uncovered = 0;
  let firstUncovered = -1;
  for (let i = 0; i < ans.rowCount; i++) {
    // A missing answer id is a distinct NaN in Python and can never be covered.
    if (!inSubmission[i]) {
      uncovered++;
      if (firstUncovered < 0) firstUncovered = i;
    }
  }
  if (uncovered > 0) {
    throw new InvalidSubmissionError(
      `Submission must have a row for every customer in the answers; ${uncovered} are missing ` +
        `(e.g. "${pyStrAt(ansId, firstUncovered)}").`,
    );
  }

  // Every answer id is covered, so the rows kept are those whose id is among the answers'.
  const inAnswers = memberOf(ansId, subId);
  const all = new Uint32Array(submission.rowCount);
  let m = 0;
  for (let i = 0; i < submission.rowCount; i++) if (inAnswers[i]) all[m++] = i;
  const kept = all.subarray(0, m);
  const subSorted = sortOrder(takeColumn(subId, kept)).map((j) => kept[j]);
  const ansSorted = sortOrder(ansId);

  // zip() in upstream stops at the shorter list, so repeated customers shift and truncate rows.
  const n = Math.min(ansSorted.length, subSorted.length);
  const onString = (j: number) =>
    averagePrecisionAtK(new Set(pyStrAt(ansPred, ansSorted[j]).split(" ")), pyStrAt(subPred, subSorted[j]).split(" "), K);
  const ansBytes = bytesOf(ansPred);
  const subBytes = bytesOf(subPred);
  if (!ansBytes || !subBytes) return meanOfRows(n, onString);
  // Both lists read as text: score from their bytes, on strings only for rows too long for that.
  // Rows come in id order, scattered in memory: each block's rows are fetched before it is scored.
  const scores = new Float64Array(n);
  for (let j0 = 0; j0 < n; j0 += 32) {
    const j1 = Math.min(n, j0 + 32);
    ansBytes.touchRows(ansSorted, j0, j1);
    subBytes.touchRows(subSorted, j0, j1);
    for (let j = j0; j < j1; j++) {
      const ap = averagePrecisionAtKBytes(ansBytes, ansSorted[j], subBytes, subSorted[j], K);
      scores[j] = ap === ap ? ap : onString(j);
    }
  }
  return meanOfRows(n, (j) => scores[j]);
}
