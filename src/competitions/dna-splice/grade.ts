import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { oneHotLogLossGrade } from "../../grading/one-hot-log-loss.js";

/** The junction types, as answer and submission columns: exon→intron, intron→exon, neither. */
export const CLASSES = ["EI", "IE", "N"];

/** Multi-class log loss over the three junction-type probabilities, rows matched by `id`; rows must sum to one. */
export function grade(submission: Table, answers: Answers): number {
  return oneHotLogLossGrade(submission, answers, CLASSES, "id");
}
