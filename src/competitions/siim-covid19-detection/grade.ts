import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Column, Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, submissionColumn } from "../../grading/columns.js";
import { VocPairs, descendingOrder } from "../../metrics/detection-map.js";
import { numpySum } from "../../metrics/sum.js";
import { type LabelledBoxes, parseLabelledBoxes } from "./prediction-string.js";

const IOU_THRESHOLD = 0.5;

/** Every row's boxes; a missing or non-text cell, or a malformed string, rejects the submission. */
function parseRows(col: Column, order: ArrayLike<number> | null, who: "Submission" | "Answers"): LabelledBoxes[] {
  const n = order ? order.length : col.values.length;
  const out: LabelledBoxes[] = new Array(n);
  for (let k = 0; k < n; k++) {
    const row = order ? order[k] : k;
    const cell = col.kind === "string" ? col.values[row] : null;
    const parsed = cell === null ? "must be text" : parseLabelledBoxes(cell);
    if (typeof parsed === "string") {
      const message = `${who} "PredictionString" on data row ${row + 1} ${parsed}` + (cell === null ? ", found a missing or numeric value." : ".");
      if (who === "Answers") throw new Error(message);
      throw new InvalidSubmissionError(message);
    }
    out[k] = parsed;
  }
  return out;
}

/** Indices of the boxes labelled `label`. */
function indicesOf(labels: readonly string[], label: string): number[] {
  const out: number[] = [];
  for (let b = 0; b < labels.length; b++) if (labels[b] === label) out.push(b);
  return out;
}

/**
 * Mean over the answers' labels (study classes, "none" and "opacity" alike) of the AP of
 * (matched, confidence) pairs at IoU > 0.5, with upstream's pairs: a missed truth is (1, 0) and
 * a row with neither truths nor predictions of the label is a true negative (0, 0).
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per study and image id.`,
    );
  }
  const subId = submissionColumn(submission, "id");
  const subPred = submissionColumn(submission, "PredictionString");
  const ansId = answersColumn(ans, "id");
  const ansPred = answersColumn(ans, "PredictionString");
  // Pairs are pooled over rows, so the row order does not change the score.
  const subOrder = alignToAnswers(subId, ansId, null, "id");
  const truths = parseRows(ansPred, null, "Answers");
  const preds = parseRows(subPred, subOrder, "Submission");
  if (truths.length === 0) return 0;

  const classes = [...new Set(truths.flatMap((t) => t.labels))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const scored = new Set(classes);
  for (let k = 0; k < preds.length; k++) {
    const p = preds[k];
    for (let b = 0; b < p.labels.length; b++) {
      // A NaN confidence on a scored label makes scikit-learn raise; on another label it would
      // only scramble Python's sort of the row, an order that cannot be reproduced faithfully.
      const c = p.confidences[b];
      if (Number.isNaN(c) || (!Number.isFinite(c) && scored.has(p.labels[b]))) {
        throw new InvalidSubmissionError(
          `Submission "PredictionString" on data row ${subOrder[k] + 1}: box ${b + 1} has confidence ${cellText(c)}; confidences must be finite numbers.`,
        );
      }
    }
  }

  const aps: number[] = [];
  for (const cls of classes) {
    const pairs = new VocPairs();
    for (let k = 0; k < truths.length; k++) {
      const p = preds[k];
      const t = truths[k];
      const order = descendingOrder(p.confidences, indicesOf(p.labels, cls));
      pairs.addImage(p.boxes, p.confidences, order, t.boxes, indicesOf(t.labels, cls), IOU_THRESHOLD);
    }
    if (!pairs.hasNegative()) {
      // Upstream asserts here: AP is undefined without a single negative pair.
      throw new InvalidSubmissionError(
        `Cannot score label "${cls}": every row has a "${cls}" box and every "${cls}" prediction matches one, ` +
          `so there is no negative example and average precision is undefined.`,
      );
    }
    aps.push(pairs.averagePrecision());
  }
  return aps.length > 0 ? numpySum(aps) / aps.length : 0;
}
