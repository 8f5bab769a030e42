import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { rocAuc } from "../../metrics/roc-auc.js";

/**
 * ROC AUC over every (recording, species) pair flattened into one column: `Id` is
 * rec_id * 100 + species and `Probability` the predicted presence, rows matched by `Id`.
 */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yScore } = aurocInputs(submission, requireTable(answers), { id: "Id", target: "Probability" });
  return rocAuc(yTrue, yScore);
}
