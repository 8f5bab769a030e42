import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { oneHotLogLossGrade } from "../../grading/one-hot-log-loss.js";

/** The digit classes, as answer and submission column names. */
export const CLASSES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];

/** Multi-class log loss over the ten digit probabilities, rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  return oneHotLogLossGrade(submission, answers, CLASSES, "id");
}
