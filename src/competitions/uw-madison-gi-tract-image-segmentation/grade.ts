import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, cellText, describeColumns, numericInOrder } from "../../grading/columns.js";
import { numpySum } from "../../metrics/sum.js";
import { hausdorffScore } from "./hausdorff-score.js";
import { type Runs, decodeRuns, overlap } from "./rle-runs.js";
import { type Mask, RaggedMasksError, groupVolumes } from "./volumes.js";

const DICE_WEIGHT = 0.4;
const HAUSDORFF_WEIGHT = 0.6;

/**
 * 0.4 × mean Dice over rows + 0.6 × (1 − mean normalised 3-D Hausdorff distance over case-days),
 * both means skipping pairs where prediction and truth are empty.
 *
 * Upstream pairs rows by position, not by id: row i of the submission is decoded with the image
 * size of answers row i and compared with it for Dice, and only the first min(rows) rows count
 * (so missing or extra rows are not refused, and a header-only submission scores NaN). The
 * Hausdorff volumes OR the classes of each slice id together and are paired by their sorted
 * order; the class column is never read.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const missing = ["id", "class", "predicted"].filter((c) => !submission.data.has(c));
  if (missing.length > 0) {
    throw new InvalidSubmissionError(
      `Submission must have the columns "id", "class" and "predicted" (missing ${missing.map((c) => `"${c}"`).join(", ")}); ` +
        `found ${describeColumns(submission)}.`,
    );
  }
  const heights = imageSizes(answersColumn(ans, "image_height"), "image_height");
  const widths = imageSizes(answersColumn(ans, "image_width"), "image_width");
  const ansIds = answerIds(answersColumn(ans, "id"));
  const ansRle = answersColumn(ans, "predicted");
  const answerMasks: Mask[] = [];
  for (let i = 0; i < ans.rowCount; i++) {
    const text = rleText(ansRle, i);
    if (text === undefined) throw new Error(`Answers row ${i + 1} holds a non-text "predicted" value.`);
    answerMasks.push({ runs: decodeRuns(text, heights[i], widths[i]), height: heights[i], width: widths[i] });
  }

  const used = Math.min(submission.rowCount, ans.rowCount);
  const subIdCol = submission.data.get("id")!;
  const subRle = submission.data.get("predicted")!;
  const subIds: string[] = new Array(used);
  const subMasks: Mask[] = new Array(used);
  for (let i = 0; i < used; i++) {
    const text = rleText(subRle, i);
    if (text === undefined) {
      throw new InvalidSubmissionError(
        `Column "predicted" must hold run-length encodings as text ("start length ..."), or be blank, ` +
          `but data row ${i + 1} holds ${cellText(cellAt(subRle, i))}.`,
      );
    }
    let runs: Runs;
    try {
      runs = decodeRuns(text, heights[i], widths[i]);
    } catch (e) {
      throw new InvalidSubmissionError(
        `Column "predicted" in data row ${i + 1} is not a valid run-length encoding for the ${heights[i]}×${widths[i]} image ` +
          `of answers row ${i + 1} (rows are matched by position): ${(e as Error).message}.`,
      );
    }
    subMasks[i] = { runs, height: heights[i], width: widths[i] };
    const id = cellAt(subIdCol, i);
    if (typeof id !== "string") {
      throw new InvalidSubmissionError(`Column "id" must hold slice ids like "case123_day20_slice_0001", but data row ${i + 1} holds ${cellText(id)}.`);
    }
    subIds[i] = id;
  }

  const dice = new Float64Array(used);
  for (let i = 0; i < used; i++) {
    const p = subMasks[i].runs;
    const t = answerMasks[i].runs;
    dice[i] = p.count === 0 && t.count === 0 ? NaN : (2 * overlap(p, t)) / (p.count + t.count);
  }

  let predVolumes;
  try {
    predVolumes = groupVolumes(subMasks, subIds);
  } catch (e) {
    if (!(e instanceof RaggedMasksError)) throw e;
    throw new InvalidSubmissionError(
      `Cannot stack the predicted masks: ${e.message}. Each row's mask takes the image size of the answers row at the same ` +
        `position, so keep the sample submission's row order.`,
    );
  }
  const trueVolumes = groupVolumes(answerMasks, ansIds);
  const pairs = Math.min(predVolumes.length, trueVolumes.length);
  const hausdorff = new Float64Array(pairs);
  for (let k = 0; k < pairs; k++) hausdorff[k] = hausdorffScore(predVolumes[k], trueVolumes[k]);

  return DICE_WEIGHT * nanMean(dice) + HAUSDORFF_WEIGHT * (1 - nanMean(hausdorff));
}

/** np.nanmean: NaN entries count as absent; NaN when none is left. */
function nanMean(values: Float64Array): number {
  const filled = values.map((v) => (Number.isNaN(v) ? 0 : v));
  const count = values.reduce((n, v) => (Number.isNaN(v) ? n : n + 1), 0);
  return numpySum(filled) / count;
}

/** A cell of "predicted" after fillna(""): text, "" for a blank, undefined for anything else. */
function rleText(col: Column, row: number): string | undefined {
  const cell = cellAt(col, row);
  if (cell === null) return "";
  return typeof cell === "string" ? cell : undefined;
}

/** The answers' image sizes as integers (astype(int) truncates). */
function imageSizes(col: Column, name: string): Int32Array {
  return Int32Array.from(numericInOrder(col, null, name), (v, i) => {
    if (!Number.isFinite(v) || v < 0) throw new Error(`Answers row ${i + 1} has no valid ${name}.`);
    return Math.trunc(v);
  });
}

function answerIds(col: Column): string[] {
  return Array.from({ length: col.values.length }, (_, i) => {
    const id = cellAt(col, i);
    if (typeof id !== "string") throw new Error(`Answers row ${i + 1} has no text id.`);
    return id;
  });
}
