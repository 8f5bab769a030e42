import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, sortOrder, submissionColumn } from "../../grading/columns.js";
import { numpySum } from "../../metrics/sum.js";
import { pySplit } from "../../pycompat/pystr.js";

/**
 * The distinct lower-cased words of every row, in the given order. Upstream fills missing cells
 * with "" and then calls `.lower()` on each value, which only text survives: a number or boolean
 * left by pandas' type inference makes the submission fail.
 */
function wordSets(col: Column, order: ArrayLike<number>, who: "Submission" | "Answers"): Set<string>[] {
  const out: Set<string>[] = new Array(order.length);
  for (let k = 0; k < order.length; k++) {
    const cell = cellAt(col, order[k]);
    if (cell !== null && typeof cell !== "string") {
      const msg =
        `${who} column "PredictionString" must hold text, but data row ${order[k] + 1} holds ${cellText(cell)} ` +
        `(a column whose every value looks like a number is read as numbers; such predictions cannot be compared as words).`;
      if (who === "Answers") throw new Error(msg);
      throw new InvalidSubmissionError(msg);
    }
    out[k] = new Set(pySplit((cell ?? "").toLowerCase()));
  }
  return out;
}

/**
 * Sample-averaged Jaccard similarity of the lower-cased word sets of `PredictionString`, rows
 * matched by `id` (both sides sorted, then compared element-wise). A row where both sides have no
 * words scores 0, as scikit-learn's zero_division default does.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansText = answersColumn(ans, "PredictionString");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test id.`,
    );
  }
  const subText = submissionColumn(submission, "PredictionString");
  const subId = submissionColumn(submission, "id");
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, "id");
  const pred = wordSets(subText, subOrder, "Submission");
  const truth = wordSets(ansText, ansOrder, "Answers");
  const vocabulary = new Set<string>();
  for (const s of [...pred, ...truth]) for (const w of s) vocabulary.add(w);
  // scikit-learn sees one binary column per distinct word; with fewer than two columns the
  // input is no longer multilabel and sample averaging is refused.
  if (vocabulary.size < 2) {
    throw new InvalidSubmissionError(
      `Predictions and answers together contain ${vocabulary.size} distinct word(s); the word-level Jaccard ` +
        `score needs at least 2, so predict the answer text for each id.`,
    );
  }
  const scores = new Float64Array(pred.length);
  for (let k = 0; k < pred.length; k++) {
    let common = 0;
    for (const w of pred[k]) if (truth[k].has(w)) common++;
    const union = pred[k].size + truth[k].size - common;
    scores[k] = union === 0 ? 0 : common / union;
  }
  return numpySum(scores) / scores.length;
}
