import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { accuracyInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { accuracy } from "../../metrics/accuracy.js";

/** Accuracy of the predicted `Sentiment` class (0-4), rows matched by `PhraseId`. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yPred } = accuracyInputs(submission, requireTable(answers), { id: "PhraseId", target: "Sentiment" });
  return accuracy(yTrue, yPred);
}
