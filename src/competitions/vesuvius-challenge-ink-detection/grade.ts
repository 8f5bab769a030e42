import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { cellText, cellsEqual, describeColumns } from "../../grading/columns.js";
import { RleError, type RleRuns, rleRuns, runsArea, runsOverlap } from "../../metrics/rle.js";
import { numpySum } from "../../metrics/sum.js";
import { inkF05 } from "./f05.js";

const ANSWER_COLUMNS = ["Id", "Predicted", "width", "height"];

/**
 * Mean F0.5 of the ink masks, one row per fragment, run-length text in `Predicted` sized by the
 * answers' width × height. Rows are matched by position: row i must carry the answers' i-th Id.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  if (ans.columns.length !== ANSWER_COLUMNS.length || !ANSWER_COLUMNS.every((c) => ans.data.has(c))) {
    throw new Error(`Answers must have exactly the columns ${ANSWER_COLUMNS.join(", ")}; found ${describeColumns(ans)}.`);
  }
  const n = ans.rowCount;
  if (submission.rowCount !== n) {
    throw new InvalidSubmissionError(`Submission has ${submission.rowCount} rows but the answers have ${n}; submit one row per fragment.`);
  }
  const ansId = ans.data.get("Id") as Column;
  const ansRle = ans.data.get("Predicted") as Column;
  const widths = ans.data.get("width") as Column;
  const heights = ans.data.get("height") as Column;

  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // Upstream checks the columns row by row, so a submission with no rows is never checked.
    const { subId, predicted } = submissionColumns(submission);
    const id = cellAt(subId, i);
    if (!cellsEqual(id, cellAt(ansId, i))) {
      throw new InvalidSubmissionError(
        `Data row ${i + 1} has Id ${cellText(id)} but the answers expect ${cellText(cellAt(ansId, i))} there; ` +
          `rows are matched by position, so keep the sample submission's rows in its order.`,
      );
    }
    const text = cellAt(predicted, i);
    // Only a cell pandas keeps as text is graded: a lone number or an empty cell is refused.
    if (predicted.kind !== "string" || typeof text !== "string") {
      throw new InvalidSubmissionError(
        `Column "Predicted" of data row ${i + 1} must be run-length text ("start length start length ..."), but it holds ` +
          `${cellText(text)}${text === null ? "" : ", which the CSV reader takes for a number"}.`,
      );
    }
    // Upstream decodes both masks transposed and transposes them back, which leaves each in the
    // RLE's own (row-major) pixel order: only width × height matters, and pixels compare in place.
    const size = dimension(widths, i, "width") * dimension(heights, i, "height");
    let pred: RleRuns;
    try {
      pred = rleRuns(text, size);
    } catch (e) {
      if (!(e instanceof RleError)) throw e;
      throw new InvalidSubmissionError(`Column "Predicted" of data row ${i + 1} is not a valid run-length encoding: ${e.message}.`);
    }
    const truth = rleRuns(answerText(ansRle, i), size);
    scores[i] = inkF05(runsOverlap(pred, truth), runsArea(pred), runsArea(truth));
  }
  return numpySum(scores) / n;
}

// Upstream requires exactly two fields per row, Id and Predicted among them.
function submissionColumns(submission: Table): { subId: Column; predicted: Column } {
  const subId = submission.data.get("Id");
  const predicted = submission.data.get("Predicted");
  if (submission.columns.length !== 2 || !subId || !predicted) {
    throw new InvalidSubmissionError(`Submission must have exactly the two columns "Id" and "Predicted"; found ${describeColumns(submission)}.`);
  }
  return { subId, predicted };
}

function answerText(col: Column, row: number): string {
  const cell = cellAt(col, row);
  if (typeof cell !== "string") throw new Error(`Answers row ${row + 1} has ${cellText(cell)} as "Predicted"; expected run-length text.`);
  return cell;
}

// Upstream takes int() of the answers' size, so a float size is truncated.
function dimension(col: Column, row: number, name: string): number {
  const cell = cellAt(col, row);
  const value = typeof cell === "number" ? Math.trunc(cell) : typeof cell === "bigint" ? Number(cell) : NaN;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`Answers row ${row + 1} has ${cellText(cell)} as "${name}"; expected a whole number of pixels.`);
  }
  return value;
}
