import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { rocAuc } from "../../metrics/roc-auc.js";
import { numpySum } from "../../metrics/sum.js";

/** The label columns, in the answers' order (kept here so grading does not load the preparer). */
const LABELS = [
  "person", "animal", "plant", "organism", "artifact", "device", "food", "location", "act",
  "event", "attribute", "communication", "cognition", "matter", "body_part", "group", "state", "measure",
];

/** Mean over the 18 category columns of the ROC AUC of the predicted probabilities, rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const aucs = Float64Array.from(LABELS, (target) => {
    const { yTrue, yScore } = aurocInputs(submission, ans, { id: "id", target });
    return rocAuc(yTrue, yScore);
  });
  return numpySum(aucs) / aucs.length;
}
