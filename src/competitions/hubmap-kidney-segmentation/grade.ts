import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, requireSameIdSet, sortOrder, submissionColumn } from "../../grading/columns.js";
import { diceFromCounts } from "../../metrics/dice.js";
import { RleError, type RleRuns, rleRuns, runsArea, runsOverlap } from "../../metrics/rle.js";
import { numpySum } from "../../metrics/sum.js";

/**
 * Mean Dice over the test images, each mask given as column-major run-length text in `predicted`
 * and sized by the answers' width_pixels × height_pixels. An image empty in both scores 1.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansEncoding = answersColumn(ans, "encoding");
  const widths = answersColumn(ans, "width_pixels");
  const heights = answersColumn(ans, "height_pixels");
  const subId = submissionColumn(submission, "id");
  const predicted = submissionColumn(submission, "predicted");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test image id.`,
    );
  }
  requireSameIdSet(subId, ansId, "id");
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, "id");

  const n = ans.rowCount;
  const scores = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const a = ansOrder[k];
    const s = subOrder[k];
    const size = dimension(heights, a, "height_pixels") * dimension(widths, a, "width_pixels");
    let pred: RleRuns;
    try {
      pred = rleRuns(predictedText(predicted, s), size);
    } catch (e) {
      if (!(e instanceof RleError)) throw e;
      throw new InvalidSubmissionError(
        `Column "predicted" of data row ${s + 1} (id ${cellText(cellAt(subId, s))}) is not a valid run-length encoding: ${e.message}.`,
      );
    }
    const truth = rleRuns(answerText(ansEncoding, a), size);
    scores[k] = diceFromCounts(runsOverlap(pred, truth), runsArea(pred), runsArea(truth), 1);
  }
  // Upstream averages in id order with numpy.
  return numpySum(scores) / n;
}

/**
 * The RLE text of a prediction. Upstream fills missing cells with "" and then insists on text,
 * so a column pandas reads as numbers (a lone "5", or numbers mixed with gaps) cannot be graded.
 */
function predictedText(col: Column, row: number): string {
  if (col.kind === "string") return col.values[row] ?? "";
  const cell = cellAt(col, row);
  if (cell === null) return "";
  throw new InvalidSubmissionError(
    `Column "predicted" must hold run-length text ("start length start length ..."), but data row ${row + 1} holds ` +
      `${cellText(cell)}, which the CSV reader takes for a ${typeof cell === "boolean" ? "boolean" : "number"}; ` +
      `write an empty cell for an empty mask.`,
  );
}

// Upstream fills only the predictions: an answer row without an encoding breaks every grading.
function answerText(col: Column, row: number): string {
  const cell = cellAt(col, row);
  if (typeof cell !== "string") {
    throw new Error(`Answers row ${row + 1} has ${cellText(cell)} as its "encoding"; upstream's grader cannot decode it, so no submission can be scored.`);
  }
  return cell;
}

function dimension(col: Column, row: number, name: string): number {
  const cell = cellAt(col, row);
  if (col.kind !== "int" || typeof cell !== "number" || cell < 0) {
    throw new Error(`Answers row ${row + 1} has ${cellText(cell)} as "${name}"; expected a whole number of pixels.`);
  }
  return cell;
}
