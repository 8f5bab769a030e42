import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { rocAuc } from "../../metrics/roc-auc.js";

const ID = "image_name";
const TARGET = "target";

/** ROC AUC of the predicted melanoma probability, rows matched by `image_name`. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yScore } = aurocInputs(submission, requireTable(answers), { id: ID, target: TARGET });
  return rocAuc(yTrue, yScore);
}
