import { InvalidSubmissionError } from "../../../core/errors.js";
import { cellAt, type Column, type Table } from "../../../core/table.js";
import { describeColumns } from "../../../grading/columns.js";
import { mae } from "../../../metrics/regression.js";
import { ID, TARGET } from "./data.js";

const FILE = "submission.csv";

/** How a cell reads in a message: text quoted, an empty cell named as such. */
function show(column: Column, row: number): string {
  const cell = cellAt(column, row);
  if (cell === null) return "empty";
  return typeof cell === "string" ? JSON.stringify(cell.length > 40 ? `${cell.slice(0, 37)}...` : cell) : String(cell);
}

/** An Id cell as a whole number, or null: text ids are accepted when they spell one (pandas reads "405" as 405). */
function wholeNumber(column: Column, row: number): number | null {
  const cell = cellAt(column, row);
  const value = typeof cell === "string" && /^\s*[+-]?\d+\s*$/.test(cell) ? Number(cell) : cell;
  return typeof value === "number" && Number.isInteger(value) ? value : null;
}

/** Where a data row sits, for messages: its 1-based number among the data rows (the header is line 1). */
function at(row: number): string {
  return `${FILE} data row ${row + 1} (line ${row + 2})`;
}

/**
 * Mean absolute error of the submission's MEDV against the hidden answers, rows matched by Id. Every test Id
 * must appear exactly once and every prediction must be a finite number; otherwise an InvalidSubmissionError
 * names the row, the column and what was expected. Columns other than Id and MEDV are ignored.
 */
export function gradeBostonHousing(submission: Table, answers: Table): number {
  for (const name of [ID, TARGET]) {
    if (!submission.data.has(name)) {
      throw new InvalidSubmissionError(`${FILE} must have the columns ${ID} and ${TARGET}; found ${describeColumns(submission)}`);
    }
  }
  const ids = submission.data.get(ID)!;
  const predictions = submission.data.get(TARGET)!;
  const answerIds = answers.data.get(ID)!.values as Float64Array;
  const answerValues = answers.data.get(TARGET)!.values as Float64Array;
  const answerRow = new Map<number, number>();
  answerIds.forEach((id, row) => answerRow.set(id, row));

  const predicted = new Float64Array(answers.rowCount);
  const seenOn = new Map<number, number>();
  for (let row = 0; row < submission.rowCount; row++) {
    const id = wholeNumber(ids, row);
    if (id === null) {
      throw new InvalidSubmissionError(`${at(row)}: ${ID} is ${show(ids, row)}, expected a whole number from test.csv`);
    }
    const target = answerRow.get(id);
    if (target === undefined) throw new InvalidSubmissionError(`${at(row)}: ${ID} ${id} is not a house of test.csv`);
    const first = seenOn.get(id);
    if (first !== undefined) throw new InvalidSubmissionError(`${at(row)}: ${ID} ${id} appears again (first on data row ${first + 1})`);
    seenOn.set(id, row);
    const value = cellAt(predictions, row);
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new InvalidSubmissionError(`${at(row)} (${ID} ${id}): ${TARGET} is ${show(predictions, row)}, expected a finite number`);
    }
    predicted[target] = value;
  }
  if (seenOn.size < answers.rowCount) {
    const missing = Array.from(answerIds).filter((id) => !seenOn.has(id));
    const shown = missing.slice(0, 5).join(", ") + (missing.length > 5 ? ", ..." : "");
    throw new InvalidSubmissionError(
      `${FILE} has no row for ${missing.length} of the ${answers.rowCount} houses of test.csv (${ID} ${shown}); give one row per test house`,
    );
  }
  return mae(answerValues, predicted);
}
