import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Column, Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, compareStrings, numericInOrder, sortOrder } from "../../grading/columns.js";
import { spearman } from "../../metrics/correlation.js";
import { numpySum } from "../../metrics/sum.js";
import { CLASSES } from "./classes.js";

const ID = "qa_id";

/**
 * A submission column as the numbers Spearman's rho ranks. scipy ranks a column of text too
 * (pandas leaves it as Python strings, compared by code point), so text becomes its position in
 * sorted order, which ranks identically; a missing value anywhere makes the column's rho NaN.
 */
function rankable(col: Column, order: Uint32Array, name: string): Float64Array {
  if (col.kind === "object") return new Float64Array(order.length).fill(Number.NaN);
  if (col.kind !== "string") return numericInOrder(col, order, name);
  const texts = Array.from(order, (i) => col.values[i]);
  if (texts.some((t) => t === null)) return new Float64Array(order.length).fill(Number.NaN);
  const distinct = [...new Set(texts as string[])].sort(compareStrings);
  const position = new Map(distinct.map((t, i) => [t, i]));
  return Float64Array.from(texts, (t) => position.get(t as string)!);
}

/**
 * Mean over the 30 target columns of Spearman's rho between submission and answers. Both sides
 * are sorted by `qa_id` and then paired by position: upstream never checks that the ids agree.
 * A column whose prediction is constant or holds a missing value has rho NaN, so the score is NaN.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, ID);
  const subId = submission.data.get(ID);
  if (!subId) throw new InvalidSubmissionError(`Submission is missing the "${ID}" column.`);
  const missing = CLASSES.filter((c) => !submission.data.has(c));
  if (missing.length > 0) {
    throw new InvalidSubmissionError(
      `Submission is missing ${missing.length} target column(s): ${missing.map((c) => JSON.stringify(c)).join(", ")}.`,
    );
  }
  if (submission.columns.length !== CLASSES.length + 1) {
    const extra = submission.columns.filter((c) => c !== ID && !CLASSES.includes(c));
    throw new InvalidSubmissionError(
      `Submission has ${submission.columns.length - 1} columns besides "${ID}", expected exactly ${CLASSES.length}; ` +
        `remove ${extra.map((c) => JSON.stringify(c)).join(", ")}.`,
    );
  }
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per ${ID}.`,
    );
  }
  const subOrder = sortOrder(subId);
  const ansOrder = sortOrder(ansId);
  const rhos = CLASSES.map((c) =>
    spearman(rankable(submission.data.get(c)!, subOrder, c), numericInOrder(answersColumn(ans, c), ansOrder, c)),
  );
  return numpySum(rhos) / rhos.length;
}
