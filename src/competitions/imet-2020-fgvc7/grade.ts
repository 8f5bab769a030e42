import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Column, Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, submissionColumn } from "../../grading/columns.js";
import { cellAt } from "../../core/table.js";
import { pySplit } from "../../pycompat/pystr.js";

/**
 * The attribute lists of a column as upstream reads them: missing cells become "", then
 * pandas' `.str.split()`. That accessor refuses a column pandas parsed as numbers or booleans,
 * and a column mixing numbers with gaps splits a number to NaN, which the binarizer cannot take.
 */
function attributeLists(col: Column, who: "Submission" | "Answers"): string[][] {
  if (col.kind === "string") return col.values.map((v) => (v === null ? [] : pySplit(v)));
  const allMissing = col.kind === "float" && col.values.every((v) => Number.isNaN(v));
  if (allMissing) return col.values.length === 0 ? [] : Array.from(col.values, () => []);
  const first = Array.from({ length: col.values.length }, (_, i) => i).find((i) => cellAt(col, i) !== null) ?? 0;
  const message =
    `${who} column "attribute_ids" must hold space-separated attribute ids as text, but it was read as ` +
    `${col.kind === "object" ? "booleans" : "numbers"} (e.g. data row ${first + 1} holds ${cellText(cellAt(col, first))}). ` +
    `pandas reads such a column when no row lists two or more ids, and upstream's grader cannot split it; ` +
    `predict at least two space-separated ids in some row (e.g. "231 1059").`;
  if (who === "Answers") throw new Error(message);
  throw new InvalidSubmissionError(message);
}

/**
 * Micro-averaged F1 of the predicted attribute sets, rows matched by `id`. Predicted attributes
 * that never occur in the answers are ignored (the binarizer only knows the answers' classes),
 * and an attribute repeated within a row counts once.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansAttrs = answersColumn(ans, "attribute_ids");
  const subId = submissionColumn(submission, "id");
  const subAttrs = submissionColumn(submission, "attribute_ids");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test image.`,
    );
  }
  const order = alignToAnswers(subId, ansId, null, "id");
  const truth = attributeLists(ansAttrs, "Answers");
  const predicted = attributeLists(subAttrs, "Submission");

  const classes = new Set<string>();
  for (const row of truth) {
    // An empty answers row would put NaN among the class names, which upstream cannot sort.
    if (row.length === 0) throw new Error('Answers hold a row without "attribute_ids".');
    for (const a of row) classes.add(a);
  }
  let tp = 0;
  let trueCount = 0;
  let predCount = 0;
  for (let i = 0; i < truth.length; i++) {
    const t = new Set(truth[i]);
    const p = new Set(predicted[order[i]].filter((a) => classes.has(a)));
    trueCount += t.size;
    predCount += p.size;
    for (const a of p) if (t.has(a)) tp++;
  }
  const denominator = trueCount + predCount;
  // scikit-learn's zero_division default scores an undefined F1 as 0.
  return denominator === 0 ? 0 : (2 * tp) / denominator;
}
