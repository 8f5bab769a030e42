import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, numericValues, sortOrder, submissionColumn } from "../../grading/columns.js";
import { rmseInOrder } from "../../metrics/regression.js";

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
  // Values stay where they are; both sides are read through their key orders.
  const trueOrder = sortOrder(ansKey);
  const yTrue = numericValues(ansFare, "fare_amount");
  const predOrder = sortOrder(subKey);
  const yPred = numericValues(subFare, "fare_amount");
  return rmseInOrder(yTrue, trueOrder, yPred, predOrder);
}
