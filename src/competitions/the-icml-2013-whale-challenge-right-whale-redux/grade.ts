import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { rocAuc } from "../../metrics/roc-auc.js";

/** ROC AUC of the predicted right-whale-call `probability`, rows matched by the clip file name `clip`. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yScore } = aurocInputs(submission, requireTable(answers), { id: "clip", target: "probability" });
  return rocAuc(yTrue, yScore);
}
