import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireProbabilityRange } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, describeColumns, numericInOrder, sortOrder } from "../../grading/columns.js";
import { logLoss } from "../../metrics/log-loss.js";

/** The three outcomes, as one-hot answer columns and submitted probabilities. */
export const OUTCOMES = ["winner_model_a", "winner_model_b", "winner_tie"];

/**
 * Whether a row sum rounds to exactly 1 at 6 decimals, as pandas' `round(6)` (numpy: scale by
 * 1e6, round half to even, unscale): the scaled sum must lie in [999999.5, 1000000.5], both
 * ends rounding to the even 1000000.
 */
function roundsToOne(sum: number): boolean {
  const scaled = sum * 1e6;
  return scaled >= 999999.5 && scaled <= 1000000.5;
}

/** Multi-class log loss of the predicted outcome probabilities, rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const required = ["id", ...OUTCOMES];
  const missing = required.filter((c) => !submission.data.has(c));
  if (missing.length > 0) {
    throw new InvalidSubmissionError(
      `Submission is missing required column(s) ${missing.map((c) => JSON.stringify(c)).join(", ")}; ` +
        `expected ${required.join(", ")} and found ${describeColumns(submission)}.`,
    );
  }
  const ansId = answersColumn(ans, "id");
  const truthCols = OUTCOMES.map((c) => answersColumn(ans, c));
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test id.`,
    );
  }
  // Probabilities in file order: text is refused, and NaN fails the element-wise range check.
  const probs = OUTCOMES.map((c) => numericInOrder(submission.data.get(c)!, null, c));
  OUTCOMES.forEach((c, k) => requireProbabilityRange(probs[k], c, false));
  for (let i = 0; i < submission.rowCount; i++) {
    // Left to right, as pandas sums three columns; upstream accepts a row only if it rounds to 1.
    const sum = probs[0][i] + probs[1][i] + probs[2][i];
    if (!roundsToOne(sum)) {
      throw new InvalidSubmissionError(
        `Each row's probabilities must sum to 1 (to 6 decimals); data row ${i + 1} sums to ${cellText(sum)}.`,
      );
    }
  }
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(submission.data.get("id")!, ansId, ansOrder, "id");
  const truth = truthCols.map((col, k) => numericInOrder(col, ansOrder, OUTCOMES[k]));
  const yTrue = Array.from({ length: ans.rowCount }, (_, j) => truth.map((col) => col[j]));
  const yPred = Array.from({ length: ans.rowCount }, (_, j) => probs.map((col) => col[subOrder[j]]));
  // Rows are not renormalised: a row summing to 0.9999996 is scored as submitted.
  return logLoss(yTrue, yPred);
}
