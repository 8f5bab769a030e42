import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { macroF1OfIntLabels } from "../../grading/int-label-f1.js";

/** Macro F1 of the predicted herbarium category id, rows matched by `Id` (as Herbarium 2020). */
export function grade(submission: Table, answers: Answers): number {
  return macroF1OfIntLabels(submission, answers, { id: "Id", target: "Predicted", noun: "category id" });
}
