import type { Answers } from "../core/competition.js";
import type { Table } from "../core/table.js";
import { oneHotLogLossInputs } from "./align.js";
import { requireTable } from "./answers.js";
import { requireProbabilityRows } from "./probabilities.js";
import { logLoss } from "../metrics/log-loss.js";

/**
 * Multi-class log loss of a probability submission against one-hot answers, rows matched by
 * `idName`. Columns are found by name, so extra submission columns are ignored. Rows must
 * already sum to one (upstream's spooky-author-identification rule) rather than being
 * renormalised as Kaggle does. `classes` guards against a stale or foreign answers file, which
 * would otherwise surface as a misleading complaint about the submission's columns.
 */
export function oneHotLogLossGrade(submission: Table, answers: Answers, classes: readonly string[], idName: string): number {
  const ans = requireTable(answers);
  const found = ans.columns.filter((c) => c !== idName);
  const sameClasses = found.length === classes.length && classes.every((c) => found.includes(c));
  if (!ans.data.has(idName) || !sameClasses) {
    throw new Error(
      `the answers file should have the columns ${[idName, ...classes].join(", ")}, but it has ${ans.columns.join(", ")}`,
    );
  }
  // Aligning first reports missing columns and mismatched ids before any per-row complaint.
  const { yTrue, yPred } = oneHotLogLossInputs(submission, ans, idName);
  requireProbabilityRows(submission, found);
  return logLoss(yTrue, yPred);
}
