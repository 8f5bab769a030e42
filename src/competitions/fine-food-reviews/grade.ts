import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { rocAuc } from "../../metrics/roc-auc.js";

/** ROC AUC of the predicted probability that a review gives five stars, rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yScore } = aurocInputs(submission, requireTable(answers), { id: "id", target: "great" });
  return rocAuc(yTrue, yScore);
}
