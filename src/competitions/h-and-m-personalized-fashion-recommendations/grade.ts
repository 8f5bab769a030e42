import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { takeColumn } from "../../core/table.js";
import type { Key } from "../../grading/key-index.js";
import { answersColumn, describeColumns, keyReader, keySet, sortOrder, submissionColumn } from "../../grading/columns.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { meanAveragePrecisionAtKOf } from "../../metrics/map-at-k.js";

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

  const subKeys = keySet(subId).keys;
  const ansKey = keyReader(ansId);
  const subKey = keyReader(subId);
  const answerKeys = new Set<Key>();
  let uncovered = 0;
  let firstUncovered = -1;
  for (let i = 0; i < ans.rowCount; i++) {
    const k = ansKey(i);
    // A missing answer id is a distinct NaN in Python and can never be covered.
    if (k === undefined || !subKeys.has(k)) {
      uncovered++;
      if (firstUncovered < 0) firstUncovered = i;
    } else answerKeys.add(k);
  }
  if (uncovered > 0) {
    throw new InvalidSubmissionError(
      `Submission must have a row for every customer in the answers; ${uncovered} are missing ` +
        `(e.g. "${pyStrAt(ansId, firstUncovered)}").`,
    );
  }

  const keptRows: number[] = [];
  for (let i = 0; i < submission.rowCount; i++) {
    const k = subKey(i);
    if (k !== undefined && answerKeys.has(k)) keptRows.push(i);
  }
  const kept = Uint32Array.from(keptRows);
  const subSorted = sortOrder(takeColumn(subId, kept)).map((j) => kept[j]);
  const ansSorted = sortOrder(ansId);

  // zip() in upstream stops at the shorter list, so repeated customers shift and truncate rows.
  const n = Math.min(ansSorted.length, subSorted.length);
  return meanAveragePrecisionAtKOf(
    n,
    K,
    (j) => new Set(pyStrAt(ansPred, ansSorted[j]).split(" ")),
    (j) => pyStrAt(subPred, subSorted[j]).split(" "),
  );
}
