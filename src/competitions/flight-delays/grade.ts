import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { regressionInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { rmse } from "../../metrics/regression.js";

/** Root mean squared error, in minutes, of the predicted arrival `delay`, rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yPred } = regressionInputs(submission, requireTable(answers), { id: "id", target: "delay" });
  return rmse(yTrue, yPred);
}
