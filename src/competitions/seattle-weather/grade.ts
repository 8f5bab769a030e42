import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { oneHotLogLossInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { requireProbabilityRows } from "../../grading/probabilities.js";
import { logLoss } from "../../metrics/log-loss.js";

/** The weather types, as answer and submission columns (alphabetical, as the answers hold them). */
export const CLASSES = ["drizzle", "fog", "rain", "snow", "sun"];

/**
 * Multi-class log loss over the five weather-type probabilities, rows matched by `id`. Columns
 * are found by name, so extra columns are ignored. Rows must already sum to one (upstream's
 * spooky-author-identification rule), rather than being renormalised as Kaggle does.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  // Aligning first reports missing columns and mismatched ids before any per-row complaint.
  const { yTrue, yPred, classes } = oneHotLogLossInputs(submission, ans, "id");
  requireProbabilityRows(submission, classes);
  return logLoss(yTrue, yPred);
}
