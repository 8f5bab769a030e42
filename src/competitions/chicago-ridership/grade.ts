import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { regressionInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { rmse } from "../../metrics/regression.js";

/** RMSE of the predicted daily `ridership` (thousands of entries), rows matched by `id`; every prediction must be a finite number. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yPred } = regressionInputs(submission, requireTable(answers), { id: "id", target: "ridership" });
  return rmse(yTrue, yPred);
}
