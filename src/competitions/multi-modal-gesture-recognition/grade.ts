import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Column, Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, submissionColumn } from "../../grading/columns.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { pyInt } from "../../pycompat/pynum.js";
import { levenshteinSeq } from "../../metrics/levenshtein.js";
import { pySplit } from "../../pycompat/pystr.js";

/** 2**61 - 1, the modulus of CPython's hash of an int. */
const HASH_MODULUS = (1n << 61n) - 1n;

/**
 * The symbol a gesture number becomes inside the edit distance. Upstream parses tokens with
 * int() and python-Levenshtein compares list items by their Python hash (-1 kept apart), so
 * numbers congruent modulo 2**61 - 1 count as the same gesture; null when int() would fail.
 */
function gestureSymbol(token: string): string | null {
  const value = pyInt(token);
  if (value === null) return null;
  if (value === -1n) return "minus-one";
  // CPython hashes -n as -hash(n); BigInt's % truncates toward zero, giving the same sign.
  let hash = value % HASH_MODULUS;
  if (hash === -1n) hash = -2n;
  return hash.toString();
}

/** A Sequence cell as str(), split on whitespace, each part read as a gesture; null at the first unparsable part. */
function gestures(col: Column, row: number): { symbols: string[] } | { bad: string; text: string } {
  const text = pyStrAt(col, row);
  const symbols: string[] = [];
  for (const token of pySplit(text)) {
    const symbol = gestureSymbol(token);
    if (symbol === null) return { bad: token, text };
    symbols.push(symbol);
  }
  return { symbols };
}

/**
 * Sum of per-row Levenshtein distances between predicted and true gesture lists, divided by the
 * total number of true gestures; rows matched by `Id`. Every Sequence must be integers separated
 * by spaces, so an empty cell (read as NaN, i.e. the text "nan") makes the submission invalid.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "Id");
  const ansSeq = answersColumn(ans, "Sequence");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per Id.`,
    );
  }
  const subId = submissionColumn(submission, "Id");
  const subSeq = submissionColumn(submission, "Sequence");
  const subOrder = alignToAnswers(subId, ansId, null, "Id");
  const truth: string[][] = [];
  for (let k = 0; k < ans.rowCount; k++) {
    const parsed = gestures(ansSeq, k);
    if (!("symbols" in parsed)) throw new Error(`Answers hold an unparsable Sequence at data row ${k + 1}: ${cellText(parsed.text)}.`);
    truth.push(parsed.symbols);
  }
  let distances = 0;
  let totalGestures = 0;
  for (let k = 0; k < ans.rowCount; k++) {
    const row = subOrder[k];
    const parsed = gestures(subSeq, row);
    if (!("symbols" in parsed)) {
      throw new InvalidSubmissionError(
        `Column "Sequence" must hold gesture numbers (integers) separated by spaces, but data row ${row + 1} holds ` +
          `${cellText(parsed.text)}${parsed.text === "nan" ? " (an empty cell reads as NaN)" : ""}, ` +
          `where ${cellText(parsed.bad)} is not an integer.`,
      );
    }
    distances += levenshteinSeq(truth[k], parsed.symbols);
    totalGestures += truth[k].length;
  }
  // Both sums are integers, so this is numpy's int64 / int true division.
  return distances / totalGestures;
}
