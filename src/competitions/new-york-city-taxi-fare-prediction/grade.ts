import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, numericInOrder, sortOrder, submissionColumn } from "../../grading/columns.js";
import { rmse } from "../../metrics/regression.js";

/**
 * RMSE of the predicted fare. Both sides are sorted by `key` and compared row by row without
 * checking that the keys match, as upstream does (a wrong key set still scores if the counts agree).
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansFare = answersColumn(ans, "fare_amount");
  const ansKey = answersColumn(ans, "key");
  const subFare = submissionColumn(submission, "fare_amount");
  const subKey = submissionColumn(submission, "key");
  const yTrue = numericInOrder(ansFare, sortOrder(ansKey), "fare_amount");
  const yPred = numericInOrder(subFare, sortOrder(subKey), "fare_amount");
  return rmse(yTrue, yPred);
}
