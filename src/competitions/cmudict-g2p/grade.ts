import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, submissionColumn } from "../../grading/columns.js";
import { phonemeErrorRate, phonemeTokens } from "../../metrics/phoneme-error-rate.js";

/**
 * The phonemes of one cell. An empty cell is a word given no phonemes (all of its reference
 * phonemes count as deletions); a number or a boolean is not a pronunciation.
 */
function tokensAt(col: Column, row: number, side: "submission" | "answers"): string[] {
  const cell = cellAt(col, row);
  if (typeof cell === "string") return phonemeTokens(cell);
  if (cell === null && side === "submission") return [];
  if (side === "answers") throw new Error(`Answers hold a non-text pronunciation at data row ${row + 1}: ${cellText(cell)}.`);
  throw new InvalidSubmissionError(
    `Column "phonemes" must hold space-separated phonemes such as "K AE T", but data row ${row + 1} holds ${cellText(cell)}.`,
  );
}

/** Phoneme error rate of the predicted pronunciations (token edit distance over reference length), rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansPhonemes = answersColumn(ans, "phonemes");
  const subId = submissionColumn(submission, "id");
  const subPhonemes = submissionColumn(submission, "phonemes");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test id.`,
    );
  }
  const subOrder = alignToAnswers(subId, ansId, null, "id");
  const references: string[][] = [];
  const hypotheses: string[][] = [];
  for (let k = 0; k < ans.rowCount; k++) {
    references.push(tokensAt(ansPhonemes, k, "answers"));
    hypotheses.push(tokensAt(subPhonemes, subOrder[k], "submission"));
  }
  return phonemeErrorRate(references, hypotheses);
}
