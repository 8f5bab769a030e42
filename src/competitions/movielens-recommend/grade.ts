import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { cellAt, type Column, type Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, submissionColumn } from "../../grading/columns.js";
import { meanAveragePrecisionAtKOf } from "../../metrics/map-at-k.js";

/** Only the first K movies of each list are scored. */
export const K = 10;

const MOVIE_ID = /^\d+$/;

/**
 * The movie ids in one cell of a `movies` column: text split on whitespace, a lone number read
 * as one id, an empty cell as an empty list. Ids are compared as written without leading zeros.
 */
function movieList(col: Column, row: number, ids: Column, what: string): string[] {
  const bad = (shown: string) =>
    new InvalidSubmissionError(
      `Column "movies" must hold movie ids separated by spaces, but ${what} data row ${row + 1} ` +
        `(userId ${cellText(cellAt(ids, row))}) holds ${shown}.`,
    );
  const cell = cellAt(col, row);
  if (cell === null) return [];
  if (typeof cell === "number" || typeof cell === "bigint") {
    if (typeof cell === "number" && !(Number.isInteger(cell) && cell >= 0)) throw bad(cellText(cell));
    return [cell.toString()];
  }
  if (typeof cell !== "string") throw bad(cellText(cell));
  const tokens = cell.trim() === "" ? [] : cell.trim().split(/\s+/);
  for (const t of tokens) if (!MOVIE_ID.test(t)) throw bad(JSON.stringify(t));
  return tokens.map((t) => t.replace(/^0+(?=\d)/, ""));
}

/**
 * MAP@10 of the recommended movie lists, one row per target user matched by `userId`: for each
 * user, the precision at every rank (of the first ten) that holds a movie the user rated in the
 * held-out period, summed and divided by min(number of such movies, 10); then the mean over
 * users. A movie repeated in a list counts only where it first appears.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "userId");
  const ansMovies = answersColumn(ans, "movies");
  const subId = submissionColumn(submission, "userId");
  const subMovies = submissionColumn(submission, "movies");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per target user.`,
    );
  }
  const subOrder = alignToAnswers(subId, ansId, null, "userId");
  // Every list is read before scoring, so a malformed row anywhere is reported, not just in the first K.
  const predicted = Array.from(subOrder, (row) => movieList(subMovies, row, subId, "submission"));
  return meanAveragePrecisionAtKOf(
    ans.rowCount,
    K,
    (j) => new Set(movieList(ansMovies, j, ansId, "answers")),
    (j) => predicted[j],
  );
}
