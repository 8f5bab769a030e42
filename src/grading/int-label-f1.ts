/**
 * Upstream's grader for competitions whose labels are integer class ids (Herbarium 2020–2022,
 * iWildCam 2019): macro F1 after Python's int() on every label, rows matched by id.
 */
import type { Answers } from "../core/competition.js";
import { InvalidSubmissionError } from "../core/errors.js";
import { cellAt, type Column, type Table } from "../core/table.js";
import { pyInt } from "../pycompat/pynum.js";
import { f1 } from "../metrics/fbeta.js";
import type { Label } from "../metrics/labels.js";
import { requireTable } from "./answers.js";
import { alignToAnswers, answersColumn, cellText, identityOrder, submissionColumn } from "./columns.js";

/** The id and label columns, and what a label is called in messages ("category id"). */
export interface IntLabelColumns {
  id: string;
  target: string;
  noun: string;
}

type Fail = (row: number, what: string) => never;

/**
 * Macro F1 of the predicted labels, rows matched by id. Labels pass through Python's int() as
 * upstream's do, so a float prediction is truncated toward zero (3.9 counts as class 3) and text
 * such as "3" is parsed; a missing value, infinity or other text is refused.
 */
export function macroF1OfIntLabels(submission: Table, answers: Answers, cols: IntLabelColumns): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, cols.id);
  const ansLabel = answersColumn(ans, cols.target);
  const subId = submissionColumn(submission, cols.id);
  const subLabel = submissionColumn(submission, cols.target);
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test "${cols.id}".`,
    );
  }
  // F1 counts do not depend on row order, so the answers stay in file order.
  const subOrder = alignToAnswers(subId, ansId, null, cols.id);
  const yTrue = intLabels(ansLabel, identityOrder(ans.rowCount), (row, what) => {
    throw new Error(`Answers "${cols.target}" data row ${row + 1} is not an integer ${cols.noun} (${what}).`);
  });
  const yPred = intLabels(subLabel, subOrder, (row, what) => {
    throw new InvalidSubmissionError(
      `Column "${cols.target}" must hold integer ${cols.noun}s, but data row ${row + 1} (${cols.id} ${cellText(cellAt(subId, row))}) holds ${what}.`,
    );
  });
  return f1(yTrue, yPred, { average: "macro" });
}

/** Python's `int(value)` for each row in `order`; `fail` reports a value int() or scikit-learn refuses. */
function intLabels(col: Column, order: ArrayLike<number>, fail: Fail): Label[] {
  const out: Label[] = new Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const row = order[i];
    switch (col.kind) {
      case "int":
      case "bool":
        out[i] = col.values[row];
        break;
      case "float": {
        const v = col.values[row];
        if (Number.isNaN(v)) fail(row, "a missing value");
        if (!Number.isFinite(v)) fail(row, cellText(v));
        // int(-0.5) is 0, while Math.trunc gives -0, which messages would print as "-0".
        out[i] = Math.trunc(v) + 0;
        break;
      }
      case "bigint":
        out[i] = col.values[row];
        break;
      case "object": {
        const v = col.values[row];
        if (v === null) fail(row, "a missing value");
        out[i] = v ? 1 : 0;
        break;
      }
      case "string": {
        const v = col.values[row];
        if (v === null) fail(row, "a missing value");
        const parsed = pyInt(v);
        if (parsed === null) fail(row, cellText(v));
        const asNumber = Number(parsed);
        out[i] = Number.isSafeInteger(asNumber) ? asNumber : parsed;
        break;
      }
    }
  }
  requireNumpyIntegers(out, order, fail);
  return out;
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;
const TWO_63 = 2 ** 63;

/**
 * numpy stores Python ints as int64, or as uint64 when every one is in [2^63, 2^64); any other
 * mix beyond int64 becomes float64 or object, which scikit-learn refuses as class labels.
 */
function requireNumpyIntegers(labels: Label[], order: ArrayLike<number>, fail: Fail): void {
  let firstBeyond = -1;
  let allUnsigned = true;
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i] as number | bigint;
    if (typeof label === "number" && label >= -TWO_63 && label < TWO_63) {
      allUnsigned = false;
      continue;
    }
    const v = BigInt(label);
    const inInt64 = v >= INT64_MIN && v <= INT64_MAX;
    if (!inInt64 && firstBeyond < 0) firstBeyond = i;
    if (inInt64 || v > UINT64_MAX) allUnsigned = false;
  }
  if (firstBeyond >= 0 && !allUnsigned) {
    fail(order[firstBeyond], `${String(labels[firstBeyond])}, beyond the 64-bit integer range`);
  }
}
