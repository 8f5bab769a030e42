import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { oneHotLogLossGrade } from "../../grading/one-hot-log-loss.js";

/** The weather types, as answer and submission columns (alphabetical, as the answers hold them). */
export const CLASSES = ["drizzle", "fog", "rain", "snow", "sun"];

/**
 * Multi-class log loss over the five weather-type probabilities, rows matched by `id`; rows
 * must already sum to one (upstream's spooky-author-identification rule).
 */
export function grade(submission: Table, answers: Answers): number {
  return oneHotLogLossGrade(submission, answers, CLASSES, "id");
}
