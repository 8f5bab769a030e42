import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { gradeMacroF1ById } from "../herbarium-2020-fgvc7/macro-f1-by-id.js";

/** Macro F1 of the predicted herbarium category id, rows matched by `Id` (as Herbarium 2020). */
export function grade(submission: Table, answers: Answers): number {
  return gradeMacroF1ById(submission, answers);
}
