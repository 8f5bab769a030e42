import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { oneHotLogLossGrade } from "../../grading/one-hot-log-loss.js";

/** The six land-cover classes, as answer and submission columns. */
export const CLASSES = ["red_soil", "cotton_crop", "grey_soil", "damp_grey_soil", "vegetation_stubble", "very_damp_grey_soil"];

/** Multi-class log loss over the six class probabilities, rows matched by `id`; rows must sum to one. */
export function grade(submission: Table, answers: Answers): number {
  return oneHotLogLossGrade(submission, answers, CLASSES, "id");
}
