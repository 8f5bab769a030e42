import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { oneHotLogLossGrade } from "../../grading/one-hot-log-loss.js";
import { CLASSES } from "./classes.js";

/** Multi-class log loss over the six novel probabilities, rows matched by `id`; rows must already sum to one. */
export function grade(submission: Table, answers: Answers): number {
  return oneHotLogLossGrade(submission, answers, CLASSES, "id");
}
