import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import {
  alignToAnswers,
  answersColumn,
  cellText,
  describeColumns,
  identityOrder,
  numericInOrder,
  submissionColumn,
  valuesInOrder,
} from "../../grading/columns.js";
import { rocAuc } from "../../metrics/roc-auc.js";
import { numpySum } from "../../metrics/sum.js";

const ID = "image_id";
const CLASSES = ["healthy", "multiple_diseases", "rust", "scab"] as const;
const COLUMNS: readonly string[] = [ID, ...CLASSES];

/** Mean over the four disease columns of the ROC AUC of each, rows matched by `image_id`. */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansColumns = new Set(ans.columns);
  if (ansColumns.size !== COLUMNS.length || !COLUMNS.every((c) => ansColumns.has(c))) {
    throw new Error(`Answers must have exactly the columns ${COLUMNS.join(", ")}; found ${describeColumns(ans)}.`);
  }
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test image.`,
    );
  }
  // Upstream compares the column *sets*: an extra column is as fatal as a missing one.
  const subColumns = new Set(submission.columns);
  const missing = COLUMNS.filter((c) => !subColumns.has(c));
  const extra = submission.columns.filter((c) => !COLUMNS.includes(c));
  if (missing.length > 0 || extra.length > 0) {
    const parts: string[] = [];
    if (missing.length > 0) parts.push(`missing ${missing.map((c) => JSON.stringify(c)).join(", ")}`);
    if (extra.length > 0) parts.push(`unexpected ${extra.map((c) => JSON.stringify(c)).join(", ")}`);
    throw new InvalidSubmissionError(
      `Submission must have exactly the columns ${COLUMNS.join(", ")} (${parts.join("; ")}).`,
    );
  }
  // AUC ignores row order, so the answers stay in file order once each id has found its row.
  const subOrder = alignToAnswers(submissionColumn(submission, ID), answersColumn(ans, ID), null, ID);
  const ansOrder = identityOrder(ans.rowCount);
  const scores = CLASSES.map((cls) => {
    const yScore = numericInOrder(submissionColumn(submission, cls), subOrder, cls);
    // Upstream puts no range check on the scores, but scikit-learn refuses NaN and infinity.
    for (let i = 0; i < yScore.length; i++) {
      if (Number.isFinite(yScore[i])) continue;
      const what = Number.isNaN(yScore[i]) ? "a missing value (NaN)" : cellText(yScore[i]);
      throw new InvalidSubmissionError(
        `Column "${cls}" must hold finite numbers, but data row ${subOrder[i] + 1} holds ${what}.`,
      );
    }
    return rocAuc(valuesInOrder(answersColumn(ans, cls), ansOrder), yScore);
  });
  return numpySum(scores) / scores.length;
}
