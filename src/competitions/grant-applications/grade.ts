import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { rocAuc } from "../../metrics/roc-auc.js";

/** ROC AUC of the predicted probability that an application was funded (`successful` = 1), rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yScore } = aurocInputs(submission, requireTable(answers), { id: "id", target: "successful" });
  return rocAuc(yTrue, yScore);
}
