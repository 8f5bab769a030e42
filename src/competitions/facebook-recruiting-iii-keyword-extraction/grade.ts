import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, submissionColumn } from "../../grading/columns.js";
import { pySplit } from "../../pycompat/pystr.js";

/**
 * Tag lists as upstream reads them: missing cells become "" and then pandas' `.str.split()`.
 * That accessor refuses a column pandas parsed as numbers or booleans (an all-missing column
 * is fine, since filling it with "" turns it into text).
 */
function tagLists(col: Column, who: "Submission" | "Answers"): string[][] {
  if (col.kind === "string") return col.values.map((v) => (v === null ? [] : pySplit(v)));
  if (col.kind === "float" && col.values.every((v) => Number.isNaN(v))) return Array.from(col.values, () => []);
  const first = Array.from({ length: col.values.length }, (_, i) => i).find((i) => cellAt(col, i) !== null) ?? 0;
  const message =
    `${who} column "Tags" must hold space-separated tags as text, but it was read as ` +
    `${col.kind === "object" || col.kind === "bool" ? "booleans" : "numbers"} (e.g. data row ${first + 1} holds ` +
    `${cellText(cellAt(col, first))}); upstream's grader cannot split such a column. Write tags such as "c# .net".`;
  if (who === "Answers") throw new Error(message);
  throw new InvalidSubmissionError(message);
}

/**
 * Micro-averaged F1 of the predicted tag sets, rows matched by `Id`. Only tags occurring in the
 * answers are known to upstream's binarizer, so other predicted tags are silently ignored; a tag
 * repeated within a row counts once.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "Id");
  const ansTags = answersColumn(ans, "Tags");
  const subId = submissionColumn(submission, "Id");
  const subTags = submissionColumn(submission, "Tags");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test "Id".`,
    );
  }
  const order = alignToAnswers(subId, ansId, null, "Id");
  const truth = tagLists(ansTags, "Answers");
  const predicted = tagLists(subTags, "Submission");

  const classes = new Set<string>();
  for (const row of truth) for (const t of row) classes.add(t);
  let tp = 0;
  let trueCount = 0;
  let predCount = 0;
  for (let i = 0; i < truth.length; i++) {
    const t = new Set(truth[i]);
    const p = new Set(predicted[order[i]].filter((x) => classes.has(x)));
    trueCount += t.size;
    predCount += p.size;
    for (const x of p) if (t.has(x)) tp++;
  }
  const denominator = trueCount + predCount;
  // scikit-learn's zero_division default scores an undefined F1 as 0.
  return denominator === 0 ? 0 : (2 * tp) / denominator;
}
