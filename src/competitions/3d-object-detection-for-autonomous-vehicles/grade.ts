import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, compareStrings, sortOrder, submissionColumn } from "../../grading/columns.js";
import { numpySum } from "../../metrics/sum.js";
import { averagePrecision } from "./average-precision.js";
import { type Box3D, box3d, iou3d } from "./box3d.js";
import { type Boxes, parseBoxes } from "./boxes.js";

const ID = "Id";
const BOXES = "PredictionString";
/** The IoU thresholds of the competition's metric, 0.5 to 0.95 in steps of 0.05. */
const THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95];

/** The submitted PredictionStrings by data row; an empty cell is a sample without boxes. */
function submittedTexts(col: Column): string[] {
  if (col.kind === "string") return col.values.map((v) => v ?? "");
  // A column pandas reads as numbers or booleans reaches upstream's parser as non-text, which fails.
  for (let i = 0; i < col.values.length; i++) {
    const cell = cellAt(col, i);
    if (cell === null) continue;
    throw new InvalidSubmissionError(
      `Column "${BOXES}" must hold text (boxes as "confidence center_x center_y center_z width length height yaw class_name", ` +
        `or an empty cell), but data row ${i + 1} holds ${cellText(cell)}.`,
    );
  }
  return new Array<string>(col.values.length).fill("");
}

/** Boxes of one sample's class, as Box3D objects; a refused box fails the submission (or the answers). */
function classBoxes(boxes: Boxes, rows: number[], where: string, answers: boolean): Box3D[] {
  return rows.map((i) => {
    const box = box3d(boxes, i);
    if (typeof box !== "string") return box;
    const what = `${answers ? "Answers' " : ""}PredictionString of ${where}: box ${i + 1} (${boxes.name[i]}) ${box}.`;
    if (answers) throw new Error(what);
    throw new InvalidSubmissionError(what);
  });
}

/**
 * The sample's mean AP over its true classes at each threshold. As in upstream, only the classes
 * present in the sample's answers are scored: predicted boxes of any other class are ignored
 * (they are not even checked), and a class with true boxes but no prediction scores 0.
 */
function sampleMeanAps(gt: Boxes, pred: Boxes, where: string, answersWhere: string): Float64Array {
  const classes = [...new Set(gt.name)].sort(compareStrings);
  const aps = THRESHOLDS.map(() => new Float64Array(classes.length));
  classes.forEach((name, c) => {
    const predRows: number[] = [];
    for (let i = 0; i < pred.count; i++) if (pred.name[i] === name) predRows.push(i);
    if (predRows.length === 0) return;
    const gtRows: number[] = [];
    for (let i = 0; i < gt.count; i++) if (gt.name[i] === name) gtRows.push(i);
    const gtBoxes = classBoxes(gt, gtRows, answersWhere, true);
    const predBoxes = classBoxes(pred, predRows, where, false);
    const nan = predRows.findIndex((i) => Number.isNaN(pred.score[i]));
    // Upstream accepts this, but Python's sort leaves a NaN key wherever the comparisons its
    // algorithm happens to make put it: an artefact, not a ranking, so we refuse instead.
    if (nan >= 0 && predRows.length > 1) {
      throw new InvalidSubmissionError(
        `PredictionString of ${where}: box ${predRows[nan] + 1} (${name}) has a confidence of nan; boxes are ranked by ` +
          `confidence, so it must be a number.`,
      );
    }
    // Highest confidence first; ties keep string order, as Python's stable sort does.
    const ranked = predRows.map((_, k) => k);
    ranked.sort((a, b) => {
      const x = pred.score[predRows[a]];
      const y = pred.score[predRows[b]];
      return x > y ? -1 : x < y ? 1 : a - b;
    });
    const nGt = gtBoxes.length;
    const iou = new Float64Array(ranked.length * nGt);
    ranked.forEach((k, p) => {
      for (let g = 0; g < nGt; g++) iou[p * nGt + g] = iou3d(predBoxes[k], gtBoxes[g]);
    });
    THRESHOLDS.forEach((t, ti) => {
      aps[ti][c] = averagePrecision(iou, ranked.length, nGt, t);
    });
  });
  // np.mean of no classes is NaN, which then makes the whole score NaN, as upstream.
  return Float64Array.from(aps, (row) => numpySum(row) / row.length);
}

/**
 * Lyft 3D mAP: for each sample (rows matched by `Id`), the mean over its true classes of the
 * average precision of the predicted boxes, at each IoU threshold from 0.5 to 0.95; the score
 * is the mean over samples and thresholds. A box matches when its 3-D IoU with an unmatched true
 * box of its class exceeds the threshold, boxes taken in order of decreasing confidence.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, ID);
  const ansBoxes = answersColumn(ans, BOXES);
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test sample ${ID}.`,
    );
  }
  const subId = submissionColumn(submission, ID);
  const subBoxes = submissionColumn(submission, BOXES);
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, ID);
  const texts = submittedTexts(subBoxes);
  const where = (col: Column, row: number) => `${ID} ${cellText(cellAt(col, row))} (data row ${row + 1})`;
  const predicted = Array.from(subOrder, (row) => parseBoxes(texts[row], where(subId, row)));
  const truth = Array.from(ansOrder, (row) => {
    const text = cellAt(ansBoxes, row);
    if (typeof text !== "string") throw new Error(`Answers' ${BOXES} of ${where(ansId, row)} is not a list of boxes.`);
    try {
      return parseBoxes(text, where(ansId, row));
    } catch (e) {
      throw new Error(`Answers are broken: ${(e as Error).message}`);
    }
  });
  const maps = new Float64Array(THRESHOLDS.length * truth.length);
  truth.forEach((gt, k) => {
    const aps = sampleMeanAps(gt, predicted[k], where(subId, subOrder[k]), where(ansId, ansOrder[k]));
    maps.set(aps, k * THRESHOLDS.length);
  });
  return numpySum(maps) / maps.length;
}
