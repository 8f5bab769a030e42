import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { macroF1OfIntLabels } from "../../grading/int-label-f1.js";

/** Macro F1 of the predicted animal `Category` (Python int() of each label), rows matched by image `Id`. */
export function grade(submission: Table, answers: Answers): number {
  return macroF1OfIntLabels(submission, answers, { id: "Id", target: "Category", noun: "class id" });
}
