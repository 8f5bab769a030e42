import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { oneHotLogLossInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { cellText, describeColumns } from "../../grading/columns.js";
import { logLoss } from "../../metrics/log-loss.js";

/** The three authors, as answer columns. */
export const CLASSES = ["EAP", "HPL", "MWS"];

/** Rows must sum to one within np.isclose(atol=1e-6) and its default rtol of 1e-5. */
const ROW_SUM_TOLERANCE = 1e-6 + 1e-5;

/** Multi-class log loss over the three author probabilities, rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  if (submission.rowCount !== ans.rowCount || submission.columns.length !== CLASSES.length + 1) {
    throw new InvalidSubmissionError(
      `Submission must have ${ans.rowCount} rows and ${CLASSES.length + 1} columns (id, ${CLASSES.join(", ")}); ` +
        `it has ${submission.rowCount} rows and ${submission.columns.length} columns (${describeColumns(submission)}).`,
    );
  }
  checkProbabilityRows(submission);
  const { yTrue, yPred } = oneHotLogLossInputs(submission, ans, "id");
  return logLoss(yTrue, yPred);
}

/**
 * Upstream checks every column after the first by position (assuming the id comes first):
 * rows must sum to one (NaN skipped, as pandas sums) and every value must lie in [0, 1].
 */
function checkProbabilityRows(sub: Table): void {
  const cols = sub.columns.slice(1).map((name) => ({ name, col: sub.data.get(name)! }));
  for (const { name, col } of cols) {
    if (col.kind === "string" && col.values.some((v) => v !== null)) {
      throw new InvalidSubmissionError(`Column "${name}" must hold probabilities, but it holds text.`);
    }
  }
  for (let i = 0; i < sub.rowCount; i++) {
    let sum = 0;
    for (const { col } of cols) {
      const v = cellNumber(col.values[i]);
      if (!Number.isNaN(v)) sum += v;
    }
    if (!(Math.abs(sum - 1) <= ROW_SUM_TOLERANCE)) {
      throw new InvalidSubmissionError(
        `Each row's probabilities must sum to one; data row ${i + 1} sums to ${cellText(sum)}.`,
      );
    }
  }
  for (const { name, col } of cols) {
    for (let i = 0; i < sub.rowCount; i++) {
      const v = cellNumber(col.values[i]);
      if (!(v >= 0 && v <= 1)) {
        throw new InvalidSubmissionError(
          `Column "${name}" must hold probabilities between 0 and 1, but data row ${i + 1} holds ${cellText(v)}.`,
        );
      }
    }
  }
}

function cellNumber(v: number | bigint | boolean | string | null): number {
  if (v === null) return NaN;
  return Number(v);
}
