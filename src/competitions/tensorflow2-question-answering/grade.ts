import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { cellAt, type Column, type Table } from "../../core/table.js";
import { cellText, submissionColumn } from "../../grading/columns.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { f1 } from "../../metrics/fbeta.js";
import { exampleId, questionAnswers, type QuestionAnswers } from "./gold-answers.js";
import { parsePrediction } from "./prediction.js";

/** A cell after upstream's `fillna("")` and `astype(str)`. */
function textAt(col: Column, row: number): string {
  return cellAt(col, row) === null ? "" : pyStrAt(col, row);
}

function requireJsonLines(answers: Answers): unknown[] {
  if (!Array.isArray(answers)) throw new Error("this grader expects the JSON-lines answers (test.jsonl), but got a table");
  return answers;
}

/**
 * Upstream's "micro F1" over the `<example_id>_long` and `<example_id>_short` rows. Each row
 * becomes one binary decision: predicted = the PredictionString is not blank; true = the
 * prediction is among the accepted answers, or (for a blank one) some answer exists. scikit-learn's
 * micro average over both classes then equals the fraction of rows where the two agree, so a
 * blank prediction for a question without an answer counts as right and a wrong span as a miss.
 */
export function grade(submission: Table, answers: Answers): number {
  const records = requireJsonLines(answers);
  const idCol = submissionColumn(submission, "example_id");
  const predCol = submissionColumn(submission, "PredictionString");
  const n = submission.rowCount;
  if (n !== 2 * records.length) {
    throw new InvalidSubmissionError(
      `Submission has ${n} rows but needs ${2 * records.length}: one "<example_id>_long" and one "<example_id>_short" row ` +
        `for each of the ${records.length} test questions.`,
    );
  }
  // A later record with the same id replaces an earlier one, as in upstream's dict.
  const gold = new Map<string, QuestionAnswers>();
  const expected = new Set<string>();
  records.forEach((record, i) => {
    const id = exampleId(record, i + 1);
    gold.set(id, questionAnswers(record, i + 1));
    expected.add(`${id}_long`);
    expected.add(`${id}_short`);
  });
  requireExpectedIds(idCol, expected);

  const yTrue = new Uint8Array(n);
  const yPred = new Uint8Array(n);
  for (let row = 0; row < n; row++) {
    const id = textAt(idCol, row);
    const pred = parsePrediction(textAt(predCol, row));
    if ("error" in pred) {
      throw new InvalidSubmissionError(`Column "PredictionString", data row ${row + 1} (example_id ${cellText(id)}): ${pred.error}.`);
    }
    const long = id.endsWith("_long");
    // Upstream cuts the id at the first "_long" / "_short", which for the real (numeric) ids is the suffix.
    const question = gold.get(id.split(long ? "_long" : "_short")[0]);
    if (question === undefined) {
      throw new InvalidSubmissionError(`example_id ${cellText(id)} (data row ${row + 1}) cannot be matched to a test question.`);
    }
    const accepted = long ? question.long : question.short;
    yPred[row] = pred.blank ? 0 : 1;
    yTrue[row] = (pred.blank ? accepted.any : accepted.keys.has(pred.key)) ? 1 : 0;
  }
  return f1(yTrue, yPred, { average: "micro" });
}

/** Every row's example_id must be one of the expected ids, and each expected id must appear exactly once. */
function requireExpectedIds(idCol: Column, expected: Set<string>): void {
  const seen = new Set<string>();
  let unknown = -1;
  let repeated = -1;
  for (let row = 0; row < idCol.values.length; row++) {
    const id = textAt(idCol, row);
    if (!expected.has(id)) {
      if (unknown < 0) unknown = row;
    } else if (seen.has(id)) {
      if (repeated < 0) repeated = row;
    } else {
      seen.add(id);
    }
  }
  if (unknown < 0 && repeated < 0 && seen.size === expected.size) return;
  const parts: string[] = [];
  if (unknown >= 0) parts.push(`data row ${unknown + 1} holds ${cellText(textAt(idCol, unknown))}, which is not a test question's "_long" or "_short" id`);
  if (repeated >= 0) parts.push(`data row ${repeated + 1} repeats ${cellText(textAt(idCol, repeated))}`);
  const missing = [...expected].find((id) => !seen.has(id));
  if (missing !== undefined) parts.push(`${expected.size - seen.size} expected id(s) are missing (e.g. ${cellText(missing)})`);
  throw new InvalidSubmissionError(
    `Submission "example_id" values do not match the test questions: ${parts.join("; ")}. ` +
      `Submit exactly one "<example_id>_long" and one "<example_id>_short" row per question, as in the sample submission.`,
  );
}
