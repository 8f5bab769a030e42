import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, cellText, describeColumns, sortOrder } from "../../grading/columns.js";
import { diceFromCounts } from "../../metrics/dice.js";
import { RleError, type RleRuns, rleRuns, runsArea, runsOverlap } from "../../metrics/rle.js";

const ANSWER_COLUMNS = ["record_id", "encoded_pixels", "height", "width"];

/**
 * Global Dice over every pixel of every test record: masks are column-major run-length text in
 * `encoded_pixels` ("-" for an empty mask), sized by the answers' height × width. NaN when no
 * record has a contrail pixel in either the submission or the answers.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  if (ans.columns.length !== ANSWER_COLUMNS.length || !ANSWER_COLUMNS.every((c) => ans.data.has(c))) {
    throw new Error(`Answers must have exactly the columns ${ANSWER_COLUMNS.join(", ")}; found ${describeColumns(ans)}.`);
  }
  const subId = submission.data.get("record_id");
  const encoded = submission.data.get("encoded_pixels");
  if (!subId || !encoded) {
    throw new InvalidSubmissionError(`Submission must have the columns "record_id" and "encoded_pixels"; found ${describeColumns(submission)}.`);
  }
  const ansId = ans.data.get("record_id") as Column;
  const ansRle = ans.data.get("encoded_pixels") as Column;
  const heights = ans.data.get("height") as Column;
  const widths = ans.data.get("width") as Column;
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test record_id.`,
    );
  }
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, comparableIds(ansId, subId), ansOrder, "record_id");

  let overlap = 0;
  let predicted = 0;
  let truth = 0;
  for (let k = 0; k < ans.rowCount; k++) {
    const a = ansOrder[k];
    const s = subOrder[k];
    const size = dimension(heights, a, "height") * dimension(widths, a, "width");
    const truthRuns = rleRuns(maskText(ansRle, a, "answers"), size);
    let predRuns: RleRuns;
    try {
      predRuns = rleRuns(maskText(encoded, s, "submission"), size);
    } catch (e) {
      if (!(e instanceof RleError)) throw e;
      throw new InvalidSubmissionError(
        `Column "encoded_pixels" of data row ${s + 1} (record_id ${cellText(cellAt(subId, s))}) is not a valid run-length encoding: ${e.message}.`,
      );
    }
    overlap += runsOverlap(predRuns, truthRuns);
    predicted += runsArea(predRuns);
    truth += runsArea(truthRuns);
  }
  return diceFromCounts(overlap, predicted, truth);
}

/**
 * The answers' ids as upstream compares them with the submission's: numpy compares int64 with
 * float64 as floats, so ids written as floats match when they round to the same double.
 */
function comparableIds(ansId: Column, subId: Column): Column {
  if (subId.kind !== "float" || ansId.kind !== "bigint") return ansId;
  return { kind: "float", values: Float64Array.from(ansId.values, (v) => Number(v)) };
}

/**
 * A mask's RLE text. Upstream turns only the exact value "-" into an empty mask; an empty cell
 * (NaN to pandas) or a cell read as a number is not text, and its decoder refuses it.
 */
function maskText(col: Column, row: number, side: "submission" | "answers"): string {
  const cell = cellAt(col, row);
  if (col.kind === "string" && typeof cell === "string") return cell === "-" ? "" : cell;
  if (side === "answers") throw new Error(`Answers row ${row + 1} has ${cellText(cell)} as "encoded_pixels"; expected run-length text or "-".`);
  throw new InvalidSubmissionError(
    `Column "encoded_pixels" of data row ${row + 1} must be run-length text ("start length ...") or "-" for an empty mask, ` +
      `but it holds ${cellText(cell)}${cell === null ? "" : ", which the CSV reader takes for a number"}.`,
  );
}

function dimension(col: Column, row: number, name: string): number {
  const cell = cellAt(col, row);
  const value = typeof cell === "number" ? Math.trunc(cell) : NaN;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`Answers row ${row + 1} has ${cellText(cell)} as "${name}"; expected a whole number of pixels.`);
  }
  return value;
}
