import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Column, Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, describeColumns, numericInOrder, sortOrder } from "../../grading/columns.js";
import { pyInt } from "../../pycompat/pynum.js";
import { accuracy } from "../../metrics/accuracy.js";
import { pySplit } from "../../pycompat/pystr.js";

/**
 * Top-1 classification error: 1 − accuracy of the first category id in each `predicted` cell,
 * rows matched by `id`. A whole-number column counts as is; a text column must start every cell
 * with an integer (Kaggle's "top-5" format, e.g. "12 7 3"). Anything else is refused, including
 * a column pandas reads as floats ("5.0", or integers with a gap), because upstream only accepts
 * Python ints and strings there.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansPred = answersColumn(ans, "predicted");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test image id.`,
    );
  }
  const subId = submission.data.get("id");
  const subPred = submission.data.get("predicted");
  if (!subId || !subPred) {
    throw new InvalidSubmissionError(`Submission must have "id" and "predicted" columns; found ${describeColumns(submission)}.`);
  }
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, "id");
  const firstLabels = firstCategoryIds(subPred);
  const truth = numericInOrder(ansPred, ansOrder, "predicted");
  const yTrue = Array.from(truth, Math.trunc);
  const yPred = Array.from(subOrder, (row) => firstLabels[row]);
  return 1 - accuracy(yTrue, yPred);
}

/** The first predicted category id of every row, as upstream's int() would read it. */
function firstCategoryIds(col: Column): number[] {
  const n = col.values.length;
  const out: number[] = new Array(n);
  switch (col.kind) {
    case "int":
    case "bool":
      // A bool is a Python int, so True/False count as categories 1/0.
      for (let i = 0; i < n; i++) out[i] = col.values[i];
      return out;
    case "bigint":
      for (let i = 0; i < n; i++) out[i] = Number(col.values[i]);
      return out;
    case "float":
      throw new InvalidSubmissionError(
        `Column "predicted" must hold whole category ids (or space-separated ids as text), but it was read as ` +
          `decimal numbers (first value ${cellText(col.values[0])}); write integers like 12, with no empty cells.`,
      );
    case "object":
    case "string":
      for (let i = 0; i < n; i++) {
        const cell = col.values[i];
        if (typeof cell === "boolean") {
          out[i] = cell ? 1 : 0;
          continue;
        }
        if (cell === null) {
          throw new InvalidSubmissionError(`Column "predicted" is empty in data row ${i + 1}; every row needs a category id.`);
        }
        const token = pySplit(cell)[0];
        const id = token === undefined ? null : pyInt(token);
        if (id === null) {
          throw new InvalidSubmissionError(
            `Column "predicted" must start with an integer category id, but data row ${i + 1} holds ${cellText(cell)}.`,
          );
        }
        out[i] = Number(id);
      }
      return out;
  }
}
