import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { oneHotLogLossGrade } from "../../grading/one-hot-log-loss.js";
import { BREEDS } from "./classes.js";

/**
 * Multi-class log loss over the 120 breed probabilities, rows matched by image `id`. Every row
 * must already sum to one (within 1e-6 absolute plus 1e-5 relative) with each value in [0, 1];
 * nothing is renormalised or softmaxed.
 */
export function grade(submission: Table, answers: Answers): number {
  return oneHotLogLossGrade(submission, answers, BREEDS, "id");
}
