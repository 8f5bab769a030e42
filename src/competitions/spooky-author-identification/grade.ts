import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { oneHotLogLossInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { describeColumns } from "../../grading/columns.js";
import { requireProbabilityRows } from "../../grading/probabilities.js";
import { logLoss } from "../../metrics/log-loss.js";

/** The three authors, as answer columns. */
export const CLASSES = ["EAP", "HPL", "MWS"];

/** Multi-class log loss over the three author probabilities, rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  if (submission.rowCount !== ans.rowCount || submission.columns.length !== CLASSES.length + 1) {
    throw new InvalidSubmissionError(
      `Submission must have ${ans.rowCount} rows and ${CLASSES.length + 1} columns (id, ${CLASSES.join(", ")}); ` +
        `it has ${submission.rowCount} rows and ${submission.columns.length} columns (${describeColumns(submission)}).`,
    );
  }
  // Upstream checks every column after the first by position, assuming the id comes first.
  requireProbabilityRows(submission, submission.columns.slice(1));
  const { yTrue, yPred } = oneHotLogLossInputs(submission, ans, "id");
  return logLoss(yTrue, yPred);
}
