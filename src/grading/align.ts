/**
 * The alignment rules shared by many upstream graders: sort submission and answers by id,
 * require identical ids, pull out the target columns.
 */
import { cellAt, type Table } from "../core/table.js";
import { InvalidSubmissionError } from "../core/errors.js";
import type { Label } from "../metrics/labels.js";
import {
  answersColumn,
  cellText,
  describeColumns,
  identityOrder,
  numericInOrder,
  alignToAnswers,
  requireSameIdSet,
  distinctInOrder,
  sortOrder,
  submissionColumn,
  valuesInOrder,
} from "./columns.js";

export interface IdTarget {
  id: string;
  target: string;
}

/**
 * Inputs for accuracy: same row count, both columns present, ids equal after sorting.
 * Values keep their CSV-inferred types: "True" compares equal to a boolean answer, "1" to 1.
 */
export function accuracyInputs(sub: Table, ans: Table, cols: IdTarget): { yTrue: Label[]; yPred: Label[] } {
  const ansId = answersColumn(ans, cols.id);
  const ansTarget = answersColumn(ans, cols.target);
  if (sub.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${sub.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test id.`,
    );
  }
  const subTarget = submissionColumn(sub, cols.target);
  const subId = submissionColumn(sub, cols.id);
  // Accuracy does not depend on row order, so the answers stay in file order (no sort needed).
  const subOrder = alignToAnswers(subId, ansId, null, cols.id);
  return { yTrue: valuesInOrder(ansTarget, identityOrder(ans.rowCount)), yPred: valuesInOrder(subTarget, subOrder) };
}

/**
 * Inputs for ROC AUC: numeric predictions in [0, 1], same row count, ids equal after sorting.
 * Upstream's range check skips NaN (pandas' min/max) and scikit-learn then refuses it; the NaN is
 * refused here, after the id check as there, naming its row and id.
 */
export function aurocInputs(sub: Table, ans: Table, cols: IdTarget): { yTrue: readonly Label[] | Float64Array; yScore: Float64Array } {
  const ansId = answersColumn(ans, cols.id);
  const ansTarget = answersColumn(ans, cols.target);
  const subId = submissionColumn(sub, cols.id);
  const subTarget = submissionColumn(sub, cols.target);
  if (sub.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${sub.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test id.`,
    );
  }
  // Number predictions are read in place: copying a million of them costs fresh memory for nothing.
  const scores = subTarget.kind === "float" || subTarget.kind === "int" ? subTarget.values : numericInOrder(subTarget, null, cols.target);
  requireProbabilityRange(scores, cols.target, true);
  // ROC AUC does not depend on row order, so the answers stay in file order (no sort needed).
  const subOrder = alignToAnswers(subId, ansId, null, cols.id);
  const nan = scores.findIndex((v) => Number.isNaN(v));
  if (nan >= 0) {
    throw new InvalidSubmissionError(
      `Column "${cols.target}" must hold a probability on every row, but data row ${nan + 1} ` +
        `(${cols.id} ${cellText(cellAt(subId, nan))}) is empty (NaN).`,
    );
  }
  const yScore = new Float64Array(subOrder.length);
  for (let i = 0; i < subOrder.length; i++) yScore[i] = scores[subOrder[i]];
  // Number labels in file order are the column itself; no array of a million boxed values.
  const yTrue = ansTarget.kind === "int" ? ansTarget.values : valuesInOrder(ansTarget, identityOrder(ans.rowCount));
  return { yTrue, yScore };
}

/**
 * Require every value to lie in [0, 1]. With `skipNaN`, NaN passes (pandas min/max semantics);
 * without it NaN fails (an element-wise `>= 0 & <= 1` check).
 */
export function requireProbabilityRange(values: ArrayLike<number>, name: string, skipNaN: boolean): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v >= 0 && v <= 1) continue;
    if (skipNaN && Number.isNaN(v)) continue;
    throw new InvalidSubmissionError(
      `Column "${name}" must hold probabilities between 0 and 1, but data row ${i + 1} holds ${cellText(v)}.`,
    );
  }
}

/**
 * Inputs for a one-hot log loss: the submission has every answers column (extra ones are
 * ignored), ids equal after sorting; returns row-major matrices over the answers' class columns.
 */
export function oneHotLogLossInputs(
  sub: Table,
  ans: Table,
  idName: string,
): { yTrue: number[][]; yPred: number[][]; classes: string[] } {
  const missing = ans.columns.filter((c) => !sub.data.has(c));
  if (missing.length > 0) {
    throw new InvalidSubmissionError(
      `Submission is missing ${missing.length} required column(s): ${missing.map((c) => JSON.stringify(c)).join(", ")}; ` +
        `found ${describeColumns(sub)}.`,
    );
  }
  const subId = submissionColumn(sub, idName);
  const ansId = answersColumn(ans, idName);
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, idName);
  const classes = ans.columns.filter((c) => c !== idName);
  const pred = classes.map((c) => numericInOrder(sub.data.get(c)!, subOrder, c));
  const truth = classes.map((c) => numericInOrder(ans.data.get(c)!, ansOrder, c));
  const rows = (cols: Float64Array[]) =>
    Array.from({ length: subOrder.length }, (_, i) => cols.map((col) => col[i]));
  return { yTrue: rows(truth), yPred: rows(pred), classes };
}

/**
 * The id rule of graders that compare id *sets* and then sort both sides: the sets must be
 * equal, and since the answers hold each id once, equal row counts rule out repeated ids.
 * Returns both sides' rows in sorted-id order.
 */
export function alignByIdSet(sub: Table, ans: Table, idName: string): { subOrder: Uint32Array; ansOrder: Uint32Array } {
  const subId = submissionColumn(sub, idName);
  const ansId = answersColumn(ans, idName);
  const sorted = requireSameIdSet(subId, ansId, idName);
  if (sub.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${sub.rowCount} rows but the answers have ${ans.rowCount}; some "${idName}" appears more than once.`,
    );
  }
  // Same number ids, same count, each answer id once: the submission holds each once too, and the sorted rows pair up.
  if (sorted && distinctInOrder(ansId.values as Float64Array, sorted.ansOrder)) return sorted;
  const ansOrder = sorted?.ansOrder ?? sortOrder(ansId);
  return { subOrder: alignToAnswers(subId, ansId, ansOrder, idName), ansOrder };
}

/**
 * Inputs for a regression metric: same row count, ids equal after sorting, predictions finite
 * numbers. Both sides come back in sorted-id order, so sums run in the order upstream's would.
 */
export function regressionInputs(sub: Table, ans: Table, cols: IdTarget): { yTrue: Float64Array; yPred: Float64Array } {
  const ansId = answersColumn(ans, cols.id);
  const ansTarget = answersColumn(ans, cols.target);
  const subId = submissionColumn(sub, cols.id);
  const subTarget = submissionColumn(sub, cols.target);
  if (sub.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${sub.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test id.`,
    );
  }
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, cols.id);
  const yPred = numericInOrder(subTarget, subOrder, cols.target);
  // The metric would also refuse NaN, but only the submission's own row number helps its author.
  for (let i = 0; i < yPred.length; i++) {
    if (Number.isFinite(yPred[i])) continue;
    const what = Number.isNaN(yPred[i]) ? "a missing value (NaN)" : cellText(yPred[i]);
    throw new InvalidSubmissionError(
      `Column "${cols.target}" must hold finite numbers, but data row ${subOrder[i] + 1} holds ${what}.`,
    );
  }
  return { yTrue: numericInOrder(ansTarget, ansOrder, cols.target), yPred };
}
