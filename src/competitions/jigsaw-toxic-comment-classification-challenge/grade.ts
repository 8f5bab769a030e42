import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { cellAt, type Column, type Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, cellText, describeColumns, keyReader, numericInOrder, sortOrder, submissionColumn } from "../../grading/columns.js";
import type { Key } from "../../grading/key-index.js";
import { rocAuc } from "../../metrics/roc-auc.js";
import { numpySum } from "../../metrics/sum.js";

/** The six label columns, in Kaggle's order (kept here so grading does not load the preparer). */
const CLASSES = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"];

/**
 * Mean over the six labels of the ROC AUC, on the comments Kaggle scored (answers rows of -1 are
 * dropped). As upstream does, both sides are sorted by `id` and then paired by position, and the
 * submission's non-id columns are paired with the answers' label columns in file order, whatever
 * their names: a submission must keep the sample submission's column order.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const subId = submissionColumn(submission, "id");
  const missing = CLASSES.filter((c) => !submission.data.has(c));
  if (missing.length > 0) {
    throw new InvalidSubmissionError(
      `Submission is missing the label column(s) ${missing.map((c) => JSON.stringify(c)).join(", ")}; ` +
        `found ${describeColumns(submission)}.`,
    );
  }
  const ansId = answersColumn(ans, "id");
  const labels = ans.columns.filter((c) => c !== "id");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test comment id.`,
    );
  }
  const predColumns = submission.columns.filter((c) => c !== "id");
  if (predColumns.length !== labels.length) {
    throw new InvalidSubmissionError(
      `Submission must have "id" and exactly the ${labels.length} label columns (${labels.join(", ")}), ` +
        `but it has ${predColumns.length} columns besides "id": ${predColumns.map((c) => JSON.stringify(c)).join(", ")}.`,
    );
  }

  const ansOrder = sortOrder(ansId);
  const truthColumns = labels.map((c) => numericInOrder(answersColumn(ans, c), ansOrder, c));
  const scoredById = new Map<Key, boolean>();
  const ansKey = keyReader(ansId);
  const keptAnswerPositions: number[] = [];
  for (let j = 0; j < ansOrder.length; j++) {
    // Kaggle marks an unscored comment with -1 in every label, so a negative row sum flags it.
    let sum = 0;
    for (const col of truthColumns) if (!Number.isNaN(col[j])) sum += col[j];
    const scored = sum >= 0;
    if (scored) keptAnswerPositions.push(j);
    const k = ansKey(ansOrder[j]);
    if (k !== undefined) scoredById.set(k, scored);
  }

  // Each submission row takes the scored/unscored flag of its id; an id the answers lack cannot be placed.
  const subKey = keyReader(subId);
  const keptSubRows: number[] = [];
  for (const row of sortOrder(subId)) {
    const k = subKey(row);
    const scored = k === undefined ? undefined : scoredById.get(k);
    if (scored === undefined) {
      throw new InvalidSubmissionError(
        `Submission "id" in data row ${row + 1} (${cellText(cellAt(subId, row))}) is not a test comment id; ` +
          `submit exactly the ids of the sample submission.`,
      );
    }
    if (scored) keptSubRows.push(row);
  }
  if (keptSubRows.length !== keptAnswerPositions.length) {
    throw new InvalidSubmissionError(
      `Submission ids do not match the answers: ${keptSubRows.length} of its rows are scored comments, ` +
        `but the answers score ${keptAnswerPositions.length}; some id is repeated or missing.`,
    );
  }

  const aucs = new Float64Array(labels.length);
  labels.forEach((label, c) => {
    const yScore = scoresAt(submission.data.get(predColumns[c])!, keptSubRows, predColumns[c]);
    const yTrue = Float64Array.from(keptAnswerPositions, (j) => truthColumns[c][j]);
    aucs[c] = rocAuc(yTrue, yScore);
  });
  return numpySum(aucs) / aucs.length;
}

/** Text that Python's float() turns into a finite number (digits may be grouped with underscores). */
const PY_FINITE_FLOAT = /^\s*[+-]?(\d(_?\d)*(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][+-]?\d(_?\d)*)?\s*$/;

/**
 * A prediction column at the scored rows as float64. Only scored rows are looked at, as upstream
 * converts after dropping the unscored ones: text there is fine, and so is text that float() reads.
 */
function scoresAt(col: Column, rows: readonly number[], name: string): Float64Array {
  const out = new Float64Array(rows.length);
  rows.forEach((row, i) => {
    let v: number;
    if (col.kind === "string") {
      const text = col.values[row];
      if (text !== null && !PY_FINITE_FLOAT.test(text)) {
        throw new InvalidSubmissionError(
          `Column "${name}" must hold numbers, but data row ${row + 1} holds ${cellText(text)}.`,
        );
      }
      v = text === null ? NaN : Number(text.trim().replaceAll("_", ""));
    } else {
      const cell = cellAt(col, row);
      v = cell === null ? NaN : Number(cell);
    }
    if (!Number.isFinite(v)) {
      throw new InvalidSubmissionError(
        `Column "${name}" must hold a finite number in every scored row, but data row ${row + 1} holds ` +
          `${Number.isNaN(v) ? "a missing value (NaN)" : cellText(v)}.`,
      );
    }
    out[i] = v;
  });
  return out;
}
