import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { cellAt, type Column, type Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, cellText, keyReader, numericInOrder, requireSameIdSet, submissionColumn } from "../../grading/columns.js";
import { KeyIndex } from "../../grading/key-index.js";
import { mae } from "../../metrics/regression.js";

const ID = "segment_id";
const TARGET = "time_to_eruption";

/** Python's round() to a whole number: ties go to the even neighbour. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff < 0.5) return floor;
  if (diff > 0.5) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** Text that Python's float() turns into a finite number (digits may be grouped with underscores). */
const PY_FINITE_FLOAT = /^\s*[+-]?(\d(_?\d)*(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][+-]?\d(_?\d)*)?\s*$/;

/**
 * The predictions as float64. A text column is converted cell by cell as numpy converts an
 * object array (float() on each cell), so only cells float() cannot read are refused here.
 */
function predictions(col: Column): Float64Array {
  if (col.kind !== "string") return numericInOrder(col, null, TARGET);
  return Float64Array.from(col.values, (text, row) => {
    if (text !== null && !PY_FINITE_FLOAT.test(text)) {
      throw new InvalidSubmissionError(`Column "${TARGET}" must hold numbers, but data row ${row + 1} holds ${cellText(text)}.`);
    }
    return text === null ? NaN : Number(text.trim().replaceAll("_", ""));
  });
}

/**
 * Mean absolute error of `time_to_eruption`, rows matched by `segment_id`, rounded to a whole
 * number as upstream reports it. Upstream compares id *sets* and then joins on the id, so a
 * repeated segment counts once per copy; we keep that, since it changes the score.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, ID);
  const truth = numericInOrder(answersColumn(ans, TARGET), null, TARGET);
  const subPred = submissionColumn(submission, TARGET);
  const subId = submissionColumn(submission, ID);
  requireSameIdSet(subId, ansId, ID);
  const pred = predictions(subPred);
  for (let i = 0; i < pred.length; i++) {
    if (Number.isFinite(pred[i])) continue;
    const what = Number.isNaN(pred[i]) ? "a missing value (NaN)" : cellText(pred[i]);
    throw new InvalidSubmissionError(
      `Column "${TARGET}" must hold finite numbers, but data row ${i + 1} (${ID} ${cellText(cellAt(subId, i))}) holds ${what}.`,
    );
  }

  // The inner join keeps the answers' order and emits every submitted copy of an id in file order.
  const index = new KeyIndex(submission.rowCount, keyReader(subId));
  const ansKey = keyReader(ansId);
  const yTrue: number[] = [];
  const yPred: number[] = [];
  for (let j = 0; j < ans.rowCount; j++) {
    const k = ansKey(j);
    for (let row = k === undefined ? -1 : index.first(k); row >= 0; row = index.next(row)) {
      yTrue.push(truth[j]);
      yPred.push(pred[row]);
    }
  }
  const score = mae(yTrue, yPred);
  // Upstream turns the error into a Python int, which fails when the error overflows.
  if (!Number.isFinite(score)) {
    throw new InvalidSubmissionError(`Column "${TARGET}" holds values so large that the mean absolute error overflows.`);
  }
  return roundHalfEven(score);
}
