import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, describeColumns, sortOrder } from "../../grading/columns.js";
import { rleDecode } from "../../metrics/rle.js";
import { numpySum } from "../../metrics/sum.js";
import { iouPrecision } from "./iou-precision.js";

const HEIGHT = 101;
const WIDTH = 101;
const COLUMNS = ["id", "rle_mask"];

/**
 * Mean over test images of the IoU-threshold precision of the predicted salt mask. The
 * submission needs exactly the columns id and rle_mask, one row per test id, and text cells;
 * a blank rle_mask is an empty mask.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const missing = COLUMNS.filter((c) => !submission.data.has(c));
  const extra = submission.columns.filter((c) => !COLUMNS.includes(c));
  if (missing.length > 0 || extra.length > 0) {
    throw new InvalidSubmissionError(
      `Submission must have exactly the columns "id" and "rle_mask"; found ${describeColumns(submission)}.`,
    );
  }
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test id.`,
    );
  }
  const ansId = answersColumn(ans, "id");
  const ansRle = textCells(answersColumn(ans, "rle_mask"));
  if (!ansRle) throw new Error('Answers must hold the "rle_mask" column as text.');
  const subId = submission.data.get("id")!;
  requireText(subId, "id", "ids as in the sample submission");
  const subRle = requireText(submission.data.get("rle_mask")!, "rle_mask", `run-length encodings like "1 3 10 2", or blanks`);

  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, "id");
  const scores = new Float64Array(ans.rowCount);
  for (let k = 0; k < ansOrder.length; k++) {
    const row = subOrder[k];
    let pred: Uint8Array;
    try {
      pred = rleDecode(subRle[row], HEIGHT, WIDTH);
    } catch (e) {
      throw new InvalidSubmissionError(
        `Column "rle_mask" in data row ${row + 1} (id ${cellText(cellAt(subId, row))}) is not a valid ` +
          `run-length encoding of a ${HEIGHT}×${WIDTH} mask: ${(e as Error).message.replace(/^rleDecode: /, "").replace(/\.$/, "")}.`,
      );
    }
    scores[k] = iouPrecision(rleDecode(ansRle[ansOrder[k]], HEIGHT, WIDTH), pred);
  }
  // np.mean of no images is NaN.
  return ans.rowCount === 0 ? NaN : numpySum(scores) / ans.rowCount;
}

/** Cells after pandas' fillna(""): text as is, blanks as ""; null when some cell is not text. */
function textCells(col: Column): string[] | null {
  // pandas reads an all-blank column as float NaN, which fillna("") turns into text.
  if (col.kind === "float" && col.values.every((v) => Number.isNaN(v))) return Array.from(col.values, () => "");
  if (col.kind === "object" && col.values.every((v) => v === null)) return Array.from(col.values, () => "");
  if (col.kind !== "string") return null;
  return col.values.map((v) => v ?? "");
}

/** Upstream refuses any cell that is not text once blanks are filled (numbers, True/False). */
function requireText(col: Column, name: string, expected: string): string[] {
  const cells = textCells(col);
  if (cells) return cells;
  let row = 0;
  while (row < col.values.length && cellAt(col, row) === null) row++;
  throw new InvalidSubmissionError(
    `Column "${name}" must hold text (${expected}), but data row ${row + 1} holds ${cellText(cellAt(col, row))}.`,
  );
}
