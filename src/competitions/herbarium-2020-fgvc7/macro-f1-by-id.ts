/**
 * The grader shared by the Herbarium 2020, 2021 and 2022 competitions: macro-averaged F1 of the
 * predicted category id, rows matched by `Id`.
 */
import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Column, Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, identityOrder, submissionColumn } from "../../grading/columns.js";
import { pyStrip } from "../../prepare/pystr.js";
import { f1 } from "../../metrics/fbeta.js";
import type { Label } from "../../metrics/labels.js";

const INT64_LIMIT = 2n ** 63n;
// Python's int() on text: optional sign, ASCII digits with single underscores between them.
const PY_INT_TEXT = /^[+-]?\d+(_\d+)*$/;

/**
 * Macro F1 over every category id seen in the answers or the predictions. Predictions go through
 * Python's int() as upstream's do: floats are truncated toward zero (12.9 counts as 12), and
 * text such as "12" is parsed; a missing value, infinity or other text makes the submission invalid.
 */
export function gradeMacroF1ById(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test "Id".`,
    );
  }
  const subId = submissionColumn(submission, "Id");
  const subPred = submissionColumn(submission, "Predicted");
  const ansId = answersColumn(ans, "Id");
  const ansPred = answersColumn(ans, "Predicted");
  // F1 counts do not depend on row order, so the answers stay in file order.
  const subOrder = alignToAnswers(subId, ansId, null, "Id");
  const yTrue = pyInts(ansPred, identityOrder(ans.rowCount), (row, why) => {
    throw new Error(`Answers "Predicted" row ${row + 1} is not an integer category id (${why}).`);
  });
  const yPred = pyInts(subPred, subOrder, (row, why) => {
    throw new InvalidSubmissionError(
      `Column "Predicted" must hold integer category ids, but data row ${row + 1} holds ${why}.`,
    );
  });
  return f1(yTrue, yPred, { average: "macro" });
}

/** Python's `int(value)` for each row in `order`; `fail(row, what)` reports a value int() refuses. */
function pyInts(col: Column, order: ArrayLike<number>, fail: (row: number, what: string) => never): Label[] {
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
        out[i] = int64Label(BigInt(Math.trunc(v)), row, cellText(v), fail);
        break;
      }
      case "bigint":
        out[i] = int64Label(col.values[row], row, cellText(col.values[row]), fail);
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
        const text = pyStrip(v);
        if (!PY_INT_TEXT.test(text)) fail(row, cellText(v));
        out[i] = int64Label(BigInt(text.replace(/_/g, "")), row, cellText(v), fail);
        break;
      }
    }
  }
  return out;
}

// Python ints beyond int64 turn the label array into numpy objects, which scikit-learn cannot classify.
function int64Label(v: bigint, row: number, shown: string, fail: (row: number, what: string) => never): Label {
  if (v >= INT64_LIMIT || v < -INT64_LIMIT) fail(row, `${shown}, beyond the 64-bit integer range`);
  const asNumber = Number(v);
  return Number.isSafeInteger(asNumber) ? asNumber : v;
}
