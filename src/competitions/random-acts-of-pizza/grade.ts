import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { rocAuc } from "../../metrics/roc-auc.js";

const ID = "request_id";
const TARGET = "requester_received_pizza";

/** ROC AUC of the predicted probability that a request got its pizza, rows matched by `request_id`. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yScore } = aurocInputs(submission, requireTable(answers), { id: ID, target: TARGET });
  return rocAuc(yTrue, yScore);
}
