import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { alignByIdSet } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, submissionColumn } from "../../grading/columns.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { meanAveragePrecisionAtK } from "../../metrics/map-at-k.js";

const K = 5;

/**
 * MAP@5 of the predicted hotel ids, rows matched by `image` (extra columns are ignored).
 * Predictions are split on single spaces after pandas' `astype(str)`: a column read as floats
 * predicts "123.0", which never matches, and a missing prediction is the token "nan".
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  submissionColumn(submission, "image");
  const subTarget = submissionColumn(submission, "hotel_id");
  const ansTarget = answersColumn(ans, "hotel_id");
  const { subOrder, ansOrder } = alignByIdSet(submission, ans, "image");
  const actual = Array.from(ansOrder, (i) => new Set(pyStrAt(ansTarget, i).split(" ")));
  const predicted = Array.from(subOrder, (i) => pyStrAt(subTarget, i).split(" "));
  return meanAveragePrecisionAtK(actual, predicted, K);
}
