import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { rocAuc } from "../../metrics/roc-auc.js";

const ID = "BraTS21ID";
const TARGET = "MGMT_value";

/**
 * ROC AUC of the predicted probability that a patient's tumour has a methylated MGMT promoter,
 * rows matched by `BraTS21ID` (read as numbers, so "00012" and "12" are the same patient).
 */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yScore } = aurocInputs(submission, requireTable(answers), { id: ID, target: TARGET });
  return rocAuc(yTrue, yScore);
}
