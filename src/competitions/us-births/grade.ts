import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { regressionInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { mape } from "../../metrics/mape.js";

/** MAPE in percent, 100 · mean(|predicted − actual| / actual), of the daily birth `count`, rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yPred } = regressionInputs(submission, requireTable(answers), { id: "id", target: "count" });
  return 100 * mape(yTrue, yPred);
}
