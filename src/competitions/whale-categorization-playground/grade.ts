import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { alignByIdSet } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, describeColumns } from "../../grading/columns.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { meanAveragePrecisionAtK } from "../../metrics/map-at-k.js";

const K = 5;

/**
 * MAP@5 of the predicted whale ids, rows matched by `Image`. The submission must have exactly
 * the columns Image and Id; predictions are split on single spaces after pandas' `astype(str)`,
 * so a missing prediction is the token "nan" and a doubled space yields an empty token.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const cols = new Set(submission.columns);
  if (cols.size !== 2 || !cols.has("Image") || !cols.has("Id")) {
    throw new InvalidSubmissionError(`Submission must have exactly the columns "Image" and "Id"; found ${describeColumns(submission)}.`);
  }
  const ansTarget = answersColumn(ans, "Id");
  const subTarget = submission.data.get("Id")!;
  const { subOrder, ansOrder } = alignByIdSet(submission, ans, "Image");
  const actual = Array.from(ansOrder, (i) => new Set(pyStrAt(ansTarget, i).split(" ")));
  const predicted = Array.from(subOrder, (i) => pyStrAt(subTarget, i).split(" "));
  return meanAveragePrecisionAtK(actual, predicted, K);
}
