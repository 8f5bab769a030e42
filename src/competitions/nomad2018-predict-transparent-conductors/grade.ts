import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, cellText, numericInOrder, submissionColumn } from "../../grading/columns.js";
import { rmsle } from "../../metrics/regression.js";

/** The two predicted properties, each scored by RMSLE. */
export const TARGETS = ["formation_energy_ev_natom", "bandgap_energy_ev"] as const;

/**
 * Mean of the two columns' RMSLE. Rows are paired by position, not by `id` (upstream never looks
 * at the id), so a submission must keep the sample submission's row order.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const truth = TARGETS.map((name) => numericInOrder(answersColumn(ans, name), null, name));
  const columns = TARGETS.map((name) => submissionColumn(submission, name));
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; ` +
        `submit one row per test material, in the sample submission's order.`,
    );
  }
  let total = 0;
  TARGETS.forEach((name, k) => {
    const pred = numericInOrder(columns[k], null, name);
    requireLogDomain(pred, name);
    // scikit-learn >= 1.6 accepts anything above -1 (the domain of log1p); only <= -1 is refused.
    total += rmsle(truth[k], pred, { domain: "log1p" });
  });
  return total / TARGETS.length;
}

// The metric would refuse these too, but without naming the submission's row.
function requireLogDomain(values: Float64Array, name: string): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isFinite(v) && v > -1) continue;
    const what = Number.isNaN(v) ? "a missing value (NaN)" : cellText(v);
    throw new InvalidSubmissionError(
      `Column "${name}" must hold finite numbers greater than -1 (the score takes log(1 + value)), ` +
        `but data row ${i + 1} holds ${what}.`,
    );
  }
}
