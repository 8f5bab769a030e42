import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { oneHotLogLossInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { requireProbabilityRows } from "../../grading/probabilities.js";
import { logLoss } from "../../metrics/log-loss.js";
import { SPECIES } from "./classes.js";

/**
 * Multi-class log loss over the 99 species probabilities, rows matched by `id`. The submission
 * must have exactly the columns id + the 99 species (in any order) and rows that are already
 * probabilities: nothing is renormalised or softmaxed.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  requireExactColumns(submission);
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test image id.`,
    );
  }
  requireProbabilityRows(submission, SPECIES);
  const { yTrue, yPred } = oneHotLogLossInputs(submission, ans, "id");
  return logLoss(yTrue, yPred);
}

// Upstream compares column *sets*, so an extra column is as fatal as a missing one.
function requireExactColumns(submission: Table): void {
  const wanted = new Set(["id", ...SPECIES]);
  const have = new Set(submission.columns);
  const missing = [...wanted].filter((c) => !have.has(c));
  const extra = submission.columns.filter((c) => !wanted.has(c));
  if (missing.length === 0 && extra.length === 0) return;
  const list = (names: string[]) =>
    names.slice(0, 8).map((c) => JSON.stringify(c)).join(", ") + (names.length > 8 ? `, … (${names.length} in all)` : "");
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`missing ${list(missing)}`);
  if (extra.length > 0) parts.push(`unexpected ${list(extra)}`);
  throw new InvalidSubmissionError(
    `Submission must have exactly the columns "id" and one per species (${SPECIES.length}, as in the sample submission); ` +
      `${parts.join("; ")}.`,
  );
}
