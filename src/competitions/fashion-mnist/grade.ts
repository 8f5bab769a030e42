import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { accuracyInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { accuracy } from "../../metrics/accuracy.js";

/** Accuracy of the predicted `label` (0–9), rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yPred } = accuracyInputs(submission, requireTable(answers), { id: "id", target: "label" });
  return accuracy(yTrue, yPred);
}
