import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, submissionColumn } from "../../grading/columns.js";
import { pyFloat } from "../../pycompat/pynum.js";
import { type Counts, addPageCounts, f1FromCounts } from "./f1.js";

/**
 * F1 over all pages of predicted characters ("label x y" triples in `labels`) against the
 * answers' boxes ("label x y width height"). One row per test image_id; blank labels predict
 * nothing on that page.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test image_id.`,
    );
  }
  const subId = submissionColumn(submission, "image_id");
  const subLabels = predictionTexts(submissionColumn(submission, "labels"));
  const ansId = answersColumn(ans, "image_id");
  const ansLabels = answersColumn(ans, "labels");
  if (ansLabels.kind !== "string" && !(ansLabels.kind === "float" && ansLabels.values.every(Number.isNaN))) {
    throw new Error('Answers must hold the "labels" column as text.');
  }
  const subOrder = alignToAnswers(subId, ansId, null, "image_id");
  const counts: Counts = { tp: 0, fp: 0, fn: 0 };
  for (let j = 0; j < ans.rowCount; j++) {
    const truth = ansLabels.kind === "string" ? ansLabels.values[j] : null;
    addPageCounts(counts, subLabels[subOrder[j]], truth);
  }
  return f1FromCounts(counts);
}

/**
 * The labels cells, checked as upstream does: each non-blank cell must be text that splits on
 * single spaces into "label x y" triples whose x and y Python's float() accepts.
 */
function predictionTexts(col: Column): (string | null)[] {
  const out: (string | null)[] = new Array(col.values.length);
  for (let i = 0; i < col.values.length; i++) {
    const cell = cellAt(col, i);
    if (cell === null) {
      out[i] = null;
      continue;
    }
    if (typeof cell !== "string") {
      throw new InvalidSubmissionError(
        `Column "labels" must hold text like "U+003F 120 340 U+FF2F 200 410", but data row ${i + 1} holds ${cellText(cell)}.`,
      );
    }
    const fields = cell.split(" ");
    if (fields.length % 3 !== 0) {
      throw new InvalidSubmissionError(
        `Column "labels" in data row ${i + 1} has ${fields.length} space-separated fields; expected "label x y" triples ` +
          `separated by single spaces: ${cellText(cell)}.`,
      );
    }
    for (let k = 0; k < fields.length; k += 3) {
      for (const token of [fields[k + 1], fields[k + 2]]) {
        if (pyFloat(token) === null) {
          throw new InvalidSubmissionError(
            `Column "labels" in data row ${i + 1}: coordinate ${cellText(token)} of character ${k / 3 + 1} is not a number.`,
          );
        }
      }
    }
    out[i] = cell;
  }
  return out;
}
