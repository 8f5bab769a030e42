import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { accuracyInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { accuracy } from "../../metrics/accuracy.js";

/** Accuracy of the predicted phoneme `ClassId`, rows matched by frame `Id`. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yPred } = accuracyInputs(submission, requireTable(answers), { id: "Id", target: "ClassId" });
  return accuracy(yTrue, yPred);
}
